/**
 * Candle arithmetic, free of I/O: which bucket a tick belongs to, how a tick updates the live
 * candle, how a run of prices aggregates into candles, and how persisted and in-memory candles
 * merge into the list a chart gets (oldest first, one candle per bucket, newest wins).
 */
import type { Candle } from '../../../contract/market';
import { TIMEFRAME_SECONDS, type Timeframe } from '../../../contract/user';

/** Most candles one request returns (spec section 9: candles per pair, last 1000). */
export const MAX_CANDLES = 1000;

/** Bucket start in unix seconds: floor(time / tf) * tf. */
export function bucketStart(timeMs: number, timeframe: Timeframe): number {
  const tf = TIMEFRAME_SECONDS[timeframe];
  return Math.floor(timeMs / 1000 / tf) * tf;
}

export function openCandle(pairCode: string, timeframe: Timeframe, timestamp: number, price: number, volume = 1): Candle {
  return { pair_code: pairCode, timeframe, timestamp, open: price, high: price, low: price, close: price, volume };
}

/**
 * Fold one price at `timeMs` into the live candle of its timeframe. Returns the candle that now
 * holds the price: the same object updated in place when the tick falls in its bucket, a new
 * candle when the tick opens a later bucket, or null for a tick older than the live bucket
 * (which the tick log's ordering rules out; it is refused rather than rewriting history).
 */
export function applyPrice(live: Candle | undefined, pairCode: string, timeframe: Timeframe, timeMs: number, price: number): Candle | null {
  const bucket = bucketStart(timeMs, timeframe);
  if (!live || bucket > live.timestamp) return openCandle(pairCode, timeframe, bucket, price);
  if (bucket < live.timestamp) return null;
  if (price > live.high) live.high = price;
  if (price < live.low) live.low = price;
  live.close = price;
  live.volume += 1;
  return live;
}

/** Candles of a time-ordered run of prices (one per non-empty bucket, oldest first). */
export function aggregate(
  pairCode: string,
  timeframe: Timeframe,
  points: Iterable<{ time: number; price: number }>,
): Candle[] {
  const out: Candle[] = [];
  let live: Candle | undefined;
  for (const p of points) {
    const next = applyPrice(live, pairCode, timeframe, p.time, p.price);
    if (!next) continue;
    if (next !== live) out.push(next);
    live = next;
  }
  return out;
}

/**
 * Merge candles by bucket (later sources win: pass persisted first, in-memory after), oldest
 * first, keeping the newest `limit`.
 */
export function mergeCandles(limit: number, ...sources: Iterable<Candle>[]): Candle[] {
  const byBucket = new Map<number, Candle>();
  for (const source of sources) for (const c of source) byBucket.set(c.timestamp, c);
  const merged = [...byBucket.values()].sort((a, b) => a.timestamp - b.timestamp);
  return merged.length > limit ? merged.slice(merged.length - limit) : merged;
}

/** A copy safe to hand out or to write while the live candle keeps changing. */
export const copyCandle = (c: Candle): Candle => ({ ...c });
