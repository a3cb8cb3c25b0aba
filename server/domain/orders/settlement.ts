/**
 * Settlement at expiry, and the scheduler that runs it on the server's clock.
 *
 * Close price = the last tick at or before expires_at. That tick is only final once the feed has
 * produced a tick AFTER expires_at (or a grace period has passed with none), so the scheduler
 * waits for whichever comes first: every tick of the pair is checked against the orders waiting
 * on it, and each order has a timer for its expiry and then for the end of its grace.
 *
 * Each settlement is ONE transaction: the order row moves open -> closed only `where status =
 * 'open'`, the payout goes through the ledger with key `order:<id>:settle` (the same key an early
 * close uses), and 'order.settled' is recorded. Two settlers racing, or a settlement racing an
 * early close, therefore pay once. On start every open order is loaded: overdue ones settle at
 * once against the tick log, the rest are scheduled.
 */
import type { Trx } from '../../db';
import { recordEvent, type DomainEventMap } from '../events';
import { postLedger, tradingCounterparty, withCounterparty, type Account, type LedgerKind } from '../ledger';
import type { Tick } from '../market/types';
import type { OrdersDeps } from './deps';
import { winPayout } from './pricing';
import { outcomeOf, type OrderRow } from './wire';
import type { OrderDirection, OrderResult } from '../../../contract/orders';
import { fromMinor } from '../../../contract/money';
import { findCurrency } from '../../../contract/currencies';

/** How long after expiry a settlement waits for a later tick before taking the log as final. */
export const SETTLEMENT_GRACE_MS = 1000;
/** Pause before retrying a settlement whose transaction failed. */
export const SETTLEMENT_RETRY_MS = 1000;

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

/**
 * Close one expired order inside `trx`. `exit` is the last tick at or before expiry, or
 * undefined when the log has none (the stake is refunded and the reason recorded). Returns the
 * closed row, or null when the order was not open (already settled or closed early).
 */
export async function applySettlement(trx: Trx, orderId: number, exit: Tick | undefined, now: number): Promise<OrderRow | null> {
  const row = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).where('status', '=', 'open').executeTakeFirst();
  if (!row) return null;
  // The close tick can never be older than the entry tick (the entry is a tick at or before
  // expiry); one that is means the log lost the ticks from the entry on: no known close price.
  if (exit && exit.seq < Number(row.entry_tick_seq)) exit = undefined;
  const { result, payout, kind } = settlementOf(row, exit);
  const expiresAt = Number(row.expires_at);
  const updated = await trx
    .updateTable('orders')
    .set({
      status: 'closed',
      result,
      close_reason: exit ? 'expiry' : 'no_price_at_expiry',
      close_price: exit?.price ?? null,
      exit_tick_time: exit?.time ?? null,
      exit_tick_seq: exit?.seq ?? null,
      payout,
      closed_at: expiresAt,
    })
    .where('id', '=', orderId)
    .where('status', '=', 'open')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return null;
  if (kind && payout > 0) {
    await postLedger(
      trx,
      {
        key: settleKey(orderId),
        kind,
        userId: row.user_id,
        ref: { type: 'order', id: orderId },
        entries: withCounterparty(tradingCounterparty(row.account as Account), [{ currency: row.currency, account: row.account as Account, amount: payout }]),
      },
      now,
    );
  }
  const decimals = findCurrency(row.currency)?.decimals ?? 2;
  await recordEvent(
    trx,
    'order.settled',
    row.user_id,
    { order_id: orderId, result: eventResult(result), payout: fromMinor(payout, decimals), currency: row.currency },
    now,
  );
  return trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
}

/** Settle one order against the tick log (read before the transaction: the market may read ctx.db). */
export async function settleExpiredOrder(deps: OrdersDeps, order: Pick<OrderRow, 'id' | 'pair_code' | 'expires_at'>): Promise<OrderRow | null> {
  const exit = await deps.market.tickAtOrBefore(order.pair_code, Number(order.expires_at));
  const row = await deps.tx(async (trx) => {
    const closed = await applySettlement(trx, order.id, exit, deps.now());
    // The exit tick is logged with the settlement, whatever the market's batched write does.
    if (closed && exit && closed.exit_tick_seq !== null) await deps.market.logTick(trx, exit);
    return closed;
  });
  if (row?.result === 'refunded') deps.log.warn({ orderId: order.id }, 'no tick at or before expiry in the log; the stake was refunded');
  return row;
}

interface Pending {
  id: number;
  pair: string;
  expiresAt: number;
  timer: NodeJS.Timeout | null;
}

export class SettlementScheduler {
  private readonly pending = new Map<number, Pending>();
  /** Pending orders per pair, sorted by expiry, so a tick only looks at the ones it can settle. */
  private readonly byPair = new Map<string, Pending[]>();
  private readonly running = new Set<Promise<unknown>>();
  private unsubscribe: (() => void) | null = null;
  private stopped = false;

