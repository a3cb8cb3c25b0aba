/** The hash-chained tick log (migration 009): one row per written batch of ticks; append-only. */
export interface MarketTickBatchesTable {
  id: number;
  /** Milliseconds since the epoch. */
  created_at: number;
  tick_count: number;
  /** Hex SHA-256 of the batch's ticks in canonical form (docs/market.md). */
  tick_digest: string;
  prev_hash: string;
  hash: string;
}

export interface TickChainTables {
  market_tick_batches: MarketTickBatchesTable;
}
