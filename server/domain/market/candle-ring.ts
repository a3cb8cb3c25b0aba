/**
 * The candle history the socket answers select_pair with, kept in memory per pair and timeframe
 * (the newest MAX_CANDLES candles). The first request of a (pair, timeframe) reads the store as
 * before and installs the result here; from then on every tick keeps it current (the live candle
 * is held by reference and changes in place; a new bucket is appended), so answering costs a
 * copy of the array, not a database read on the market's serial queue. Retention and backfill
 * drop the rings (the next request reads the store again).
 */
import type { Candle } from '../../../contract/market';
import type { Timeframe } from '../../../contract/user';
import { MAX_CANDLES, copyCandle } from './candles';

const key = (pair: string, tf: Timeframe) => `${pair}|${tf}`;

export class CandleRing {
  private readonly rings = new Map<string, Candle[]>();
  /** Set from one ever-growing counter on every change of a (pair, timeframe)'s history. */
  private readonly versions = new Map<string, number>();
  private counter = 0;

  constructor(private readonly max = MAX_CANDLES) {}

  /** Copies of the newest `limit` candles, oldest first; undefined when not installed. */
  get(pair: string, tf: Timeframe, limit: number): Candle[] | undefined {
    const ring = this.rings.get(key(pair, tf));
    if (!ring) return undefined;
    const from = Math.max(0, ring.length - Math.min(limit, this.max));
    const out = new Array<Candle>(ring.length - from);
    for (let i = from; i < ring.length; i++) out[i - from] = copyCandle(ring[i]);
    return out;
  }

  /** Install the history read from the store (oldest first, at most `max` used). */
  install(pair: string, tf: Timeframe, candles: readonly Candle[]): void {
    this.rings.set(key(pair, tf), candles.slice(Math.max(0, candles.length - this.max)));
    this.versions.set(key(pair, tf), ++this.counter);
  }

  /** A tick changed or opened this candle (called for every timeframe of every tick). */
  apply(candle: Candle): void {
    const k = key(candle.pair_code, candle.timeframe as Timeframe);
    const ring = this.rings.get(k);
    if (!ring) return;
    // The live candle changes in place before it gets here: every call is a new version.
    this.versions.set(k, ++this.counter);
    const last = ring[ring.length - 1];
    if (last === candle) return;
    if (last && last.timestamp === candle.timestamp) ring[ring.length - 1] = candle;
    else if (!last || candle.timestamp > last.timestamp) {
      ring.push(candle);
      // Trim in steps, not on every new bucket.
      if (ring.length > this.max + 64) ring.splice(0, ring.length - this.max);
    }
  }

  has(pair: string, tf: Timeframe): boolean {
    return this.rings.has(key(pair, tf));
  }

  /**
   * A number that changes whenever the (pair, timeframe)'s history changes (a tick, an install, a
   * clear); undefined when not installed. Lets a caller reuse what it built from `get`.
   */
  version(pair: string, tf: Timeframe): number | undefined {
    return this.rings.has(key(pair, tf)) ? this.versions.get(key(pair, tf)) : undefined;
  }

  clear(): void {
    this.rings.clear();
    this.versions.clear();
  }
}
