/** Orders table: one row per timed up/down order, its stake, entry and (once closed) exit and payout. */
import type { Generated } from 'kysely';

export interface OrdersTable {
  id: Generated<number>;
  user_id: number;
  /** Client's retry key; unique per user when present. */
  client_request_id: string | null;
  pair_code: string;
  pair_human_code: string;
  /** up | down */
  direction: string;
  /** Ledger account the stake came from: real | demo */
  account: string;
  currency: string;
  /** Stake in minor units of `currency`. */
  stake: number;
  /** Payout rate at acceptance in basis points (8200 = 82 %). */
  payout_rate_bp: number;
  /** Digits after the decimal point of the pair's prices at acceptance (ties compare at this precision). */
  price_precision: number;
  expiry_seconds: number;
  /** Milliseconds since the epoch (server clock). */
  accepted_at: number;
  expires_at: number;
  open_price: number;
  entry_tick_time: number;
  entry_tick_seq: number;
  /** open | closed */
  status: string;
  /** won | lost | tie | closed_early | refunded; null while open */
  result: string | null;
  /** expiry | early_close | no_price_at_expiry; null while open */
  close_reason: string | null;
  close_price: number | null;
  exit_tick_time: number | null;
  exit_tick_seq: number | null;
  /** Credited amount in minor units (0 on a loss); null while open. */
  payout: number | null;
  closed_at: number | null;
  is_manual: Generated<number>;
}

export interface OrderTables {
  orders: OrdersTable;
}
