/**
 * The market service (MarketService of types.ts): the one object the rest of the server uses
 * (ctx.services.market, the orders and alerts areas, the cluster node). It composes the parts
 * that do the work and starts and stops them:
 *   pair-book.ts        the pairs as operated, each with its live series (series.ts: restored at start)
 *   feed-runner.ts      the price feed, and the jobs that run while this node numbers ticks
 *   sequencer.ts        numbers every tick (`ingest`) into ring, candles, quote state and listeners
 *   batch-writer.ts     batched, hash-chained writes, and the serial queue reads share with them
 *   reads.ts            ticks by time or seq, candle history
 *   retention.ts, backfill-writer.ts   the two ends of the stored history
 *
 * Roles (docs/cluster.md, fencing.ts): a node of its own (`single`, the SQLite default) does all
 * of the above. In a cluster the `leader` does the same, with every write fenced by its epoch and
 * every tick handed to the tick bus; a `follower` runs no feed and writes no ticks or candles: it
 * takes the leader's numbered ticks from the bus (`acceptRemote`) into the same ring, candles,
 * quote state and listeners. handover.ts moves the feed between the two.
 */
import type { Candle, Pair, Rate, TickBatchResponse } from '../../../contract/market';
import type { Timeframe } from '../../../contract/user';
import type { Trx } from '../../db';
import type { MarketDeps } from './deps';
import type { MarketService, Tick, TickSpan, TickSpanOptions } from './types';
import type { LeaderTerm, MarketRole } from './fencing';
import { QuoteWatch } from './quote-watch';
import { copyCandle } from './candles';
import { CandleRing } from './candle-ring';
import { DayChange } from './day-change';
import { BackfillWriter } from './backfill-writer';
import { BatchWriter } from './batch-writer';
import { FeedRunner } from './feed-runner';
import { Handover } from './handover';
import { PairBook } from './pair-book';
import { MarketReads } from './reads';
import { Retention, type RetentionFloor } from './retention';
import { TickSequencer } from './sequencer';
import { restoreSeries, type Series } from './series';
import { seedPairs } from './repository';
import { insertTicks } from './tick-log';

// Where callers found them before the parts had files of their own.
export { FLUSH_INTERVAL_MS } from './batch-writer';
export { FencedError } from './fencing';

export class Market implements MarketService {
  /** Take one tick from the feed; returns the tick as logged, or null when refused. */
  readonly ingest: (raw: Tick) => Tick | null;

  private readonly book = new PairBook(
    (pairCode) => this.runner.isSimulated(pairCode),
    (pairCode, price) => this.dayChange.rate(pairCode, price),
  );
  /** Each pair's price 24 hours ago (day-change.ts), sent with its rate. */
  private readonly dayChange: DayChange;
  private readonly series: ReadonlyMap<string, Series> = this.book.series;
  /** Candle history per pair and timeframe kept in memory (candle-ring.ts). */
  private readonly history = new CandleRing();
  private readonly writer: BatchWriter;
  private readonly ticks: TickSequencer;
  private readonly reads: MarketReads;
  private readonly retention: Retention;
  private readonly runner: FeedRunner;
  private readonly backfill: BackfillWriter;
  private readonly handover: Handover;
  private markStarted: () => void = () => undefined;
  private readonly startedPromise = new Promise<void>((resolve) => {
    this.markStarted = resolve;
  });

