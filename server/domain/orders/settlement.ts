/**
 * Settlement at expiry, and the scheduler that runs it on the server's clock.
 *
 * Close price = the last tick at or before expires_at. That tick is only final once the feed has
 * produced a tick AFTER expires_at (or a grace period has passed with none), so the scheduler
 * waits for whichever comes first: every tick of the pair is checked against the orders waiting
 * on it, and each order has a timer for its expiry and then for the end of its grace.
 *
 * Due orders are settled in batches (settle-batch.ts: one transaction per batch, the exit
 * candidates read once per pair and second, the event loop free between batches). Each order
 * moves open -> closed only `where status = 'open'`, the payout goes through the ledger with key `order:<id>:settle` (the same key an early
 * close uses), and 'order.settled' is recorded. Two settlers racing, or a settlement racing an
 * early close, therefore pay once. On start every open order is loaded: overdue ones settle at
 * once against the tick log, the rest are scheduled.
 *
 * In a cluster (PostgreSQL, docs/cluster.md) every node runs this scheduler for the orders it
 * knows, batches claim their orders with FOR UPDATE SKIP LOCKED (settle-batch.ts), and a scan
 * every SETTLEMENT_SCAN_MS queues the due open orders of every node (placed elsewhere, or left by
 * a node that died). Finality asks the market (`exitFinal`): a follower settles from its bus-fed
 * ring only when the ring covers the expiry, else after the leader's log has had time to catch up.
 */
import type { OrdersDeps } from './deps';
import { BATCH_MAX, settleBatch, type DueOrder } from './settle-batch';
import { applySettlement } from './settle-order';
import { dueOpenOrders, openOrders } from './repository';
import type { OrderRow } from './wire';
import type { Tick } from '../market/types';

/** How long after expiry a settlement waits for a later tick before taking the log as final. */
export const SETTLEMENT_GRACE_MS = 1000;
/** Pause before retrying a settlement whose transaction failed. */
export const SETTLEMENT_RETRY_MS = 1000;
/** Cluster: how often every node looks for due open orders in the database. */
export const SETTLEMENT_SCAN_MS = 300;
/** Cluster: due orders read per scan. */
export const SCAN_LIMIT = 2000;
/** A due order whose exit is not final yet past the grace (a cluster follower) is looked at again this soon. */
const RECHECK_MS = 100;

/** Settle one order against the tick log (read before the transaction: the market may read ctx.db). */
export async function settleExpiredOrder(deps: OrdersDeps, order: Pick<OrderRow, 'id' | 'pair_code' | 'expires_at'>): Promise<OrderRow | null> {
  const exit = await deps.market.tickAtOrBefore(order.pair_code, Number(order.expires_at));
  const row = await deps.tx(async (trx) => {
    const closed = await applySettlement<OrderRow>(trx, order.id, exit, deps.now(), deps.market.staleLimitMs(order.pair_code));
    // The exit tick is logged with the settlement, whatever the market's batched write does.
    if (closed && exit && closed.exit_tick_seq !== null) await deps.market.logTick(trx, exit);
    return closed;
  });
  if (row?.result === 'refunded') deps.log.warn({ orderId: order.id, reason: row.close_reason }, 'no trusted tick at expiry; the stake was refunded');
  return row;
}

interface Pending extends DueOrder {
  timer: NodeJS.Timeout | null;
  /** Settle alone (a retry after a failed batch). */
  single?: boolean;
}

export class SettlementScheduler {
  private readonly pending = new Map<number, Pending>();
  /** Pending orders per pair, sorted by expiry, so a tick only looks at the ones it can settle. */
  private readonly byPair = new Map<string, Pending[]>();
  private readonly running = new Set<Promise<unknown>>();
  private unsubscribe: (() => void) | null = null;
  private stopped = false;
  /** Due orders waiting for a batch, in the order they became due. */
  private queue: Pending[] = [];
  private draining: Promise<void> | null = null;
  private scanTimer: NodeJS.Timeout | null = null;
  private scanning = false;

  constructor(
    private readonly deps: OrdersDeps,
    private readonly graceMs = SETTLEMENT_GRACE_MS,
  ) {}

  /** Load every open order: settle the overdue ones now, schedule the others. */
  async start(): Promise<void> {
    this.stopped = false;
    this.unsubscribe = this.deps.market.onTick((tick) => this.onTick(tick));
    const open = await openOrders(this.deps.db);
    // Overdue orders settle now, in batches (settle-batch.ts); a failed batch's orders are
    // retried one by one on a timer like any failed settlement.
    for (const o of open) {
      const expiresAt = Number(o.expires_at);
      if (this.isFinal(o.pair_code, expiresAt)) this.queue.push({ id: o.id, pair: o.pair_code, expiresAt, timer: null });
      else this.schedule({ id: o.id, pair_code: o.pair_code, expires_at: expiresAt });
    }
    await this.drain();
    if (this.deps.cluster && !this.stopped) {
      this.scanTimer = setInterval(() => void this.scan(), SETTLEMENT_SCAN_MS);
      this.scanTimer.unref();
    }
  }

