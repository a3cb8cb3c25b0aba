/**
 * Price alerts (contract/alerts.ts, docs/trader-tools.md): create, list, delete, and the firing
 * rule. The waiting alerts are indexed in memory by pair, "above" ones nearest level first
 * and "below" ones likewise, so a tick that fires nothing costs one map lookup and two integer
 * comparisons however many alerts wait; the database is only written when one fires. Firing sets `fired_at` only where it is still null and records `alert.fired` in the
 * same transaction, so an alert fires once even if two ticks race; delivery (socket, Telegram,
 * email) listens to that event (delivery.ts). `start()` loads the waiting alerts, listens to the
 * market's ticks and subscribes the delivery; `stop()` undoes both. Queries: repository.ts.
 */
import {
  AlertErrorText,
  MAX_PENDING_ALERTS,
  alertReached,
  priceToScaled,
  scaledToText,
  textToScaled,
  type AlertDirection,
  type PriceAlert,
} from '../../../contract/alerts';
import { ErrorText } from '../../../contract/envelope';
import { NotFound, conflict, invalid, notFound } from '../errors';
import { recordEvent } from '../events';
import { lockUserRow } from '../auth/repository';
import type { Tick } from '../market/types';
import type { AlertsDeps } from './deps';
import { startAlertDelivery } from './delivery';
import {
  alertPair,
  alertsOf,
  deleteAlert,
  findAlert,
  insertAlert,
  markFired,
  pendingCount,
  waitingAlerts,
  type AlertRow,
} from './repository';

/** Cluster: how often the waiting alerts are read again. */
export const ALERT_REFRESH_MS = 1000;

interface Waiting {
  id: number;
  userId: number;
  direction: AlertDirection;
  scaled: number;
  precision: number;
  /** The level as a number, only to order the queue (firing compares the integers). */
  level: number;
}

/** One pair's waiting alerts: above ones by ascending level, below ones by descending level. */
interface PairQueue {
  above: Waiting[];
  below: Waiting[];
}

export class AlertsService {
  private readonly waiting = new Map<string, PairQueue>();
  private off: (() => void) | null = null;
  private refreshTimer: NodeJS.Timeout | null = null;
  /** Unsubscribes the delivery of fired alerts (between start and stop). */
  private offDelivery: (() => void) | null = null;
  /** Firings in flight (tests and stop() wait for them). */
  private readonly inflight = new Set<Promise<void>>();
  /** Ids of the alerts being fired right now. */
  private readonly firing = new Set<number>();

  constructor(private readonly deps: AlertsDeps) {}

  /** Load the waiting alerts, listen to the tick stream, and deliver the alerts that fire (delivery.ts). */
  async start(): Promise<void> {
    await this.reload();
    this.off ??= this.deps.market.onTick((tick) => this.onTick(tick));
    if (this.deps.cluster && !this.refreshTimer) {
      this.refreshTimer = setInterval(() => {
        this.reload().catch((err: unknown) => this.deps.log.error({ err }, 'price alerts refresh failed'));
      }, ALERT_REFRESH_MS);
      this.refreshTimer.unref();
    }
    const { db, events, log, emitToUser, telegram, mailer } = this.deps;
    this.offDelivery ??= startAlertDelivery({ db, events, alerts: this, log, emitToUser, telegram, mailer });
  }

  /** Index the waiting alerts as stored (a firing in flight is left out). */
  private async reload(): Promise<void> {
    const rows = await waitingAlerts(this.deps.db);
    this.waiting.clear();
    for (const row of rows) if (!this.firing.has(Number(row.id))) this.index(row);
  }

  async stop(): Promise<void> {
    this.offDelivery?.();
    this.offDelivery = null;
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.refreshTimer = null;
    this.off?.();
    this.off = null;
    await Promise.all([...this.inflight]);
  }

  /** Resolves when every firing started so far has committed. */
  async settled(): Promise<void> {
    while (this.inflight.size) await Promise.all([...this.inflight]);
  }

  toWire(row: AlertRow): PriceAlert {
    const precision = Number(row.price_precision);
    const scaled = Number(row.price_scaled);
    const fired = row.fired_price_scaled === null ? null : Number(row.fired_price_scaled);
    return {
      alert_id: Number(row.id),
      pair_code: row.pair_code,
      pair_human_code: this.deps.market.getPair(row.pair_code)?.pair_human_code ?? row.pair_code,
      direction: row.direction === 'below' ? 'below' : 'above',
      price: Number(scaledToText(scaled, precision)),
      price_text: scaledToText(scaled, precision),
      precision,
      created_at_ms: Number(row.created_at),
      fired_at_ms: row.fired_at === null ? null : Number(row.fired_at),
      fired_price: fired === null ? null : Number(scaledToText(fired, precision)),
    };
  }

  async list(userId: number): Promise<PriceAlert[]> {
    const rows = await alertsOf(this.deps.db, userId, 200);
    const alerts = rows.map((r) => this.toWire(r));
    // Waiting first, each part newest first.
    return [...alerts.filter((a) => a.fired_at_ms === null), ...alerts.filter((a) => a.fired_at_ms !== null)];
  }

  async get(userId: number, id: number): Promise<PriceAlert | null> {
    const row = await findAlert(this.deps.db, userId, id);
    return row ? this.toWire(row) : null;
  }

