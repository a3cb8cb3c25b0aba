/** Price alerts (migration 010): one row per alert; the price is the pair's scaled integer. */
import type { Generated } from 'kysely';

export interface PriceAlertsTable {
  id: Generated<number>;
  user_id: number;
  pair_code: string;
  /** above | below */
  direction: string;
  /** The price x 10^price_precision, an integer. */
  price_scaled: number;
  price_precision: number;
  created_at: number;
  /** When a tick crossed; null while waiting. */
  fired_at: number | null;
  /** The crossing tick's price, scaled like price_scaled. */
  fired_price_scaled: number | null;
}

export interface AlertTables {
  price_alerts: PriceAlertsTable;
}
