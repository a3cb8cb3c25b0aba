/** The house side of the double-entry books, the ledger seals and the risk limits (migration 008). */

/** One row per (house account, currency); may be negative (the house can be owed money). */
export interface HouseBalancesTable {
  /** `house:trading`, `house:demo_issuer`, `house:promotions`, `house:suspense`, `house:clearing:<provider>` */
  account: string;
  currency: string;
  amount: number;
  updated_at: number;
}

/** The house legs of ledger transactions; append-only. */
export interface HouseEntriesTable {
  id: import('kysely').Generated<number>;
  ledger_tx_id: number;
  account: string;
  currency: string;
  /** Signed minor units. */
  amount: number;
  balance_after: number;
  created_at: number;
}

/** Written after a transaction's entries; its insert trigger refuses a transaction that does not sum to zero per currency. */
export interface LedgerSealsTable {
  ledger_tx_id: number;
  created_at: number;
}

/** The operator's per-pair maximum worst-case house loss, USD minor units (cents). */
export interface RiskLimitsTable {
  pair_code: string;
  max_loss_usd_minor: number;
  updated_at: number;
}

/** Open real orders per (pair, direction, currency), kept by triggers on orders (migration 008). */
export interface PairExposureTable {
  pair_code: string;
  direction: string;
  currency: string;
  open_count: number;
  stakes: number;
  /** Sum of what the orders pay if they win: stake + floor(stake x rate_bp / 10000). */
  payouts: number;
}

export interface BookTables {
  pair_exposure: PairExposureTable;
  house_balances: HouseBalancesTable;
  house_entries: HouseEntriesTable;
  ledger_seals: LedgerSealsTable;
  risk_limits: RiskLimitsTable;
}
