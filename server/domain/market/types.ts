/**
 * The market service other areas use (orders settle against it; the socket broadcasts it).
 * The embedded implementation is the seeded simulator (simulator.ts); a real feed implements
 * `PriceFeed` and plugs into the same service.
 */
import type { Candle, Pair } from '../../../contract/market';
import type { Timeframe } from '../../../contract/user';
import type { Trx } from '../../db';

/** One price observation of one pair. `seq` increases by one per tick per pair, never reused. */
export interface Tick {
  pair_code: string;
  seq: number;
  /** Milliseconds since the epoch. */
  time: number;
  price: number;
}

/**
 * A source of ticks: the simulator, an adapter over a real market-data feed (feeds/binance.ts),
 * or several of them for different pairs (feeds/composite.ts). This is the one feed interface.
 */
export interface PriceFeed {
  start(onTick: (tick: Tick) => void): void;
  stop(): void;
  /**
   * Whether the feed makes its prices up (a model, not a market) for this pair; shown to traders
   * as "Simulated". Absent: not simulated (a test's hand-driven feed).
   */
  isSimulated?(pairCode: string): boolean;
}

/** Quote state of a pair: `delayed` when its newest tick is older than its stale limit. */
export type QuoteState = 'live' | 'delayed';

export interface TickSpanOptions {
  /** At most this many ticks. */
  limit: number;
  /** Only ticks with a seq above this one (the next page). */
  afterSeq?: number;
}

/** A pair's tick log between two seqs, as `tickSpan` reads it back. */
export interface TickSpan {
  /** Logged ticks of the span (after `afterSeq`), oldest first, at most `limit`. */
  ticks: Tick[];
  /** More logged ticks of the span follow the last one returned. */
  truncated: boolean;
  /** How many ticks of the whole span the log holds (seqs are consecutive: toSeq - fromSeq + 1 were numbered). */
  logged: number;
  /** The log's ticks with seq = fromSeq and seq = toSeq, when it still has them. */
  atFrom: Tick | undefined;
  atTo: Tick | undefined;
  /** Retention (TICK_RETENTION_HOURS) has deleted ticks of this span. */
  pruned: boolean;
  retentionHours: number;
}

export interface MarketService {
  /** Every pair of the catalogue (inactive ones carry is_active: false). */
  listPairs(): Pair[];
  getPair(pairCode: string): Pair | undefined;
  /**
   * The pair's terms as stored (code, names, payout rate, precision, is_active), not copied and
   * without the quote facts `getPair` adds: for the order path, which only reads them.
   */
  pairTerms(pairCode: string): Readonly<Pair> | undefined;
  /** The newest tick seen for the pair, or undefined before the first one. */
  latestTick(pairCode: string): Tick | undefined;
  /** The last tick with time <= timeMs (memory first, then the persisted tick log). */
  tickAtOrBefore(pairCode: string, timeMs: number): Promise<Tick | undefined>;
  /** Ticks with fromMs <= time <= toMs, oldest first. */
  ticksBetween(pairCode: string, fromMs: number, toMs: number): Promise<Tick[]>;
  /**
   * Write a tick this service handed out into the tick log inside the caller's transaction (an
   * order's entry or exit tick goes in with the order). Idempotent: a stored (pair, seq) stays.
   */
  logTick(trx: Trx, tick: Tick): Promise<void>;
  /** The logged ticks of one pair with fromSeq <= seq <= toSeq (see TickSpan). */
  tickSpan(pairCode: string, fromSeq: number, toSeq: number, options: TickSpanOptions): Promise<TickSpan>;
  /** Annualised volatility (sigma) of the pair, as used by the simulator and the early-close pricing. */
  volatility(pairCode: string): number;
  /** Latest candles of one pair and timeframe, oldest first, at most `limit` (<= 1000). */
  candles(pairCode: string, timeframe: Timeframe, limit: number): Promise<Candle[]>;
  /** Subscribe to every tick as it arrives; returns the unsubscribe function. */
  onTick(listener: (tick: Tick) => void): () => void;
  /** The pair's stale-quote limit in ms (STALE_QUOTE_MS per category). */
  staleLimitMs(pairCode: string): number;
  /** Whether the pair's prices are made up by the simulator (labelled "Simulated"). */
  isSimulated(pairCode: string): boolean;
  /** Write (and seal into the hash chain) every tick still in memory. */
  flush(): Promise<void>;
  /**
   * Whether an order expiring at `expiresAt` can be settled now with a final exit tick (expiry
   * passed, and a later tick exists or the grace is over; sequencer.ts has a cluster follower's
   * stricter rule). Absent: that default rule on `latestTick`.
   */
  exitFinal?(pairCode: string, expiresAt: number, graceMs: number): boolean;
}
