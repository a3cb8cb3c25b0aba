/**
 * Backfilled history: a plausible past for a pair whose recorded history starts at its first
 * tick (the anchor), so a new user's chart is not empty. The same model as the live simulator
 * (model.ts) walks BACKWARDS in time from the anchor's price (the OU process is reversible), so
 * the history ends exactly where the live prices begin. Draws come from their own stream, keyed
 * by (seed, pair, step number), so the same anchor always yields the same history.
 *
 * One path serves every timeframe so the candles agree across timeframes. The path is sampled
 * ten times per candle of the finest timeframe that still needs it: every 0.5 s over the last
 * 1000 five-second candles, every 1.5 s further back over the 15-second window, and so on out to
 * every 6 minutes over the 1000 hourly candles (about 50 000 points per pair).
 *
 * Only buckets that end at or before the anchor's bucket start are produced: the anchor's own
 * bucket belongs to the live candle, so history and live data never write the same row.
 */
import type { Candle } from '../../../contract/market';
import { TIMEFRAMES, TIMEFRAME_SECONDS, type Timeframe } from '../../../contract/user';
import type { PairSpec } from './catalogue';
import { roundPrice } from './catalogue';
import { bucketStart, MAX_CANDLES, openCandle } from './candles';
import { stepLogPrice } from './model';
import { hashKey, normal } from './rng';

export const BACKFILL_STREAM = 1;
const SAMPLES_PER_CANDLE = 10;

export interface BackfillOptions {
  seed: number;
  spec: PairSpec;
  /** The pair's first recorded tick: history ends here. */
  anchorTime: number;
  anchorPrice: number;
  /** Candles per timeframe (default 1000). */
  count?: number;
  /** Volume of a backfilled candle = the ticks the live simulator would have counted in it. */
  ticksPerSecond: number;
}

/** Points of the backward walk computed between two yields of the sliced generation (~2 ms). */
export const BACKFILL_POINTS_PER_SLICE = 4000;

/** The history at once (tests, tools): the same candles `backfillCandlesSliced` gives. */
export function backfillCandles(options: BackfillOptions): Map<Timeframe, Candle[]> {
  const steps = backfillSteps(options, Number.POSITIVE_INFINITY);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * The history with the event loop free every BACKFILL_POINTS_PER_SLICE points of the walk: a
 * pair's ~50 000 points took one 20-40 ms stretch of the loop at its first select_pair, which
 * every other client waited behind (issue 11, the select_pair flood).
 */
export async function backfillCandlesSliced(options: BackfillOptions, pointsPerSlice = BACKFILL_POINTS_PER_SLICE): Promise<Map<Timeframe, Candle[]>> {
  const steps = backfillSteps(options, pointsPerSlice);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The generation, pausing (yield) after every `pointsPerSlice` points of the walk. */
function* backfillSteps(options: BackfillOptions, pointsPerSlice: number): Generator<void, Map<Timeframe, Candle[]>, void> {
  const { seed, spec, anchorTime, anchorPrice, ticksPerSecond } = options;
  const count = options.count ?? MAX_CANDLES;
  // For each timeframe (finest first): the oldest time it needs, and its sampling step.
  const tiers = TIMEFRAMES.map((tf) => {
    const seconds = TIMEFRAME_SECONDS[tf];
    const from = (bucketStart(anchorTime, tf) - count * seconds) * 1000;
    return { tf, from, stepMs: (seconds * 1000) / SAMPLES_PER_CANDLE };
  });
  const oldest = Math.min(...tiers.map((t) => t.from));

  // Walk back from the anchor, newest point first.
  const times: number[] = [];
  const prices: number[] = [];
  const key = hashKey(spec.pair_code);
  const xRef = Math.log(spec.start_price);
  let x = Math.log(anchorPrice);
  let t = anchorTime;
  let k = 0;
  let tier = 0;
  while (t > oldest) {
    while (tier < tiers.length - 1 && t <= tiers[tier].from) tier++;
    const stepMs = tiers[tier].stepMs;
    t -= stepMs;
    k += 1;
    x = stepLogPrice(x, xRef, spec.sigma, stepMs / 1000, normal(seed, key, k, BACKFILL_STREAM));
    times.push(t);
    prices.push(roundPrice(Math.exp(x), spec.precision));
    if (k % pointsPerSlice === 0) yield;
  }

  const result = new Map<Timeframe, Candle[]>();
  for (const { tf, from } of tiers) {
    const seconds = TIMEFRAME_SECONDS[tf];
    const end = bucketStart(anchorTime, tf); // exclusive, unix s
    const volume = Math.max(1, Math.round(seconds * ticksPerSecond));
    const candles: Candle[] = [];
    let live: Candle | undefined;
    let liveEndMs = -Infinity;
    // Points are newest first: start at the oldest one inside this timeframe's window.
    let i = times.length - 1;
    while (i >= 0 && times[i] < from) i--;
    for (; i >= 0; i--) {
      const time = times[i];
      const price = prices[i];
      if (time >= liveEndMs) {
        const bucket = bucketStart(time, tf);
        if (bucket >= end) break;
        live = openCandle(spec.pair_code, tf, bucket, price, volume);
        liveEndMs = (bucket + seconds) * 1000;
        candles.push(live);
      } else if (live) {
        if (price > live.high) live.high = price;
        if (price < live.low) live.low = price;
        live.close = price;
      }
    }
    result.set(tf, candles);
    yield;
  }
  return result;
}
