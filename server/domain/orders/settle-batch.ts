/**
 * Settlement of due orders in batches (the scheduler's queue in settlement.ts feeds it).
 *
 * A burst of expiries (thousands of orders in the same second) must not freeze the server:
 *   - the exit candidates are looked up ONCE per (pair, second) for a whole batch: the last tick
 *     before the second plus the second's ticks; each order's candidate is then the last of those
 *     at or before its own expiry (the same tick `tickAtOrBefore(pair, expires_at)` returns), and
 *     the exit rule (market/exit-rule.ts, inside applySettlement) decides on it;
 *   - the orders are settled in ONE write transaction per batch, ended early once it has run for
 *     BATCH_BUDGET_MS (the rest go back to the queue), so the event loop is never held for long;
 *   - between batches the loop yields (setImmediate): ticks, requests and pushes run.
 * The exactly-once rules are applySettlement's (`where status = 'open'`, ledger key
 * `order:<id>:settle`), unchanged: a batch that fails rolls back whole and its orders are retried
 * one by one by the caller. In a cluster (PostgreSQL) the batch first claims its open orders with
 * FOR UPDATE SKIP LOCKED: an order another node is settling right now is skipped, not waited for.
 */
import type { Tick } from '../market/types';
import type { OrdersDeps } from './deps';
import { postLedgerMany, type LedgerPost } from '../ledger';
import { recordEvents, type EventRecord } from '../events';
import { READ_CHUNK, settleRowsByIds, type SettleRow } from './repository';
import { closeForSettlement, type SettleChanges } from './settle-order';

/** At most this many orders are taken into one batch. */
export const BATCH_MAX = 500;
/** A batch's transaction stops taking orders after this long (the loop is blocked meanwhile). */
export const BATCH_BUDGET_MS = 10;

export interface DueOrder {
  id: number;
  pair: string;
  expiresAt: number;
}

export interface BatchResult {
  settled: (SettleRow & SettleChanges)[];
  /** Orders of the batch that were not reached within the budget: settle them next. */
  rest: DueOrder[];
}

/** The candidate ticks for orders of `pair` expiring within `second` (unix seconds), oldest first. */
export async function exitCandidates(deps: OrdersDeps, pair: string, second: number): Promise<Tick[]> {
  const from = second * 1000;
  const before = await deps.market.tickAtOrBefore(pair, from - 1);
  const within = await deps.market.ticksBetween(pair, from, from + 999);
  return before ? [before, ...within] : within;
}

/** The last tick at or before `expiresAt` among `ticks` (highest seq among equal times). */
export function candidateAt(ticks: readonly Tick[], expiresAt: number): Tick | undefined {
  let best: Tick | undefined;
  for (const t of ticks) {
    if (t.time > expiresAt) continue;
    if (!best || t.time > best.time || (t.time === best.time && t.seq > best.seq)) best = t;
  }
  return best;
}

/**
 * Settle one batch of due orders (every one of them final: its expiry passed and a later tick
 * exists or the grace is over). Reads the candidates before the transaction (the market may read
 * the database, which must not happen inside a write transaction on the same connection).
 */
export async function settleBatch(deps: OrdersDeps, batch: readonly DueOrder[]): Promise<BatchResult> {
  const candidates = new Map<string, Tick[]>();
  for (const o of batch) {
    const key = `${o.pair}|${Math.floor(o.expiresAt / 1000)}`;
    if (!candidates.has(key)) candidates.set(key, await exitCandidates(deps, o.pair, Math.floor(o.expiresAt / 1000)));
  }
  const staleLimit = new Map<string, number>();
  const limitOf = (pair: string) => {
    let limit = staleLimit.get(pair);
    if (limit === undefined) staleLimit.set(pair, (limit = deps.market.staleLimitMs(pair)));
    return limit;
  };
  return deps.tx(async (trx) => {
    const started = performance.now();
    const settled: (SettleRow & SettleChanges)[] = [];
    const logged = new Set<string>();
    const now = deps.now();
    let i = 0;
    // A chunk at a time: its rows read in one query, each order closed, then the chunk's
    // payouts posted and its events recorded with multi-row statements (postLedgerMany,
    // recordEvents). The budget is checked between chunks.
    for (; i < batch.length; i += READ_CHUNK) {
      if (i > 0 && performance.now() - started > BATCH_BUDGET_MS) break;
      const chunk = batch.slice(i, i + READ_CHUNK);
      const open = await settleRowsByIds(trx, chunk, Boolean(deps.cluster));
      const postings: LedgerPost[] = [];
      const events: EventRecord[] = [];
      for (const o of chunk) {
        const row = open.get(o.id);
        if (!row) continue;
        const exit = candidateAt(candidates.get(`${o.pair}|${Math.floor(o.expiresAt / 1000)}`) ?? [], o.expiresAt);
        const closing = await closeForSettlement(trx, row, exit, limitOf(o.pair));
        if (!closing) continue;
        settled.push(closing.closed);
        if (closing.posting) postings.push(closing.posting);
        events.push(closing.event);
        // The exit tick is logged with the settlement (once per batch), whatever the market's batched write does.
        if (exit && closing.closed.exit_tick_seq !== null && !logged.has(`${exit.pair_code}|${exit.seq}`)) {
          logged.add(`${exit.pair_code}|${exit.seq}`);
          await deps.market.logTick(trx, exit);
        }
      }
      await postLedgerMany(trx, postings, now);
      await recordEvents(trx, events, now);
    }
    return { settled, rest: batch.slice(i) };
  });
}
