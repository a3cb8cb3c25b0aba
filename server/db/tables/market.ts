/** Market tables: the pair catalogue as operated, each pair's series state, the tick log and candles. */

/** One row per catalogue pair; seeded from server/domain/market/catalogue.ts, edited by operators. */
export interface PairsTable {
  pair_code: string;
  pair_human_code: string;
  /** forex | crypto | stocks | commodities */
  category: string;
  /** 1 or 0: a pair is active unless this says 0. */
  is_active: number;
  /** Payout on a win as a fraction of the stake (0.82 = 82 %). */
  payout_rate: number;
  precision: number;
  /** JSON array of timeframes, e.g. ["5s","15s","1m"]. */
  timeframes: string;
  logo: string;
  sort_order: number;
  created_at: number;
  updated_at: number;
}

/** Where a pair's recorded history begins (its first tick) and whether history before it was generated. */
export interface MarketSeriesTable {
  pair_code: string;
  anchor_time: number;
  anchor_price: number;
  /** 1 once the backfilled history before the anchor has been written. */
  backfilled: number;
}

/** Every tick: unique (pair_code, seq); seq increases by one per pair. */
export interface MarketTicksTable {
  pair_code: string;
  seq: number;
  /** Milliseconds since the epoch. */
  time_ms: number;
  price: number;
  /** The tick-log batch that sealed this tick (migration 009); null until sealed, and for older ticks. */
  batch_id: import('kysely').ColumnType<number | null, number | null | undefined, number | null>;
}

/** Candles per pair and timeframe; bucket = bucket start in unix seconds. */
export interface MarketCandlesTable {
  pair_code: string;
  timeframe: string;
  bucket: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Ticks in the candle (for backfilled candles, the ticks the simulator would have made). */
  volume: number;
  /** 1 for generated history before the pair's first recorded tick. */
  is_backfill: number;
}

export interface MarketTables {
  pairs: PairsTable;
  market_series: MarketSeriesTable;
  market_ticks: MarketTicksTable;
  market_candles: MarketCandlesTable;
}
