/**
 * Each pair's price 24 hours ago, the base of the 24-hour change traders see beside the price
 * and in the pair selector (issue 26 item 4; docs/market.md, "24-hour change"). It goes out with
 * every rate of pairs_rates (`price_24h`), so a client computes the change against whatever live
 * price it shows.
 *
 * The price 24 h ago is the close of the newest stored 5-minute candle that starts at or before
 * that moment (5-minute candles are kept for about a week, retention.ts; the simulator's
 * backfilled history counts). With less than 24 hours of history the base is the earliest price
 * the market has: the open of the oldest stored 5-minute candle, or the pair's first recorded
 * tick when no candle is stored yet; then `price_24h_time` says since when the change counts.
 *
 * The bases are read from the database once a minute (one indexed lookup per pair) and after a
 * pair's history was backfilled, never on the tick path: `rate()` only reads the map.
 */
import type { Rate } from '../../../contract/market';
import type { DB } from '../../db';
import type { DomainLog } from '../log';
import type { Series } from './series';
import { candleAtOrBefore, earliestCandle } from './candle-store';

export const DAY_MS = 24 * 60 * 60 * 1000;
export const DAY_CHANGE_REFRESH_MS = 60_000;

/** A pair's base: the price 24 h ago, and the time of an earlier-than-24 h base (ms) when history is shorter. */
export interface DayBase {
  price: number;
  /** Set only when the pair has less than 24 hours of history: the time the base price is from. */
  since?: number;
}

export class DayChange {
  private readonly bases = new Map<string, DayBase>();
  private timer: NodeJS.Timeout | null = null;
  /** Reads run one after another (a refresh asked for during one reads again after it). */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: { db: DB; now: () => number; log: DomainLog },
    private readonly series: () => Iterable<Series>,
  ) {}

  /** Refresh now and then once a minute until stop(). */
  start(): void {
    if (this.timer) return;
    void this.refresh();
    const timer = setInterval(() => void this.refresh(), DAY_CHANGE_REFRESH_MS);
    timer.unref();
    this.timer = timer;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Read every pair's base again (after any read still running). */
  refresh(): Promise<void> {
    this.queue = this.queue.then(() => this.readAll());
    return this.queue;
  }

  /** Read one pair's base again (after its history was backfilled). */
  async refreshPair(s: Series): Promise<void> {
    try {
      const base = await this.read(s, this.deps.now());
      if (base) this.bases.set(s.pair.pair_code, base);
    } catch (err) {
      this.deps.log.warn({ err, pair_code: s.pair.pair_code }, '24-hour change base not read');
    }
  }

  base(pairCode: string): DayBase | undefined {
    return this.bases.get(pairCode);
  }

  /** The rate of `pairCode` at `price` with its 24-hour base, when known. */
  rate(pairCode: string, price: number): Rate {
    const base = this.bases.get(pairCode);
    if (!base) return { pair_code: pairCode, current_price: price };
    return base.since === undefined
      ? { pair_code: pairCode, current_price: price, price_24h: base.price }
      : { pair_code: pairCode, current_price: price, price_24h: base.price, price_24h_time: base.since };
  }

  private async readAll(): Promise<void> {
    const now = this.deps.now();
    try {
      for (const s of this.series()) {
        const base = await this.read(s, now);
        if (base) this.bases.set(s.pair.pair_code, base);
      }
    } catch (err) {
      // The previous bases stay; the next minute tries again.
      this.deps.log.warn({ err }, '24-hour change bases not read');
    }
  }

  /** The base of one pair at `now` (see the file comment), or null without any history. */
  private async read(s: Series, now: number): Promise<DayBase | null> {
    const code = s.pair.pair_code;
    const target = now - DAY_MS;
    const atOrBefore = await candleAtOrBefore(this.deps.db, code, '5m', Math.floor(target / 1000));
    if (atOrBefore) return { price: atOrBefore.close };
    const earliest = await earliestCandle(this.deps.db, code, '5m');
    const anchor = s.anchor;
    // The earlier of the oldest candle and the first recorded tick (a candle is written a moment after its tick).
    if (earliest && (!anchor || earliest.timestamp * 1000 <= anchor.time)) return { price: earliest.open, since: earliest.timestamp * 1000 };
    if (anchor) return { price: anchor.price, since: anchor.time };
    const latest = s.ring.latest();
    return latest ? { price: latest.price, since: latest.time } : null;
  }
}