  constructor(
    private readonly deps: OrdersDeps,
    private readonly graceMs = SETTLEMENT_GRACE_MS,
  ) {}

  /** Load every open order: settle the overdue ones now, schedule the others. */
  async start(): Promise<void> {
    this.stopped = false;
    this.unsubscribe = this.deps.market.onTick((tick) => this.onTick(tick));
    const open = await this.deps.db
      .selectFrom('orders')
      .select(['id', 'pair_code', 'expires_at'])
      .where('status', '=', 'open')
      .orderBy('expires_at')
      .execute();
    for (const o of open) {
      const expiresAt = Number(o.expires_at);
      if (this.isFinal(o.pair_code, expiresAt)) {
        try {
          await settleExpiredOrder(this.deps, o);
          continue;
        } catch (err) {
          this.deps.log.error({ err, orderId: o.id }, 'settlement on start failed; will retry');
        }
      }
      this.schedule({ id: o.id, pair_code: o.pair_code, expires_at: expiresAt });
    }
  }

  /** Wait for in-flight settlements and drop every timer; open orders stay open in the database. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const p of this.pending.values()) if (p.timer) clearTimeout(p.timer);
    this.pending.clear();
    this.byPair.clear();
    await Promise.allSettled([...this.running]);
  }

  schedule(order: Pick<OrderRow, 'id' | 'pair_code' | 'expires_at'>): void {
    if (this.stopped) return;
    this.forget(order.id);
    const p: Pending = { id: order.id, pair: order.pair_code, expiresAt: Number(order.expires_at), timer: null };
    this.pending.set(p.id, p);
    const list = this.byPair.get(p.pair) ?? [];
    let i = list.length;
    while (i > 0 && list[i - 1].expiresAt > p.expiresAt) i--;
    list.splice(i, 0, p);
    this.byPair.set(p.pair, list);
    this.arm(p, p.expiresAt - this.deps.now());
  }

  /** Stop watching an order (it was closed early). */
  forget(orderId: number): void {
    const p = this.pending.get(orderId);
    if (!p) return;
    if (p.timer) clearTimeout(p.timer);
    this.pending.delete(orderId);
    const list = this.byPair.get(p.pair);
    if (list) {
      const i = list.indexOf(p);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) this.byPair.delete(p.pair);
    }
  }

  /** Orders waiting for settlement in this process. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Settled once the clock has passed expiry and either a later tick exists or the grace is over. */
  private isFinal(pair: string, expiresAt: number): boolean {
    const now = this.deps.now();
    if (now < expiresAt) return false;
    if (now >= expiresAt + this.graceMs) return true;
    const latest = this.deps.market.latestTick(pair);
    return latest !== undefined && latest.time > expiresAt;
  }

  private arm(p: Pending, delayMs: number): void {
    if (p.timer) clearTimeout(p.timer);
    // setTimeout takes at most 2^31-1 ms; expiries are at most 4 h, so this only guards bad clocks.
    p.timer = setTimeout(() => this.onTimer(p), Math.min(Math.max(0, delayMs), 2 ** 31 - 1));
  }

  private onTimer(p: Pending): void {
    p.timer = null;
    if (this.stopped || this.pending.get(p.id) !== p) return;
    const now = this.deps.now();
    if (now < p.expiresAt) return this.arm(p, p.expiresAt - now);
    if (this.isFinal(p.pair, p.expiresAt)) return this.settle(p);
    this.arm(p, p.expiresAt + this.graceMs - now);
  }

  private onTick(tick: Tick): void {
    if (this.stopped) return;
    const list = this.byPair.get(tick.pair_code);
    if (!list || list.length === 0) return;
    const now = this.deps.now();
    const due: Pending[] = [];
    for (const p of list) {
      if (p.expiresAt >= tick.time || p.expiresAt > now) break;
      due.push(p);
    }
    for (const p of due) this.settle(p);
  }

  private settle(p: Pending): void {
    this.forget(p.id);
    const job = settleExpiredOrder(this.deps, { id: p.id, pair_code: p.pair, expires_at: p.expiresAt })
      .catch((err) => {
        if (this.stopped) return;
        this.deps.log.error({ err, orderId: p.id }, 'settlement failed; retrying');
        const retry: Pending = { ...p, timer: null };
        this.pending.set(retry.id, retry);
        const list = this.byPair.get(retry.pair) ?? [];
        list.push(retry);
        list.sort((a, b) => a.expiresAt - b.expiresAt);
        this.byPair.set(retry.pair, list);
        this.arm(retry, SETTLEMENT_RETRY_MS);
      })
      .finally(() => this.running.delete(job));
    this.running.add(job);
  }
}
