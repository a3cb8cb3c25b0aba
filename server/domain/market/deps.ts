/**
 * What the market service needs from the server: the database, the write transaction, the clock,
 * the log and the configuration values the feed, the tick log and the stale-quote watch use. The
 * composition root (server/composition.ts) hands these over; nothing of the HTTP side.
 */
import type { Config } from '../../config';
import type { DB, RunTx } from '../../db';
import type { DomainLog } from '../log';
import type { PriceFeed } from './types';

export interface MarketDeps extends Pick<Config, 'marketFeed' | 'binanceWsUrl' | 'simSeed' | 'simTicksPerSecond' | 'staleQuoteMs' | 'tickRetentionHours'> {
  db: DB;
  /** One write transaction (the event dispatcher is poked after it commits). */
  tx: RunTx;
  /** Milliseconds since the epoch. */
  now: () => number;
  log: DomainLog;
  /** A feed to use instead of the ones MARKET_FEED picks (tests drive prices with one). */
  feed?: PriceFeed;
}
