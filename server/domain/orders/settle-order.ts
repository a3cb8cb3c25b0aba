/**
 * How one order closes at expiry, wherever it is settled from (the scheduler's batches in
 * settle-batch.ts, a lone settlement in settlement.ts, the audit in verify.ts): the exit rule
 * against the candidate tick, the row moved open -> closed only `where status = 'open'`, the
 * payout through the ledger under `order:<id>:settle` (the key an early close uses too) and the
 * 'order.settled' event. Two settlers racing, or a settlement racing an early close, pay once.
 */
import type { Trx } from '../../db';
import { recordEvent, type DomainEventMap } from '../events';
import { postLedger, tradingCounterparty, withCounterparty, type Account, type LedgerKind, type LedgerPost } from '../ledger';
import type { Tick } from '../market/types';
import { closeReasonOf, exitRule } from '../market/exit-rule';
import { winPayout } from './pricing';
import { closeOpenOrder, openOrderForUpdate, type SettleRow } from './repository';
import { outcomeOf, type OrderRow } from './wire';
import type { OrderDirection, OrderResult } from '../../../contract/orders';
import { fromMinor } from '../../../contract/money';
import { findCurrency } from '../../../contract/currencies';

export const settleKey = (orderId: number) => `order:${orderId}:settle`;

/** The event result name for each order result (the event map predates early close and refunds). */
export function eventResult(result: OrderResult): DomainEventMap['order.settled']['result'] {
  if (result === 'closed_early') return 'closed';
  if (result === 'refunded') return 'tie';
  return result;
}

/** What settling an order against `exit` (the last tick at or before expiry; none: refund) gives. */
export function settlementOf(
  row: Pick<OrderRow, 'direction' | 'open_price' | 'price_precision' | 'stake' | 'payout_rate_bp'>,
  exit: Pick<Tick, 'price'> | undefined,
): { result: OrderResult; payout: number; kind: LedgerKind | null } {
  const stake = Number(row.stake);
  if (!exit) return { result: 'refunded', payout: stake, kind: 'order_refund' };
  const result = outcomeOf(row.direction as OrderDirection, Number(row.open_price), exit.price, Number(row.price_precision));
  if (result === 'won') return { result, payout: winPayout(stake, Number(row.payout_rate_bp)), kind: 'order_payout' };
  if (result === 'tie') return { result, payout: stake, kind: 'order_refund' };
  return { result, payout: 0, kind: null };
}

/** What settling an order changes on its row. */
export type SettleChanges = Pick<OrderRow, 'status' | 'result' | 'close_reason' | 'close_price' | 'exit_tick_time' | 'exit_tick_seq' | 'payout' | 'closed_at'>;

/**
 * Close one expired order inside `trx`. `exit` is the last tick at or before expiry, or
 * undefined when the log has none. The exit rule (market/exit-rule.ts, docs/trading.md) decides:
 * no tick, or one older than the pair's stale limit `staleLimitMs` before expiry, refunds the
 * stake and records why. Returns the closed row, or null when the order was not open (already
 * settled or closed early).
 */
export async function applySettlement<R extends SettleRow = OrderRow>(
  trx: Trx,
  order: number | R,
  candidate: Tick | undefined,
  now: number,
  staleLimitMs = Number.POSITIVE_INFINITY,
): Promise<(R & SettleChanges) | null> {
  // A row the caller read (and on PostgreSQL locked) in this transaction, open when read (a
  // batch reads all its orders in one query); else read here. The update below is conditional
  // on 'open' either way: that, not the read, is what settles an order once.
  const row: R | undefined = typeof order === 'number' ? ((await openOrderForUpdate(trx, order)) as R | undefined) : order;
  if (!row) return null;
  const closing = await closeForSettlement(trx, row, candidate, staleLimitMs);
  if (!closing) return null;
  if (closing.posting) await postLedger(trx, closing.posting, now);
  await recordEvent(trx, closing.event.type, closing.event.userId, closing.event.payload, now);
  return closing.closed;
}

/** An order closed by closeForSettlement: the row as stored, and what is left to write for it. */
export interface Closing<R extends SettleRow> {
  closed: R & SettleChanges;
  /** The payout or refund to post (key `order:<id>:settle`); null when nothing is paid. */
  posting: LedgerPost | null;
  event: { type: 'order.settled'; userId: number; payload: DomainEventMap['order.settled'] };
}

/**
 * The first half of settling an open order inside `trx`: decide with the exit rule and close the
 * row (`where status = 'open'`). Returns null when the order was not open. The caller then posts
 * `posting` and records `event` in the same transaction (applySettlement for one order, the
 * batch for many at once with postLedgerMany and recordEvents).
 */
export async function closeForSettlement<R extends SettleRow>(
  trx: Trx,
  row: R,
  candidate: Tick | undefined,
  staleLimitMs: number,
): Promise<Closing<R> | null> {
  if (row.status !== 'open') return null;
  const orderId = row.id;
  const expiresAt = Number(row.expires_at);
  // A close tick older than the entry tick means the log lost the ticks from the entry on.
  const decision = exitRule(candidate ? [candidate] : [], expiresAt, staleLimitMs, Number(row.entry_tick_seq));
  const exit = decision.tick ?? undefined;
  const { result, payout, kind } = settlementOf(row, exit);
  const changes = {
    status: 'closed',
    result,
    close_reason: closeReasonOf(decision.rule),
    close_price: exit?.price ?? null,
    exit_tick_time: exit?.time ?? null,
    exit_tick_seq: exit?.seq ?? null,
    payout,
    closed_at: expiresAt,
  } satisfies Partial<OrderRow>;
  const updated = await closeOpenOrder(trx, { ...changes, id: orderId });
  if (updated.changes !== 1) return null;
  const posting: LedgerPost | null =
    kind && payout > 0
      ? {
          key: settleKey(orderId),
          kind,
          userId: row.user_id,
          ref: { type: 'order', id: orderId },
          entries: withCounterparty(tradingCounterparty(row.account as Account), [{ currency: row.currency, account: row.account as Account, amount: payout }]),
        }
      : null;
  const decimals = findCurrency(row.currency)?.decimals ?? 2;
  return {
    // The closed row as stored (the update above is the only change): no second read.
    closed: { ...row, ...changes },
    posting,
    event: {
      type: 'order.settled',
      userId: row.user_id,
      payload: { order_id: orderId, result: eventResult(result), payout: fromMinor(payout, decimals), currency: row.currency },
    },
  };
}
