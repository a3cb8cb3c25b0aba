/**
 * The operator's decisions (`npm run admin -- tx approve|reject <id>`): approve a deposit
 * (credit) or a withdrawal (pay out the hold), reject a deposit (failed) or a withdrawal
 * (release the hold). Each is one transaction with its status guard and ledger key, so running
 * the command twice, or racing a provider callback, moves money once. Works on the database
 * directly: the CLI is another process, and the change reaches the user's sockets through the
 * domain_events outbox the server polls.
 */
import type { ApprovalStatus } from '../../../contract/payments';
import { PaymentErrorText } from '../../../contract/payments';
import type { Trx } from '../../db';
import { conflict, notFound } from '../errors';
import type { PaymentsDeps } from './deps';
import { paymentForUpdate, requirePayment } from './repository';
import { approveDeposit, approveWithdrawal, changeStatus, rejectWithdrawal } from './status';
import type { PaymentTxRow } from './wire';

export const DEFAULT_REJECT_REASON = 'Rejected by the operator';
/**
 * A deposit the operator may still approve: also after its payment window or a cancellation at
 * the provider, money may arrive late. A failed (rejected) one is final; a payment reported for
 * it later becomes a review row of its own (deposits.ts, late payments).
 */
const DEPOSIT_OPEN: readonly ApprovalStatus[] = ['pending', 'processing', 'expired', 'cancelled'];

export interface ReviewOutcome {
  row: PaymentTxRow;
  /** False when the transaction was already in the requested final state (nothing changed). */
  changed: boolean;
}

/** Runs inside the decision's transaction after a change (the console's audit row). */
export type InTransaction = (trx: Trx, before: PaymentTxRow, after: PaymentTxRow) => Promise<void>;

async function decide(deps: PaymentsDeps, id: number, target: 'approved' | 'failed', reason: string, hook?: InTransaction): Promise<ReviewOutcome> {
  return deps.tx((trx) => decideIn(trx, deps.now(), id, target, reason, hook));
}

/** The decision on the caller's transaction (the console's four-eyes approval executes it there). */
export async function decideIn(trx: Trx, now: number, id: number, target: 'approved' | 'failed', reason: string, hook?: InTransaction): Promise<ReviewOutcome> {
  const row = await paymentForUpdate(trx, id);
  if (!row) throw notFound(`${PaymentErrorText.transactionNotFound}: #${id}`);
  let changed: boolean;
  if (row.transaction_type === 'deposit') {
    changed =
      target === 'approved'
        ? await approveDeposit(trx, row, DEPOSIT_OPEN, now)
        : await changeStatus(trx, row, 'failed', DEPOSIT_OPEN, now, { error_message: reason });
  } else {
    changed = target === 'approved' ? await approveWithdrawal(trx, row, now) : await rejectWithdrawal(trx, row, reason, now);
  }
  const after = await requirePayment(trx, id);
  if (!changed && after.status !== target) {
    throw conflict(`Transaction #${id} is ${after.status} and cannot be ${target === 'approved' ? 'approved' : 'rejected'}`);
  }
  if (changed && hook) await hook(trx, row, after);
  return { row: after, changed };
}

export function approveTransaction(deps: PaymentsDeps, id: number, hook?: InTransaction): Promise<ReviewOutcome> {
  return decide(deps, id, 'approved', '', hook);
}

export function rejectTransaction(deps: PaymentsDeps, id: number, reason: string = DEFAULT_REJECT_REASON, hook?: InTransaction): Promise<ReviewOutcome> {
  return decide(deps, id, 'failed', reason, hook);
}
