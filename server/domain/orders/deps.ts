/**
 * What the orders area needs from the server: the database, the write transaction, the clock,
 * the log, the market service and two settings. Narrow and typed, so the domain code can be
 * driven from a test or a tool without the HTTP layer.
 */
import type { DB, RunTx } from '../../db';
import type { DomainLog } from '../log';
import type { MarketService } from '../market/types';
import type { FxRates } from '../market/fx';

export interface OrdersDeps {
  db: DB;
  tx: RunTx;
  now: () => number;
  log: DomainLog;
  market: MarketService;
  /** Default maximum worst-case house loss per pair, whole USD (config RISK_MAX_PAIR_LOSS_USD; exposure.ts). */
  riskMaxPairLossUsd?: number;
  /** Units of a currency per 1 USD at market rates (server/domain/market/fx.ts): the risk check's conversion. */
  fx: Pick<FxRates, 'perUsd'>;
  /**
   * Several nodes share the database (PostgreSQL, docs/cluster.md): due orders are claimed with
   * FOR UPDATE SKIP LOCKED and a periodic scan settles orders of every node. Off on SQLite.
   */
  cluster?: boolean;
  /** Told, after each settlement batch commits, how long past its expiry each order was settled (the metrics' lag). */
  onSettled?: (lagMs: number) => void;
}
