/**
 * Status changes of a deposit or withdrawal, each inside the caller's transaction:
 * the row's status moves only from the statuses named (`where status in (...)`, so a repeated
 * or raced change is a no-op), the `payment.status` event is recorded with it (the socket
 * pushes payment_status_update from the outbox, also for changes made by the CLI process), and
 * the money moves through the ledger with a key per transaction and step:
 *
 *   deposit:<id>:credit        deposit_credit       real +a, house:clearing:<provider> -a
 *   withdrawal:<id>:hold       withdrawal_hold      real -a, real_hold +a
 *   withdrawal:<id>:payout     withdrawal_payout    real_hold -a, house:clearing:<provider> +a
 *   withdrawal:<id>:release    withdrawal_release   real_hold -a, real +a
 */
import type { ApprovalStatus } from '../../../contract/payments';
import type { Trx } from '../../db';
import { recordEvent } from '../events';
import { postLedger, realLedgerEntry, withCounterparty, type LedgerEntryInput, type LedgerKind } from '../ledger';
import { clearingFor } from './clearing';
import { FINAL_STATUSES, needsStatusPolling } from './polling';
import { LATE_PAYMENT_PREFIX, setPaymentBalances, updatePaymentStatus, type StatusPatch } from './repository';
import type { PaymentTxRow } from './wire';

export const creditKey = (id: number) => `deposit:${id}:credit`;
export const holdKey = (id: number) => `withdrawal:${id}:hold`;
export const payoutKey = (id: number) => `withdrawal:${id}:payout`;
export const releaseKey = (id: number) => `withdrawal:${id}:release`;

/** The client_request_id of the review row recorded when a payment arrives for failed deposit `id` (deposits.ts). */
export const latePaymentKey = (id: number) => `${LATE_PAYMENT_PREFIX}${id}`;
export const isLatePaymentReview = (row: Pick<PaymentTxRow, 'client_request_id'>) => row.client_request_id?.startsWith(LATE_PAYMENT_PREFIX) ?? false;

/** Move `row` to `to` if it is still in one of `from`; true when this call changed it. */
export async function changeStatus(
  trx: Trx,
  row: PaymentTxRow,
  to: ApprovalStatus,
  from: readonly ApprovalStatus[],
  now: number,
  patch: StatusPatch = {},
): Promise<boolean> {
  if (!(await updatePaymentStatus(trx, row.id, to, from, now, patch))) return false;
  await recordEvent(trx, 'payment.status', row.user_id, { transaction_id: row.id, status: to, transaction_type: row.transaction_type }, now);
  // The watch of a crypto/link deposit ends with its final status (polling.ts).
  if (FINAL_STATUSES.includes(to) && needsStatusPolling(row)) await recordEvent(trx, 'payment.polling', row.user_id, { transaction_id: row.id, polling: false }, now);
  return true;
}

/**
 * Post one money movement of a payment and, when `trackBalance`, keep the real balance around
 * it on the row (balance_before/after come from the ledger entry, not from a separate read).
 */
export async function movePaymentMoney(
  trx: Trx,
  row: PaymentTxRow,
  key: string,
  kind: LedgerKind,
  entries: LedgerEntryInput[],
  now: number,
  trackBalance: boolean,
): Promise<void> {
  const posted = await postLedger(trx, { key, kind, userId: row.user_id, ref: { type: 'payment', id: row.id }, entries }, now);
  if (!posted.applied || !trackBalance) return;
  const real = entries.find((e) => e.account === 'real');
  if (!real) return;
  const entry = await realLedgerEntry(trx, posted.ledgerTxId);
  if (!entry) return;
  const after = Number(entry.balance_after);
  await setPaymentBalances(trx, row.id, after - Number(entry.amount), after);
}

/** Approve a deposit and credit it, once. False when it was not in one of `from`. */
export async function approveDeposit(
  trx: Trx,
  row: PaymentTxRow,
  from: readonly ApprovalStatus[],
  now: number,
  patch: StatusPatch = {},
): Promise<boolean> {
  if (!(await changeStatus(trx, row, 'approved', from, now, { error_message: null, ...patch }))) return false;
  const amount = Number(row.amount);
  await movePaymentMoney(trx, row, creditKey(row.id), 'deposit_credit', withCounterparty(clearingFor(row), [{ currency: row.currency, account: 'real', amount }]), now, true);
  return true;
}

/** Pay out a held withdrawal: the hold leaves the platform. */
export async function approveWithdrawal(trx: Trx, row: PaymentTxRow, now: number): Promise<boolean> {
  if (!(await changeStatus(trx, row, 'approved', ['pending', 'processing'], now, { error_message: null }))) return false;
  const amount = Number(row.amount);
  await movePaymentMoney(trx, row, payoutKey(row.id), 'withdrawal_payout', withCounterparty(clearingFor(row), [{ currency: row.currency, account: 'real_hold', amount: -amount }]), now, false);
  return true;
}

/** Refuse a withdrawal: the hold goes back to the real balance. */
export async function rejectWithdrawal(trx: Trx, row: PaymentTxRow, reason: string, now: number): Promise<boolean> {
  if (!(await changeStatus(trx, row, 'failed', ['pending', 'processing'], now, { error_message: reason }))) return false;
  const amount = Number(row.amount);
  await movePaymentMoney(
    trx,
    row,
    releaseKey(row.id),
    'withdrawal_release',
    [
      { currency: row.currency, account: 'real_hold', amount: -amount },
      { currency: row.currency, account: 'real', amount },
    ],
    now,
    false,
  );
  return true;
}
