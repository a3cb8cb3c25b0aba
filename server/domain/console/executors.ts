/**
 * What an approved four-eyes request does (server/domain/approvals/service.ts runs it inside the
 * approval's transaction, so the change and the request's `executed` commit together or not at
 * all):
 *
 * - withdrawal {payment_id}: pay out the held withdrawal through the payments area's own review
 *   step (the one `admin tx approve` uses); a withdrawal that is no longer pending is a 409 and
 *   nothing changes.
 * - balance_adjustment {user_id, currency, amount_minor}: a ledger posting between the user's
 *   real balance and `house:adjustments`, keyed `adjustment:<approval id>`; a user balance never
 *   goes below zero (400).
 * - risk_limit_raise {pair, limit_usd_minor}: the pair's new limit.
 * - pair_enable {pair}: the pair on again (with the `pairs.changed` event every node hears).
 */
import type { ApprovalKind } from '../../../contract/console';
import { ConsoleText } from '../../../contract/console';
import type { ApprovalExecutor } from '../approvals/deps';
import { conflict, invalid, notFound } from '../errors';
import { HOUSE_ADJUSTMENTS, InsufficientBalanceError, postLedger, withCounterparty } from '../ledger';
import { setPairActiveIn } from '../market/pair-admin';
import { setPairLimit } from '../orders/repository';
import { decideIn } from '../payments/review';

const num = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : NaN);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function approvalExecutors(): Record<ApprovalKind, ApprovalExecutor> {
  return {
    withdrawal: async (trx, { payload }, now) => {
      const outcome = await decideIn(trx, now, num(payload.payment_id), 'approved', '');
      if (!outcome.changed) throw conflict(ConsoleText.approvalStale);
      return { payment_id: Number(outcome.row.id), status: outcome.row.status };
    },
    balance_adjustment: async (trx, { id, payload }, now) => {
      const userId = num(payload.user_id);
      const currency = str(payload.currency);
      const amount = num(payload.amount_minor);
      try {
        const r = await postLedger(
          trx,
          {
            key: `adjustment:${id}`,
            kind: 'balance_adjustment',
            userId,
            ref: { type: 'approval', id },
            entries: withCounterparty(HOUSE_ADJUSTMENTS, [{ currency, account: 'real', amount }]),
          },
          now,
        );
        return { ledger_tx_id: r.ledgerTxId, applied: r.applied };
      } catch (err) {
        if (err instanceof InsufficientBalanceError) throw invalid(ConsoleText.adjustmentNegative);
        throw err;
      }
    },
    risk_limit_raise: async (trx, { payload }, now) => {
      await setPairLimit(trx, str(payload.pair), num(payload.limit_usd_minor), now);
      return { pair: payload.pair, limit_usd_minor: payload.limit_usd_minor };
    },
    pair_enable: async (trx, { payload }, now) => {
      const r = await setPairActiveIn(trx, str(payload.pair), true, now);
      if (!r) throw notFound(ConsoleText.pairNotFound);
      return { pair: payload.pair, changed: r.changed };
    },
  };
}
