/**
 * What the order functions need from the server: the database, the write transaction, the
 * clock, the log and the market service. A subset of AppContext plus the market, so the domain
 * code can be driven from a test without the HTTP layer.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { DB, RunTx } from '../../db';
import type { MarketService } from '../market/types';

export interface OrdersDeps {
  db: DB;
  tx: RunTx;
  now: () => number;
  log: FastifyBaseLogger;
  market: MarketService;
  /** Default maximum worst-case house loss per pair, whole USD (config RISK_MAX_PAIR_LOSS_USD; exposure.ts). */
  riskMaxPairLossUsd?: number;
  /**
   * Several nodes share the database (PostgreSQL, docs/cluster.md): due orders are claimed with
   * FOR UPDATE SKIP LOCKED and a periodic scan settles orders of every node. Off on SQLite.
   */
  cluster?: boolean;
}