  constructor(private readonly deps: MarketDeps) {
    this.writer = new BatchWriter(deps, () => this.ticks.term);
    this.ticks = new TickSequencer(this.series, this.writer, this.history, deps);
    this.ingest = this.ticks.ingest;
    this.reads = new MarketReads(deps, this.series, this.writer, this.history, (s) => this.ensureBackfill(s));
    this.retention = new Retention(deps, () => this.series.keys(), this.writer, this.history);
    this.runner = new FeedRunner(deps, () => this.book.active().map((s) => s.spec), this.ingest, [this.writer, this.retention]);
    const simulated = (pairCode: string) => this.runner.usesSimulator && this.runner.isSimulated(pairCode);
    this.backfill = new BackfillWriter(deps, this.writer, this.history, simulated, () => this.ticks.role === 'follower');
    this.handover = new Handover(deps, this.series, this.writer, this.ticks, this.runner);
    this.dayChange = new DayChange(deps, () => this.series.values());
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  /** Seed and read the pairs table, restore each pair's last tick and live candles, pick the feed. */
  async init(): Promise<void> {
    const now = this.deps.now();
    await this.deps.tx((trx) => seedPairs(trx, now));
    const { series, resume } = await restoreSeries(this.deps.db, this.deps.log, this.deps.simTicksPerSecond);
    for (const s of series) this.book.add(s);
    this.runner.build(resume);
    const latestTime = (code: string) => this.series.get(code)?.ring.latest()?.time;
    this.book.quotes = this.ticks.quotes = new QuoteWatch(this.book.active().map((s) => s.pair), this.deps.staleQuoteMs, latestTime, this.deps.now);
  }

  /** Stale-quote state per pair (quote-watch.ts); set by init. */
  get quotes(): QuoteWatch | null {
    return this.book.quotes;
  }

  /** Start the feed, the batched writer and retention (on a cluster follower: only while it leads). */
  start(): void {
    if (this.runner.running || this.ticks.stopped || !this.runner.feed) return;
    this.runner.running = true;
    if (this.ticks.role !== 'follower') this.runner.start();
    this.quotes?.start();
    this.dayChange.start();
    this.markStarted();
  }

  /** Resolves once the feed runs (modules start after listen() resolved: code pushing prices waits for this). */
  whenStarted(): Promise<void> {
    return this.startedPromise;
  }

  /** Stop the feed and timers, then write whatever is still in memory. */
  async stop(): Promise<void> {
    this.ticks.stopped = true;
    this.runner.running = false;
    this.runner.stop();
    this.quotes?.stop();
    this.dayChange.stop();
    await this.flush().catch(() => undefined);
  }

  /** Whether the embedded simulator is the feed. */
  get usesSimulator(): boolean {
    return this.runner.usesSimulator;
  }

  /** Whether the pair's prices are made up by the simulator (shown as "Simulated"). */
  isSimulated(pairCode: string): boolean {
    return this.runner.isSimulated(pairCode);
  }

  // ---- cluster roles (docs/cluster.md) --------------------------------------------------------

  /** This node's role: `single` unless the cluster made it a follower or the leader. */
  get clusterRole(): MarketRole {
    return this.ticks.role;
  }

  /** The newest leader epoch seen (0 on a single node). */
  get clusterEpoch(): number {
    return this.ticks.epoch;
  }

  /** Join a cluster as a follower (before start): no feed, no tick or candle writes. */
  joinCluster(): void {
    if (this.ticks.role === 'single') this.ticks.role = 'follower';
  }

  /** This node leads the feed for `term` (handover.ts): every pair continues after the newest tick handed out. */
  lead(term: LeaderTerm): Promise<void> {
    return this.handover.lead(term);
  }

  /** This node no longer leads (handover.ts): the feed stops, the term's last write goes through the fence. */
  follow(): Promise<void> {
    return this.handover.follow();
  }

  /** Ticks the leader of `epoch` numbered, from the bus (ignored unless this node follows). */
  acceptRemote(epoch: number, ticks: readonly Tick[]): void {
    this.ticks.acceptRemote(epoch, ticks);
  }

  /** Whether an order expiring at `expiresAt` can be settled now (sequencer.ts has the rule). */
  exitFinal(pairCode: string, expiresAt: number, graceMs: number): boolean {
    return this.ticks.exitFinal(pairCode, expiresAt, graceMs);
  }

  // ---- pairs (pair-book.ts) -------------------------------------------------------------------

  listPairs(): Pair[] {
    return this.book.listPairs();
  }

  /** Changes whenever `listPairs()` would answer differently (init_pairs is encoded once per value). */
  pairsVersion(): string {
    return this.book.pairsVersion();
  }

  getPair(pairCode: string): Pair | undefined {
    return this.book.getPair(pairCode);
  }

  pairTerms(pairCode: string): Readonly<Pair> | undefined {
    return this.series.get(pairCode)?.pair;
  }

  /** An operator enabled or disabled a pair (pair-admin.ts): the cached pair follows the row. */
  setActive(pairCode: string, active: boolean): boolean {
    return this.book.setActive(pairCode, active);
  }

  /** Cluster: follow pair changes made through another node (its `pairs.changed` reaches one node); returns those pairs. */
  refreshActive(): Promise<string[]> {
    return this.book.refreshActive(this.deps.db);
  }

  /** A pair exists and is not explicitly inactive. */
  isActive(pairCode: string): boolean {
    return this.book.isActive(pairCode);
  }

  staleLimitMs(pairCode: string): number {
    const category = this.series.get(pairCode)?.pair.category ?? 'forex';
    return this.deps.staleQuoteMs[category];
  }

  volatility(pairCode: string): number {
    const s = this.series.get(pairCode);
    if (!s) throw new Error(`Unknown pair ${pairCode}`);
    return s.spec.sigma;
  }

  // ---- ticks and candles (reads.ts) -------------------------------------------------------------

  latestTick(pairCode: string): Tick | undefined {
    return this.series.get(pairCode)?.ring.latest();
  }

  tickAtOrBefore(pairCode: string, timeMs: number): Promise<Tick | undefined> {
    return this.reads.tickAtOrBefore(pairCode, timeMs);
  }

  ticksBetween(pairCode: string, fromMs: number, toMs: number): Promise<Tick[]> {
    return this.reads.ticksBetween(pairCode, fromMs, toMs);
  }

  async logTick(trx: Trx, tick: Tick): Promise<void> {
    await insertTicks(trx, [tick]);
  }

  tickSpan(pairCode: string, fromSeq: number, toSeq: number, options: TickSpanOptions): Promise<TickSpan> {
    return this.reads.tickSpan(pairCode, fromSeq, toSeq, options);
  }

  /** One sealed batch of the tick log with its ticks (GET /api/v2/ticks/batches/{id}); NotFound when unknown. */
  tickBatch(batchId: number): Promise<TickBatchResponse> {
    return this.reads.tickBatch(batchId);
  }

  /** The in-memory history of a (pair, timeframe) and its version, so the socket can reuse an encoded answer. */
  historyNow(pairCode: string, timeframe: Timeframe): { version: number; candles: () => Candle[] } | null {
    return this.reads.historyNow(pairCode, timeframe);
  }

  candles(pairCode: string, timeframe: Timeframe, limit: number): Promise<Candle[]> {
    return this.reads.candles(pairCode, timeframe, limit);
  }

  /** GET /api/v2/candles: as `candles`, and NotFound for a pair that is not listed. */
  candleHistory(pairCode: string, timeframe: Timeframe, limit: number): Promise<Candle[]> {
    return this.reads.candleHistory(pairCode, timeframe, limit);
  }

  onTick(listener: (tick: Tick) => void): () => void {
    return this.ticks.onTick(listener);
  }

  /** The candle of the current bucket (last tick's bucket) of one timeframe, as a copy. */
  liveCandle(pairCode: string, timeframe: Timeframe): Candle | undefined {
    const c = this.series.get(pairCode)?.live.get(timeframe);
    return c ? copyCandle(c) : undefined;
  }

  /** The latest price of every pair that has one, with its price 24 h ago (the pairs_rates payload). */
  rates(): Rate[] {
    return this.book.rates();
  }

  /** Read every pair's price 24 h ago again now (also runs once a minute; day-change.ts). */
  refreshDayChange(): Promise<void> {
    return this.dayChange.refresh();
  }

  // ---- stored history (batch-writer.ts, retention.ts, backfill-writer.ts) ------------------------

  /** Write every tick, changed candle and anchor still in memory (also runs on a timer). */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Retention keeps every tick from the time `floor` returns on (the orders area: what open orders need). */
  setRetentionFloor(floor: RetentionFloor | null): void {
    this.retention.setFloor(floor);
  }

  /** Delete ticks and candles past their retention (retention.ts); returns how many and the tick cutoff. */
  runRetention(nowMs?: number): Promise<{ ticks: number; candles: number; cutoff: number }> {
    return this.retention.run(nowMs);
  }

  /** Generate and store the history before a pair's first tick, once per pair (backfill-writer.ts). */
  ensureBackfill(pairCode: string | Series): Promise<void> {
    const s = typeof pairCode === 'string' ? this.series.get(pairCode) : pairCode;
    if (!s) return Promise.resolve();
    const had = s.backfilled;
    // A pair's generated past usually reaches 24 h back: its change base is read again.
    return this.backfill.ensure(s).then(() => (had || !s.backfilled ? undefined : this.dayChange.refreshPair(s)));
  }
}
