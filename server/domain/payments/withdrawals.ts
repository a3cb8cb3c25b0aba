/**
 * Withdrawals from the real account. In ONE transaction the pending row is inserted and the
 * amount is held (ledger key `withdrawal:<id>:hold`: real -a, real_hold +a), so the balance
 * check and the hold cannot be split by a concurrent request: twenty withdrawals at once that
 * together exceed the balance hold at most the balance and the others get "Insufficient
 * balance". The operator then pays out (approve: real_hold -a) or refuses (reject: the hold
 * goes back to real); see review.ts. A card method's requisites must be a valid card number;
 * the row keeps it whole for the operator, the owner gets it back masked (wire.ts).
 */
import { ErrorText } from '../../../contract/envelope';
import { PaymentErrorText, cardNumberProblem, isCardMethod, type WithdrawalRequest, type WithdrawalResult } from '../../../contract/payments';
import { invalid } from '../errors';
import { InsufficientBalanceError, getBalanceMinor } from '../ledger';
import { checkMethodAndAmount } from './amounts';
import { providerFor, sameRequestOrThrow, type ProviderRegistry, type RequestIdentity } from './deposits';
import type { PaymentsDeps } from './deps';
import type { Replayable } from '../results';
import { isUniqueViolation } from '../../db/errors';
import { findPaymentByRequestId, insertPayment, requirePayment } from './repository';
import { holdKey, movePaymentMoney } from './status';
import { storedPaymentDetails, toWireTransaction, EMPTY_PAYMENT_COLUMNS, type PaymentTxRow } from './wire';

const insufficient = () => invalid(ErrorText.insufficientBalance, [{ field: 'amount', message: ErrorText.insufficientBalance }]);

/** A card method's requisites must be a card number: 12 to 19 digits (spaces and hyphens allowed) passing the Luhn check. */
function checkCardNumber(requisites: string): void {
  const problem = cardNumberProblem(requisites);
  if (problem === null) return;
  const message = problem === 'length' ? PaymentErrorText.cardNumberLength : PaymentErrorText.cardNumberInvalid;
  throw invalid(message, [{ field: 'payment_details.requisites', message }]);
}

export async function createWithdrawal(
  deps: PaymentsDeps,
  providers: ProviderRegistry,
  userId: number,
  input: WithdrawalRequest,
): Promise<Replayable<PaymentTxRow>> {
  const checked = await checkMethodAndAmount(deps.db, 'withdrawal', input.payment_method_id, input.currency, input.amount, deps.mode, deps.rates);
  const { method, currency, amount } = checked;
  if (isCardMethod(method)) checkCardNumber(input.payment_details.requisites);
  const provider = providerFor(providers, method.integration_type);
  if (!provider.createWithdrawal) throw invalid(PaymentErrorText.withdrawDisabled);
  const terms = provider.createWithdrawal(method);
  const requestId = input.client_request_id ?? null;
  const details = storedPaymentDetails(input.payment_details);
  const identity: RequestIdentity = { type: 'withdrawal', methodId: method.id, currency: currency.iso_code, amount, details };
  const replay = (row: PaymentTxRow) => ({ value: sameRequestOrThrow(row, identity), created: false });

  if (requestId) {
    const earlier = await findPaymentByRequestId(deps.db, userId, requestId);
    if (earlier) return replay(earlier);
  }
  try {
    return await deps.tx(async (trx) => {
      if (requestId) {
        const earlier = await findPaymentByRequestId(trx, userId, requestId);
        if (earlier) return replay(earlier);
      }
      if ((await getBalanceMinor(trx, userId, currency.iso_code, 'real')) < amount) throw insufficient();
      const now = deps.now();
      const id = await insertPayment(trx, {
        ...EMPTY_PAYMENT_COLUMNS,
        user_id: userId,
        transaction_type: 'withdrawal',
        status: 'pending',
        client_request_id: requestId,
        payment_method_id: method.id,
        method_name: method.name,
        integration_type: method.integration_type,
        account: 'real',
        currency: currency.iso_code,
        amount,
        final_amount: amount,
        payment_currency: checked.paymentCurrency.iso_code,
        amount_payment_currency: checked.amountPayment,
        exchange_rate: checked.exchangeRate,
        crypto_wallet_address: method.integration_type === 'crypto_address' ? input.payment_details.requisites : null,
        crypto_network: method.crypto_network,
        payment_details: JSON.stringify(details),
        estimated_processing_time: terms.estimated_processing_time,
        created_at: now,
        updated_at: now,
      });
      const row = await requirePayment(trx, id);
      await movePaymentMoney(
        trx,
        row,
        holdKey(row.id),
        'withdrawal_hold',
        [
          { currency: currency.iso_code, account: 'real', amount: -amount },
          { currency: currency.iso_code, account: 'real_hold', amount },
        ],
        now,
        true,
      );
      const held = await requirePayment(trx, row.id);
      return { value: held, created: true };
    });
  } catch (err) {
    if (err instanceof InsufficientBalanceError) throw insufficient();
    if (requestId && isUniqueViolation(err)) {
      const earlier = await findPaymentByRequestId(deps.db, userId, requestId);
      if (earlier) return replay(earlier);
    }
    throw err;
  }
}

/** The withdrawal answer (spec section 3, Withdrawal result). */
export function withdrawalResult(row: PaymentTxRow): WithdrawalResult {
  const transaction = toWireTransaction(row);
  return {
    transaction_id: row.id,
    payment_method: row.method_name,
    status: transaction.approval_status,
    estimated_processing_time: row.estimated_processing_time ?? '',
    transaction,
  };
}
