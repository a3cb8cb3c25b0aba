/**
 * Checks shared by deposits and withdrawals: the amount in minor units (no more decimals than
 * the currency has), the method's availability for the currency and direction, and its
 * min/max in that currency ("Amount too low" / "Amount too high" with the bound).
 */
import { findCurrency, rateVia, type Currency, type Rate } from '../../../contract/currencies';
import { formatMinor, toMinor } from '../../../contract/money';
import {
  PaymentErrorText,
  convertMinor,
  displayRate,
  methodSupportsCurrency,
  paymentDecimals,
  roundToDecimals,
  sumsInMinor,
  type AmountInput,
} from '../../../contract/payments';
import type { Trx } from '../../db';
import { invalid } from '../errors';
import { toWireMethod } from './methods';
import { findPaymentMethod } from './repository';
import type { PaymentMethodRow } from './wire';
import { methodOffered, type PaymentsMode } from './mode';
import type { PaymentRates } from './deps';

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
  /** Units of the payment currency per 1 unit of the account currency, as stored (displayRate). */
  exchangeRate: string;
  /** The rate used, with its source and time. */
  rate: Rate;
}

/** The configured rates (no market: the CLI). */
const CONFIGURED: PaymentRates = { rate: (from, to) => rateVia({}, from, to), table: () => ({}) };

/** Everything about a deposit/withdrawal request that does not depend on the user's balance. */
export async function checkMethodAndAmount(
  trx: Trx,
  direction: 'deposit' | 'withdrawal',
  methodId: string,
  currencyCode: string,
  amount: AmountInput,
  mode: PaymentsMode = 'sandbox',
  rates: PaymentRates = CONFIGURED,
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
  const sums = sumsInMinor(wire, currency.iso_code, rates.table());
  if (!sums) throw invalid(PaymentErrorText.currencyNotSupported);
  if (minor < sums.min) throw amountError(`${PaymentErrorText.amountTooLow}: minimum ${formatMinor(sums.min, currency.decimals)} ${currency.iso_code}`);
  if (minor > sums.max) throw amountError(`${PaymentErrorText.amountTooHigh}: maximum ${formatMinor(sums.max, currency.decimals)} ${currency.iso_code}`);

  const paymentCurrency = (method.payment_currency && findCurrency(method.payment_currency)) || currency;
  // The payment currency's amount at the market's rate, rounded to what its network can carry:
  // up for a deposit (the payer sends at least the value: 54.347827 USDT on TRC20, never
  // 54.34782608), down for a withdrawal (never more than was debited). docs/money.md.
  const rate = rates.rate(currency.iso_code, paymentCurrency.iso_code);
  const round = direction === 'deposit' ? 'up' : 'down';
  const converted = convertMinor(minor, currency, paymentCurrency, rate.rate, round);
  const amountPayment =
    paymentCurrency.iso_code === currency.iso_code
      ? converted
      : roundToDecimals(converted, paymentCurrency.decimals, paymentDecimals(paymentCurrency, method.crypto_network), round);
  if (amountPayment <= 0) throw amountError(`${PaymentErrorText.amountTooLow}: minimum ${formatMinor(sums.min, currency.decimals)} ${currency.iso_code}`);
  return {
    method,
    currency,
    amount: minor,
    paymentCurrency,
    amountPayment,
    exchangeRate: String(displayRate(rate.rate)),
    rate,
  };
}