  async create(userId: number, input: { pair_code: string; direction: AlertDirection; price: string }): Promise<PriceAlert> {
    const pair = this.deps.market.getPair(input.pair_code);
    if (!pair || pair.is_active === false) throw new NotFound(ErrorText.pairNotFound);
    const precision = pair.precision;
    const scaled = textToScaled(input.price, precision);
    if (scaled === null) throw invalid(AlertErrorText.priceDecimals, [{ field: 'price', message: AlertErrorText.priceDecimals }]);
    if (scaled <= 0) throw invalid(AlertErrorText.priceInvalid, [{ field: 'price', message: AlertErrorText.priceInvalid }]);
    const latest = this.deps.market.latestTick(pair.pair_code);
    if (!latest) throw conflict(AlertErrorText.noPrice);
    // On the far side of the latest price, else the next tick would fire it at once.
    if (alertReached(input.direction, scaled, priceToScaled(latest.price, precision))) {
      const message = input.direction === 'above' ? AlertErrorText.aboveCurrent : AlertErrorText.belowCurrent;
      throw invalid(message, [{ field: 'price', message }]);
    }
    const now = this.deps.now();
    const row = await this.deps.tx(async (trx) => {
      // The user's row is the lock of their alert count (PostgreSQL; SQLite runs writes one by one).
      await lockUserRow(trx, userId);
      if ((await pendingCount(trx, userId)) >= MAX_PENDING_ALERTS) throw conflict(AlertErrorText.tooManyAlerts);
      return insertAlert(trx, { user_id: userId, pair_code: pair.pair_code, direction: input.direction, price_scaled: scaled, price_precision: precision, created_at: now });
    });
    this.index(row);
    return this.toWire(row);
  }

  /** Delete the owner's alert (waiting or fired); a deleted alert never fires. */
  async remove(userId: number, id: number): Promise<void> {
    // Out of the index first: a tick arriving during the delete cannot fire it.
    const row = await alertPair(this.deps.db, userId, id);
    if (!row) throw notFound(AlertErrorText.alertNotFound);
    this.unindex(row.pair_code, id);
    await this.deps.tx((trx) => deleteAlert(trx, userId, id));
  }

  /** How many alerts wait on a pair (tests, bench). */
  waitingCount(pairCode?: string): number {
    const size = (q: PairQueue | undefined) => (q ? q.above.length + q.below.length : 0);
    if (pairCode) return size(this.waiting.get(pairCode));
    let n = 0;
    for (const q of this.waiting.values()) n += size(q);
    return n;
  }

  private index(row: AlertRow): void {
    const precision = Number(row.price_precision);
    const scaled = Number(row.price_scaled);
    const alert: Waiting = {
      id: Number(row.id),
      userId: Number(row.user_id),
      direction: row.direction === 'below' ? 'below' : 'above',
      scaled,
      precision,
      level: scaled / 10 ** precision,
    };
    const queue = this.waiting.get(row.pair_code) ?? { above: [], below: [] };
    const list = alert.direction === 'above' ? queue.above : queue.below;
    // Nearest to firing first: the lowest "above", the highest "below".
    const before = (a: Waiting) => (alert.direction === 'above' ? alert.level < a.level : alert.level > a.level);
    let at = list.findIndex(before);
    if (at < 0) at = list.length;
    list.splice(at, 0, alert);
    this.waiting.set(row.pair_code, queue);
  }

  private unindex(pairCode: string, id: number): void {
    const queue = this.waiting.get(pairCode);
    if (!queue) return;
    queue.above = queue.above.filter((w) => w.id !== id);
    queue.below = queue.below.filter((w) => w.id !== id);
    if (queue.above.length + queue.below.length === 0) this.waiting.delete(pairCode);
  }

  /** The tick listener: every waiting alert of the pair that the tick reaches fires (nearest first). */
  onTick(tick: Tick): void {
    const queue = this.waiting.get(tick.pair_code);
    if (!queue) return;
    this.fireReached(queue.above, tick);
    this.fireReached(queue.below, tick);
    if (queue.above.length + queue.below.length === 0) this.waiting.delete(tick.pair_code);
  }

  /** Fire the queue's alerts the tick reaches, from its head (the nearest) on. */
  private fireReached(list: Waiting[], tick: Tick): void {
    while (list.length > 0) {
      const alert = list[0]!;
      if (!alertReached(alert.direction, alert.scaled, priceToScaled(tick.price, alert.precision))) return;
      list.shift();
      this.firing.add(alert.id);
      const firing = this.fire(alert, tick)
        .catch((err: unknown) => this.deps.log.error({ err, alert: alert.id }, 'price alert firing failed'))
        .finally(() => {
          this.inflight.delete(firing);
          this.firing.delete(alert.id);
        });
      this.inflight.add(firing);
    }
  }

  private async fire(alert: Waiting, tick: Tick): Promise<void> {
    const firedAt = this.deps.now();
    await this.deps.tx(async (trx) => {
      const result = await markFired(trx, alert.id, firedAt, priceToScaled(tick.price, alert.precision));
      if (Number(result.numUpdatedRows) !== 1) return; // deleted, or fired already
      await recordEvent(trx, 'alert.fired', alert.userId, { alert_id: alert.id }, firedAt);
    });
  }
}
