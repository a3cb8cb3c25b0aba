/**
 * Checks shared by deposits and withdrawals: the amount in minor units (no more decimals than
 * the currency has), the method's availability for the currency and direction, and its
 * min/max in that currency ("Amount too low" / "Amount too high" with the bound).
 */
import { findCurrency, type Currency } from '../../../contract/currencies';
import { formatMinor, toMinor } from '../../../contract/money';
import { PaymentErrorText, convertMinor, exchangeRate, methodSupportsCurrency, sumsInMinor, type AmountInput } from '../../../contract/payments';
import type { Trx } from '../../db';
import { invalid } from '../errors';
import { toWireMethod } from './methods';
import { findPaymentMethod } from './repository';
import type { PaymentMethodRow } from './wire';
import { methodOffered, type PaymentsMode } from './mode';

const amountError = (message: string) => invalid(message, [{ field: 'amount', message }]);

export function amountMinor(amount: AmountInput, currency: Currency): number {
  const minor = toMinor(amount, currency.decimals);
  if (minor === null) throw amountError(`Amount may have at most ${currency.decimals} decimals in ${currency.iso_code}`);
  if (minor <= 0) throw amountError('Amount must be greater than 0');
  return minor;
}

export interface CheckedMethod {
  method: PaymentMethodRow;
  currency: Currency;
  amount: number;
  paymentCurrency: Currency;
  amountPayment: number;
  exchangeRate: string;
}

/** Everything about a deposit/withdrawal request that does not depend on the user's balance. */
export async function checkMethodAndAmount(
  trx: Trx,
  direction: 'deposit' | 'withdrawal',
  methodId: string,
  currencyCode: string,
  amount: AmountInput,
  mode: PaymentsMode = 'sandbox',
): Promise<CheckedMethod> {
  const currency = findCurrency(currencyCode);
  if (!currency) throw invalid('Unknown currency', [{ field: 'currency', message: 'Unknown currency' }]);
  const minor = amountMinor(amount, currency);
  const method = await findPaymentMethod(trx, methodId);
  // A method of the other payments mode (mode.ts) does not exist for this server.
  if (!method || Number(method.is_active) !== 1 || !methodOffered(method.id, mode)) {
    throw invalid(PaymentErrorText.methodNotFound, [{ field: 'payment_method_id', message: PaymentErrorText.methodNotFound }]);
  }
  const wire = toWireMethod(method);
  if (direction === 'deposit' && !wire.deposit_enabled) {
    throw invalid(PaymentErrorText.depositDisabled, [{ field: 'payment_method_id', message: PaymentErrorText.depositDisabled }]);
  }
  if (direction === 'withdrawal' && !wire.withdraw_enabled) {
    throw invalid(PaymentErrorText.withdrawDisabled, [{ field: 'payment_method_id', message: PaymentErrorText.withdrawDisabled }]);
  }
  if (!methodSupportsCurrency(wire, currency.iso_code)) {
    throw invalid(PaymentErrorText.currencyNotSupported, [{ field: 'currency', message: PaymentErrorText.currencyNotSupported }]);
  }
  const sums = sumsInMinor(wire, currency.iso_code);
  if (!sums) throw invalid(PaymentErrorText.currencyNotSupported);
  if (minor < sums.min) throw amountError(`${PaymentErrorText.amountTooLow}: minimum ${formatMinor(sums.min, currency.decimals)} ${currency.iso_code}`);
  if (minor > sums.max) throw amountError(`${PaymentErrorText.amountTooHigh}: maximum ${formatMinor(sums.max, currency.decimals)} ${currency.iso_code}`);

  const paymentCurrency = (method.payment_currency && findCurrency(method.payment_currency)) || currency;
  const amountPayment = convertMinor(minor, currency, paymentCurrency, 'down');
  if (amountPayment <= 0) throw amountError(`${PaymentErrorText.amountTooLow}: minimum ${formatMinor(sums.min, currency.decimals)} ${currency.iso_code}`);
  return {
    method,
    currency,
    amount: minor,
    paymentCurrency,
    amountPayment,
    exchangeRate: exchangeRate(currency, paymentCurrency).toFixed(6),
  };
}