  /**
   * Cluster: queue every due open order this node is not already watching (placed on another
   * node, or left by one that stopped); the batch's claim decides who settles it.
   */
  async scan(): Promise<void> {
    if (this.scanning || this.stopped) return;
    this.scanning = true;
    try {
      const now = this.deps.now();
      const rows = await dueOpenOrders(this.deps.db, now, SCAN_LIMIT);
      if (this.stopped) return;
      const queued = new Set(this.queue.map((p) => p.id));
      let added = 0;
      for (const o of rows) {
        if (this.pending.has(o.id) || queued.has(o.id)) continue;
        const expiresAt = Number(o.expires_at);
        if (this.isFinal(o.pair_code, expiresAt)) {
          this.queue.push({ id: o.id, pair: o.pair_code, expiresAt, timer: null });
          added += 1;
        } else {
          this.schedule({ id: o.id, pair_code: o.pair_code, expires_at: expiresAt });
        }
      }
      if (added) void this.drain();
    } catch (err) {
      this.deps.log.error({ err }, 'settlement scan failed');
    } finally {
      this.scanning = false;
    }
  }

  /** Wait for in-flight settlements and drop every timer; open orders stay open in the database. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.scanTimer) clearInterval(this.scanTimer);
    this.scanTimer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const p of this.pending.values()) if (p.timer) clearTimeout(p.timer);
    this.pending.clear();
    this.byPair.clear();
    // Queued orders stay open in the database and settle on the next start.
    this.queue = [];
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
    const market = this.deps.market;
    if (market.exitFinal) return market.exitFinal(pair, expiresAt, this.graceMs);
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
    const wait = p.expiresAt + this.graceMs - now;
    this.arm(p, wait > 0 ? wait : RECHECK_MS);
  }

  private onTick(tick: Tick): void {
    if (this.stopped) return;
    const list = this.byPair.get(tick.pair_code);
    if (!list || list.length === 0) return;
    const now = this.deps.now();
    let n = 0;
    while (n < list.length && list[n].expiresAt < tick.time && list[n].expiresAt <= now && (!this.deps.cluster || this.isFinal(tick.pair_code, list[n].expiresAt))) n++;
    if (n === 0) return;
    // The due orders are the list's head: taken off in one step (a burst can be thousands).
    const due = list.splice(0, n);
    if (list.length === 0) this.byPair.delete(tick.pair_code);
    for (const p of due) {
      if (p.timer) clearTimeout(p.timer);
      p.timer = null;
      this.pending.delete(p.id);
      this.queue.push(p);
    }
    void this.drain();
  }

  private settle(p: Pending): void {
    this.forget(p.id);
    if (!p.single) {
      this.queue.push(p);
      void this.drain();
      return;
    }
    // A retry after a failed batch settles alone, so one bad order cannot hold up the others.
    const job = settleExpiredOrder(this.deps, { id: p.id, pair_code: p.pair, expires_at: p.expiresAt })
      .catch((err) => this.retry(p, err))
      .finally(() => this.running.delete(job));
    this.running.add(job);
  }

  private retry(p: Pending, err: unknown): void {
    if (this.stopped) return;
    this.deps.log.error({ err, orderId: p.id }, 'settlement failed; retrying');
    const retry: Pending = { ...p, timer: null, single: true };
    this.pending.set(retry.id, retry);
    const list = this.byPair.get(retry.pair) ?? [];
    list.push(retry);
    list.sort((a, b) => a.expiresAt - b.expiresAt);
    this.byPair.set(retry.pair, list);
    this.arm(retry, SETTLEMENT_RETRY_MS);
  }

  /**
   * Settle the queue in batches (settle-batch.ts), yielding to the event loop between them, until
   * it is empty; one drain runs at a time (a call during a drain joins it).
   */
  private drain(): Promise<void> {
    if (this.draining) return this.draining;
    const run = (async () => {
      while (this.queue.length > 0 && !this.stopped) {
        const batch = this.queue.splice(0, BATCH_MAX);
        try {
          const { settled, rest } = await settleBatch(this.deps, batch);
          if (rest.length) this.queue.unshift(...rest.map((o) => ({ ...o, timer: null })));
          const at = this.deps.now();
          for (const row of settled) {
            this.deps.onSettled?.(at - Number(row.expires_at));
            if (row.result === 'refunded') this.deps.log.warn({ orderId: row.id, reason: row.close_reason }, 'no trusted tick at expiry; the stake was refunded');
          }
        } catch (err) {
          for (const o of batch) this.retry({ ...o, timer: null }, err);
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    })().finally(() => {
      this.draining = null;
      this.running.delete(run);
    });
    this.draining = run;
    this.running.add(run);
    return run;
  }
}
