/**
 * Crypto withdrawals in live mode are OxaPay payouts (POST /v1/payout with the PAYOUT key).
 *
 *   1. withdrawals.ts inserts the pending row and holds the amount (one transaction).
 *   2. sendPayout (outside any transaction) asks OxaPay to pay the address the amount in the
 *      method's payment currency, with callback_url = PUBLIC_URL/api/v2/payments/webhooks/oxapay/payout.
 *        accepted      -> track_id kept in invoice_id, status processing.
 *        refused       -> the withdrawal fails and the hold is released at once (one
 *                         transaction); the user gets 502 "The payment provider refused the payout".
 *        no answer     -> the outcome is unknown (OxaPay may have created the payout and the
 *                         docs give no idempotency key), so the hold is KEPT: the row goes to
 *                         processing with a note for the operator, who checks OxaPay's payout
 *                         history and approves or rejects (`npm run admin -- tx approve|reject`).
 *   3. The payout webhook (HMAC with the PAYOUT key) or the reconciliation (GET /v1/payout/{id})
 *      finishes it: confirmed -> approved (the hold leaves: withdrawal_payout); rejected or
 *      canceled -> failed and the hold released (withdrawal_release); other statuses ->
 *      processing. Each step is status-guarded and ledger-keyed, so replays change nothing.
 */
import { toMinor, fromMinor } from '../../../../contract/money';
import { PaymentErrorText } from '../../../../contract/payments';
import { OxapayPayoutSchema, type OxapayPayout } from '../../../../contract/oxapay';
import { ProviderFailed, invalid, notFound } from '../../errors';
import { parseInput } from '../../parse';
import type { PaymentsDeps } from '../deps';
import { paymentStatus, payoutForUpdate, requirePayment, setPaymentHash, setPaymentInvoiceId } from '../repository';
import { approveWithdrawal, changeStatus, rejectWithdrawal } from '../status';
import { decimalsOf, type PaymentTxRow } from '../wire';
import { parseJsonBody } from '../providers/crypto-address';
import type { RequestHeaders } from '../providers/types';
import { OxapayError, type OxapayClient } from './client';
import { oxapayNetwork, verifyOxapaySignature } from './providers';

export const PAYOUT_WEBHOOK_PATH = '/api/v2/payments/webhooks/oxapay/payout';

/** Step 2 above. Returns the row as it is afterwards; throws 502 when OxaPay refused. */
export async function sendPayout(deps: PaymentsDeps, client: OxapayClient, publicUrl: () => string, row: PaymentTxRow): Promise<PaymentTxRow> {
  if (!row.crypto_wallet_address) throw new Error(`withdrawal #${row.id} has no address`);
  const network = oxapayNetwork(row.crypto_network);
  try {
    const payout = await client.createPayout({
      address: row.crypto_wallet_address,
      currency: row.payment_currency,
      amount: fromMinor(Number(row.amount_payment_currency), decimalsOf(row.payment_currency)),
      ...(network ? { network } : {}),
      callback_url: `${publicUrl()}${PAYOUT_WEBHOOK_PATH}`,
      description: `TradeTerminal withdrawal #${row.id}`,
    });
    await deps.tx(async (trx) => {
      await setPaymentInvoiceId(trx, row.id, payout.track_id);
      await changeStatus(trx, row, 'processing', ['pending'], deps.now());
    });
    return requirePayment(deps.db, row.id);
  } catch (err) {
    if (err instanceof OxapayError && err.kind === 'refused') {
      deps.log?.warn({ err: err.message, transaction_id: row.id }, 'oxapay: payout refused, hold released');
      await deps.tx((trx) => rejectWithdrawal(trx, row, PaymentErrorText.payoutRefused, deps.now()));
      throw new ProviderFailed(PaymentErrorText.payoutRefused);
    }
    // Unknown outcome: keep the hold, leave it to the operator.
    deps.log?.warn({ err: (err as Error).message, transaction_id: row.id }, 'oxapay: payout outcome unknown, hold kept for the operator');
    await deps.tx((trx) => changeStatus(trx, row, 'processing', ['pending'], deps.now(), { error_message: PaymentErrorText.payoutUnknown }));
    return requirePayment(deps.db, row.id);
  }
}

export interface PayoutResult {
  transactionId: number;
  status: string;
  changed: boolean;
}

/** Step 3: apply what OxaPay says about a payout (webhook or reconciliation). */
export async function applyPayout(deps: PaymentsDeps, p: OxapayPayout): Promise<PayoutResult> {
  return deps.tx(async (trx) => {
    const row = await payoutForUpdate(trx, p.track_id);
    if (!row) throw notFound(PaymentErrorText.unknownInvoice);
    if (p.currency.toUpperCase() !== row.payment_currency) throw invalid(PaymentErrorText.currencyMismatch);
    const amount = toMinor(String(p.amount), decimalsOf(row.payment_currency));
    if (amount === null || amount !== Number(row.amount_payment_currency)) throw invalid(PaymentErrorText.amountMismatch);
    const now = deps.now();
    let changed: boolean;
    if (p.status === 'confirmed' || p.status === 'complete') {
      changed = await approveWithdrawal(trx, row, now);
      if (changed && p.tx_hash) {
        await setPaymentHash(trx, row.id, p.tx_hash);
      }
    } else if (p.status === 'rejected' || p.status === 'canceled' || p.status === 'cancelled') {
      changed = await rejectWithdrawal(trx, row, PaymentErrorText.payoutRefused, now);
    } else {
      changed = await changeStatus(trx, row, 'processing', ['pending'], now);
    }
    return { transactionId: row.id, status: await paymentStatus(trx, row.id), changed };
  });
}

/** The payout webhook: HMAC-SHA512 of the raw body with the PAYOUT key, then applyPayout. */
export function handlePayoutWebhook(deps: PaymentsDeps, payoutApiKey: string, rawBody: Buffer, headers: RequestHeaders): Promise<PayoutResult> {
  verifyOxapaySignature(payoutApiKey, rawBody, headers);
  return applyPayout(deps, parseInput(OxapayPayoutSchema, parseJsonBody(rawBody)));
}
