/**
 * Market data shapes (spec section 3, Trading pair and Candle; section 7, live socket).
 */
import * as v from 'valibot';
import { TimeframeSchema } from './user';

export const PAIR_CATEGORIES = ['forex', 'crypto', 'stocks', 'commodities'] as const;
export const PairCategorySchema = v.picklist(PAIR_CATEGORIES);
export type PairCategory = v.InferOutput<typeof PairCategorySchema>;

export const QUOTE_STATES = ['live', 'delayed'] as const;
export type QuoteState = (typeof QUOTE_STATES)[number];

/** Socket `pair_status`: a pair's quotes became delayed or live again (to every socket). */
export const PairStatusSchema = v.object({ pair_code: v.string(), quotes: v.picklist(QUOTE_STATES) });
export type PairStatus = v.InferOutput<typeof PairStatusSchema>;

export const PairSchema = v.object({
  pair_code: v.string(),
  pair_human_code: v.string(),
  category: PairCategorySchema,
  /** A pair is active unless this is explicitly false. */
  is_active: v.optional(v.boolean()),
  /** Payout on a win as a fraction of the stake (0.82 = 82 %). */
  payout_rate: v.number(),
  /** Digits after the decimal point the price is quoted with. */
  precision: v.number(),
  timeframes: v.array(TimeframeSchema),
  /** Relative path under the API base (or an absolute http(s) URL). */
  logo: v.string(),
  /** Prices are made by the platform's simulator, not quoted by a market (shown as "Simulated"). */
  simulated: v.optional(v.boolean()),
  /** `delayed`: the newest quote is older than the pair's limit; new orders are refused until it is live. */
  quotes: v.optional(v.picklist(QUOTE_STATES)),
});
export type Pair = v.InferOutput<typeof PairSchema>;

export const CandleSchema = v.object({
  pair_code: v.string(),
  timeframe: TimeframeSchema,
  /** Bucket start, unix seconds. */
  timestamp: v.number(),
  open: v.number(),
  high: v.number(),
  low: v.number(),
  close: v.number(),
  volume: v.number(),
});
export type Candle = v.InferOutput<typeof CandleSchema>;

export const RateSchema = v.object({
  pair_code: v.string(),
  current_price: v.number(),
  /**
   * The price 24 hours ago (the base of the 24-hour change, docs/market.md "24-hour change");
   * absent while the server has not read it yet.
   */
  price_24h: v.optional(v.number()),
  /** Only when the pair has less than 24 hours of history: when `price_24h` is from (ms since the epoch). */
  price_24h_time: v.optional(v.number()),
});
export type Rate = v.InferOutput<typeof RateSchema>;

/**
 * The 24-hour change of a rate as a ratio (0.0123 = +1.23 %) at `price` (the live price when the
 * client has a newer one than the rate), or null while the base is unknown.
 */
export function dayChangeRatio(price: number, base: number | undefined): number | null {
  if (base === undefined || !(base > 0) || !Number.isFinite(price)) return null;
  return price / base - 1;
}

/** Pair logo address rule (spec section 3): absolute http(s) as is, otherwise prefixed with the API base. */
export function pairLogoUrl(logo: string, apiBase: string): string {
  if (/^https?:\/\//i.test(logo)) return logo;
  return apiBase.replace(/\/$/, '') + '/' + logo.replace(/^\//, '');
}

/** GET /api/v2/candles query: one series, at most 1000 candles (default 1000). */
export const CandlesQuerySchema = v.object({
  /** Upper-cased: "eurusd" is EURUSD. */
  pair_code: v.pipe(
    v.string('pair_code is required'),
    v.minLength(1, 'pair_code is required'),
    v.maxLength(32, 'pair_code must be at most 32 characters'),
    v.toUpperCase(),
  ),
  timeframe: TimeframeSchema,
  limit: v.optional(
    v.pipe(
      v.string('limit must be a whole number'),
      v.regex(/^\d{1,4}$/, 'limit must be a whole number from 1 to 1000'),
      v.transform(Number),
      v.minValue(1, 'limit must be a whole number from 1 to 1000'),
      v.maxValue(1000, 'limit must be a whole number from 1 to 1000'),
    ),
    '1000',
  ),
});
export type CandlesQuery = v.InferOutput<typeof CandlesQuerySchema>;

/** GET /api/v2/pairs and GET /api/v2/candles response data. */
export const PairsResponseSchema = v.object({ pairs: v.array(PairSchema) });
export const CandlesResponseSchema = v.object({ candles: v.array(CandleSchema) });

// ---- the hash-chained tick log (docs/market.md, "Tick log chain") ------------------------

/** One batch of the hash-chained tick log (the canonical serialisation is in docs/market.md). */
export const ChainLinkSchema = v.object({
  batch_id: v.number(),
  /** Hex SHA-256 of the previous batch (64 zeros for the first). */
  prev_hash: v.string(),
  /** Hex SHA-256 of this batch: id, prev_hash, created_at, tick_count and tick_digest. */
  hash: v.string(),
  /** Hex SHA-256 of the batch's ticks in canonical form. */
  tick_digest: v.string(),
  tick_count: v.number(),
  /** Milliseconds since the epoch. */
  created_at: v.number(),
});
export type ChainLink = v.InferOutput<typeof ChainLinkSchema>;

/** GET /api/v2/ticks/batches/{id}: one sealed batch and its ticks, to recompute its hashes. */
export const TickBatchResponseSchema = v.object({
  batch: ChainLinkSchema,
  /** The batch's ticks as stored, sorted by (pair_code, seq): the canonical order. */
  ticks: v.array(v.object({ pair_code: v.string(), seq: v.number(), time: v.number(), price: v.number() })),
  /** Ticks retention has deleted from this batch (its digest can then no longer be recomputed). */
  pruned: v.boolean(),
});
export type TickBatchResponse = v.InferOutput<typeof TickBatchResponseSchema>;

export const MarketErrorText = {
  batchNotFound: 'Tick batch not found',
} as const;
