/**
 * The market service (MarketService of types.ts): the pairs as operated (the `pairs` table), one
 * price feed (the seeded simulator, or the feed handed to the constructor), the tick log,
 * live candles per timeframe, batched persistence, backfilled history and retention.
 *
 * Every tick goes through `ingest`: the service, not the feed, numbers ticks (seq = last + 1 per
 * pair, continuing after a restart from the highest seq in the persisted log or in the ticks
 * orders recorded, so a seq is never reused), rounds the price to the pair's precision
 * and refuses a tick older than the pair's last one. The tick then lands in the pair's ring, in
 * the write batch and in the live candle of every timeframe before listeners hear of it.
 *
 * Writes (ticks, changed candles, first-tick anchors) are flushed every FLUSH_INTERVAL_MS in one
 * transaction. Reads that need the database (older ticks, stored candles) and every write run
 * one after another on `serial`, so a read never misses a batch that is half-way into the
 * database: whatever has not been written yet is still in memory, where the read looks next.
 *
 * Roles (docs/cluster.md): a node of its own (`single`, the SQLite default) does all of the
 * above. In a cluster the `leader` does the same, with every write fenced by its epoch and every
 * tick handed to the tick bus; a `follower` runs no feed and writes no ticks or candles: it takes
 * the leader's numbered ticks from the bus (`acceptRemote`) into the same ring, candles, quote
 * state and listeners.
 */
import type { Candle, Pair, Rate } from '../../../contract/market';
import { TIMEFRAMES, TimeframeSchema, type Timeframe } from '../../../contract/user';
import * as v from 'valibot';
import type { ServerBase } from '../../base';
import type { Trx } from '../../db';
import type { MarketService, PriceFeed, Tick, TickSpan, TickSpanOptions } from './types';
import { CATALOGUE, pairLogoPath, pairSpec, roundPrice, type PairSpec } from './catalogue';
import { type ResumePoint } from './simulator';
import { buildFeed } from './feeds/select';
import { QuoteWatch } from './quote-watch';
import { sealTicks } from './tick-chain';
import { applyPrice, copyCandle, MAX_CANDLES, mergeCandles } from './candles';
import { backfillCandlesSliced } from './backfill';
import { CandleRing } from './candle-ring';
import {
  candleRetentionCutoff,
  candlesContaining,
  insertBackfill,
  pruneCandles,
  storedCandles,
  upsertCandles,
} from './candle-store';
import {
  countStoredTicks,
  highestOrderTicks,
  insertTicks,
  lastStoredTick,
  MISS,
  prunedFrom,
  pruneTicks,
  storedTickAtOrBefore,
  storedTickBySeq,
  storedTicksBetween,
  storedTicksBySeq,
  TickRing,
} from './tick-log';

export const FLUSH_INTERVAL_MS = 500;

/** `single`: a node of its own; in a cluster, the feed's `leader` or a `follower` (docs/cluster.md). */
export type MarketRole = 'single' | 'leader' | 'follower';

/** What a cluster leader's market needs for one term (server/cluster/node.ts). */
export interface LeaderTerm {
  epoch: number;
  /** Runs first inside every tick-log write; throws FencedError when the epoch is no longer current. */
  fence: (trx: Trx) => Promise<void>;
  /** Every tick this node numbered, as logged (to the tick bus). */
  publish: (tick: Tick) => void;
  /** A write was refused by the fence: another node leads now. */
  onFenced: () => void;
  /** Whether the lease is current: ticks are only numbered while it is (leadership.ts). */
  valid: () => boolean;
  /** Wait this long (still following the bus) before the term's first tick: the old leader's last ticks arrive. */
  handoverMs: number;
}

/** The tick log refused a write of a deposed leader. */
export class FencedError extends Error {
  constructor(
    readonly epoch: number,
    readonly current: number | null,
  ) {
    super(`feed epoch ${epoch} is no longer current (now ${current ?? 'none'})`);
    this.name = 'FencedError';
  }
}
export const RETENTION_INTERVAL_MS = 60_000;
/** The ring keeps at least this many seconds of ticks per pair at the configured rate. */
export const RING_SECONDS = 600;

/** Returns the earliest tick time (ms) someone still needs, or null when nobody needs old ticks. */
export type RetentionFloor = () => Promise<number | null> | number | null;

interface Series {
  pair: Pair;
  spec: PairSpec;
  ring: TickRing;
  live: Map<Timeframe, Candle>;
  /** The pair's first recorded tick: backfilled history ends here. */
  anchor: { time: number; price: number } | null;
  backfilled: boolean;
  backfilling: Promise<void> | null;
  /**
   * After a restart: a tick an order recorded that is newer than the log's last one (the log lost
   * it). The next tick numbers after it and is not older than it; cleared by that tick.
   */
  handedOut: { seq: number; time: number } | null;
  /** Cluster follower: the leader's epoch of the ring's newest tick (a newer epoch may renumber). */
  epoch: number;
}

const candleKey = (c: Candle) => `${c.pair_code}|${c.timeframe}|${c.timestamp}`;
/** Backfilled candles written per transaction (the event loop is free between slices). */
const BACKFILL_SLICE = 800;

export class Market implements MarketService {
  private readonly series = new Map<string, Series>();
  private pairs: Pair[] = [];
  private feed: PriceFeed | null = null;
  private readonly listeners = new Set<(tick: Tick) => void>();

  /** Candle history per pair and timeframe kept in memory (candle-ring.ts). */
  private readonly history = new CandleRing();
  private pendingTicks: Tick[] = [];
  private dirtyCandles = new Map<string, Candle>();
  private pendingAnchors = new Map<string, { time: number; price: number }>();
  private chain: Promise<unknown> = Promise.resolve();

  private flushTimer: NodeJS.Timeout | null = null;
  private retentionTimer: NodeJS.Timeout | null = null;
  private retentionFloor: RetentionFloor | null = null;
  private running = false;
  private stopped = false;
  private role: MarketRole = 'single';
  /** The newest leader epoch this node has seen (cluster only). */
  private epoch = 0;
  /** The current term while this node leads, and until its last write after stepping down. */
  private term: LeaderTerm | null = null;
  /** True when the embedded simulator is the feed (only then is history backfilled). */
  private simulated = false;
  private markStarted: () => void = () => undefined;
  private readonly startedPromise = new Promise<void>((resolve) => {
    this.markStarted = resolve;
  });

  constructor(
    private readonly ctx: ServerBase,
    /** A feed to use instead of the embedded simulator (tests drive prices with one). */
    private readonly feedOverride?: PriceFeed,
  ) {}

  // ---- lifecycle ---------------------------------------------------------------------------

  /** Seed and read the pairs table, restore each pair's last tick and live candles, pick the feed. */
  async init(): Promise<void> {
    const { db } = this.ctx;
    const now = this.ctx.now();
    await this.ctx.tx(async (trx) => {
      const rows = CATALOGUE.map((spec, i) => ({
        pair_code: spec.pair_code,
        pair_human_code: spec.pair_human_code,
        category: spec.category,
        is_active: spec.is_active ? 1 : 0,
        payout_rate: spec.payout_rate,
        precision: spec.precision,
        timeframes: JSON.stringify(TIMEFRAMES),
        logo: pairLogoPath(spec.pair_code),
        sort_order: i + 1,
        created_at: now,
        updated_at: now,
      }));
      // New catalogue pairs are added; rows an operator changed stay as they are.
      await trx.insertInto('pairs').values(rows).onConflict((oc) => oc.column('pair_code').doNothing()).execute();
    });

    const rows = await db.selectFrom('pairs').selectAll().orderBy('sort_order').orderBy('pair_code').execute();
    const anchors = await db.selectFrom('market_series').selectAll().execute();
    const anchorByPair = new Map(anchors.map((a) => [a.pair_code, a]));
    const ringCapacity = Math.max(1024, Math.ceil(RING_SECONDS * this.ctx.config.simTicksPerSecond));
    const resume = new Map<string, ResumePoint>();
    // Each pair continues after the highest seq ever handed out: the log's last tick, or a tick
    // an order recorded that never reached the log (a crash between batched writes on a database
    // from before orders wrote their ticks themselves, or a log an operator cut). Such a tick only
    // moves the numbering (and the simulator's price) on: it is not put back into the log, where
    // it would pass for the last price before ticks that were lost.
    const logged = new Map<string, Tick>();
    for (const row of rows) {
      const last = await lastStoredTick(db, row.pair_code);
      if (last) logged.set(row.pair_code, last);
    }
    const recorded = await highestOrderTicks(db, (code) => logged.get(code)?.seq ?? 0);

    for (const row of rows) {
      const spec = pairSpec(row.pair_code);
      if (!spec) {
        this.ctx.log.warn({ pair_code: row.pair_code }, 'pairs row without a catalogue entry ignored');
        continue;
      }
      const pair: Pair = {
        pair_code: row.pair_code,
        pair_human_code: row.pair_human_code,
        category: spec.category,
        is_active: Number(row.is_active) !== 0,
        payout_rate: Number(row.payout_rate),
        precision: Number(row.precision),
        timeframes: parseTimeframes(row.timeframes),
        logo: row.logo,
      };
      const s: Series = {
        pair,
        // The model quotes at the operated precision.
        spec: { ...spec, precision: pair.precision },
        ring: new TickRing(pair.pair_code, ringCapacity),
        live: new Map(),
        anchor: null,
        backfilled: false,
        backfilling: null,
        handedOut: null,
        epoch: 0,
      };
      const a = anchorByPair.get(pair.pair_code);
      if (a) {
        s.anchor = { time: Number(a.anchor_time), price: Number(a.anchor_price) };
        s.backfilled = Number(a.backfilled) === 1;
      }
      const last = logged.get(pair.pair_code);
      if (last) {
        s.ring.push(last);
        for (const c of await candlesContaining(db, pair.pair_code, last.time)) s.live.set(c.timeframe, c);
      }
      const fromOrder = recorded.get(pair.pair_code);
      if (fromOrder) {
        this.ctx.log.warn(
          { pair_code: pair.pair_code, seq: fromOrder.seq, logged_seq: last?.seq ?? null },
          'an order recorded a tick the tick log does not hold; numbering continues after it',
        );
        s.handedOut = { seq: fromOrder.seq, time: fromOrder.time };
      }
      const resumeFrom = fromOrder ?? last;
      if (resumeFrom) resume.set(pair.pair_code, { seq: resumeFrom.seq, time: resumeFrom.time, price: resumeFrom.price });
      this.series.set(pair.pair_code, s);
      this.pairs.push(pair);
    }

    this.feed = this.buildFeed(resume);
    this.quotes = new QuoteWatch(
      [...this.series.values()].filter((s) => s.pair.is_active !== false).map((s) => s.pair),
      this.ctx.config.staleQuoteMs,
      (code) => this.series.get(code)?.ring.latest()?.time,
      this.ctx.now,
    );
  }

  private buildFeed(resume: ReadonlyMap<string, ResumePoint>): PriceFeed {
    const override = this.feedOverride;
    if (override) return override;
    this.simulated = true;
    // MARKET_FEED picks the feeds (feeds/select.ts): the simulator, or Binance for crypto.
    return buildFeed({
      config: this.ctx.config,
      pairs: [...this.series.values()].filter((s) => s.pair.is_active !== false).map((s) => s.spec),
      resume,
      clock: this.ctx.now,
      log: this.ctx.log,
    });
  }

  /** Stale-quote state per pair (quote-watch.ts); set by init. */
  quotes: QuoteWatch | null = null;

  /** Whether the pair's prices are made up by the simulator (shown as "Simulated"). */
  isSimulated(pairCode: string): boolean {
    return this.feed?.isSimulated?.(pairCode) ?? false;
  }

  staleLimitMs(pairCode: string): number {
    const category = this.series.get(pairCode)?.pair.category ?? 'forex';
    return this.ctx.config.staleQuoteMs[category];
  }

  /**
   * Start the feed, the batched writer and retention (a cluster node starts as a follower: its
   * feed, writer and retention run only while it leads).
   */
  start(): void {
    if (this.running || this.stopped || !this.feed) return;
    this.running = true;
    if (this.role !== 'follower') this.startFeed();
    this.quotes?.start();
    this.markStarted();
  }

  private startFeed(): void {
    this.feed!.start(this.ingest);
    this.flushTimer = setInterval(() => void this.flush().catch(() => undefined), FLUSH_INTERVAL_MS);
    this.flushTimer.unref();
    this.retentionTimer = setInterval(() => {
      this.runRetention().catch((err) => this.ctx.log.error({ err }, 'market retention failed'));
    }, RETENTION_INTERVAL_MS);
    this.retentionTimer.unref();
  }

  private stopFeed(): void {
    this.feed?.stop();
    if (this.flushTimer) clearInterval(this.flushTimer);
    if (this.retentionTimer) clearInterval(this.retentionTimer);
    this.flushTimer = this.retentionTimer = null;
  }

  // ---- cluster roles (docs/cluster.md) --------------------------------------------------------

  /** This node's role: `single` unless the cluster made it a follower or the leader. */
  get clusterRole(): MarketRole {
    return this.role;
  }

  /** The newest leader epoch seen (0 on a single node). */
  get clusterEpoch(): number {
    return this.epoch;
  }

  /** Join a cluster as a follower (before start): no feed, no tick or candle writes. */
  joinCluster(): void {
    if (this.role === 'single') this.role = 'follower';
  }

  /**
   * This node took the feed's lock for `term.epoch` (its bump is committed): continue every pair
   * after the newest tick anyone handed out (the log, the bus ticks this node holds, the orders'
   * recorded ticks), put bus ticks the old leader never wrote into this term's first write, and
   * start the feed from the last price.
   */
  async lead(term: LeaderTerm): Promise<void> {
    if (this.stopped || this.role === 'single') return;
    this.term = term;
    if (term.handoverMs > 0) await new Promise((resolve) => setTimeout(resolve, term.handoverMs));
    if (this.stopped || this.term !== term) return;
    this.role = 'leader';
    this.epoch = Math.max(this.epoch, term.epoch);
    const db = this.ctx.db;
    let recorded = new Map<string, Tick>();
    await this.serial(async () => {
      this.pendingTicks = [];
      this.dirtyCandles = new Map();
      this.pendingAnchors = new Map();
      // The stored anchors are the pairs' first ticks (a follower's own is the first it heard).
      const anchors = new Map((await db.selectFrom('market_series').selectAll().execute()).map((a) => [a.pair_code, a]));
      for (const s of this.series.values()) {
        const a = anchors.get(s.pair.pair_code);
        if (a) {
          s.anchor = { time: Number(a.anchor_time), price: Number(a.anchor_price) };
          s.backfilled = Number(a.backfilled) === 1;
        } else if (s.anchor) {
          this.pendingAnchors.set(s.pair.pair_code, s.anchor);
        }
        const logged = await lastStoredTick(db, s.pair.pair_code);
        const seen = s.ring.latest();
        if (logged && (!seen || logged.seq > seen.seq)) {
          // The bus missed the old leader's last ticks: the log is ahead of this node's ring.
          s.ring.push(logged);
          for (const c of await candlesContaining(db, s.pair.pair_code, logged.time)) s.live.set(c.timeframe, c);
        } else if (seen) {
          for (const t of s.ring.since(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY)) {
            if (t.seq > (logged?.seq ?? 0)) this.pendingTicks.push(t);
          }
        }
        // The buckets in progress are written by this term (the old leader's last write may be older).
        for (const c of s.live.values()) this.dirtyCandles.set(candleKey(c), c);
      }
      // A tick an order recorded beyond both (placed on a node that heard a tick this one missed).
      recorded = await highestOrderTicks(db, (code) => this.series.get(code)?.ring.latest()?.seq ?? 0);
      for (const s of this.series.values()) s.handedOut = null;
      for (const [code, t] of recorded) {
        const s = this.series.get(code);
        if (s) s.handedOut = { seq: t.seq, time: t.time };
      }
    });
    if (this.stopped || this.term !== term) return;
    // The simulator continues each pair's stream from its last seq and price (simulator.ts).
    const resume = new Map<string, ResumePoint>();
    for (const s of this.series.values()) {
      const from = recorded.get(s.pair.pair_code) ?? s.ring.latest();
      if (from) resume.set(s.pair.pair_code, { seq: from.seq, time: from.time, price: from.price });
    }
    this.feed = this.buildFeed(resume);
    if (this.running) this.startFeed();
  }

  /**
   * This node no longer leads: the feed stops at once; what this term numbered and has not
   * written yet is written once more through the fence (refused if another node leads already),
   * then dropped. The node follows the bus from now on.
   */
  async follow(): Promise<void> {
    if (this.role !== 'leader') {
      // Demoted during the handover wait: the term never started.
      this.term = null;
      return;
    }
    const term = this.term;
    this.stopFeed();
    this.role = 'follower';
    await this.flush().catch(() => undefined);
    if (this.term === term) this.term = null;
    if (this.role === 'follower') {
      this.pendingTicks = [];
      this.dirtyCandles = new Map();
      this.pendingAnchors = new Map();
    }
  }

  /** Ticks the leader of `epoch` numbered, from the bus (ignored unless this node follows). */
  acceptRemote(epoch: number, ticks: readonly Tick[]): void {
    if (this.stopped || this.role !== 'follower' || epoch < this.epoch) return;
    this.epoch = epoch;
    for (const raw of ticks) {
      const s = this.series.get(raw.pair_code);
      if (!s || !Number.isSafeInteger(raw.seq) || !Number.isFinite(raw.price) || !Number.isFinite(raw.time)) continue;
      const last = s.ring.latest();
      // Already held, unless a newer leader renumbered from an older point (it wins).
      if (last && raw.seq <= last.seq && epoch <= s.epoch) continue;
      if (last && raw.time < last.time && epoch <= s.epoch) continue;
      s.epoch = epoch;
      this.apply(s, Object.freeze({ pair_code: s.pair.pair_code, seq: raw.seq, time: raw.time, price: raw.price }), false);
    }
  }

  /**
   * Whether an order of `pairCode` expiring at `expiresAt` can be settled now, with the same exit
   * tick whichever node settles it: the clock has passed expiry and a later tick exists or the
   * grace is over. A follower only trusts its ring when the ring holds the ticks around expiry
   * (it holds the leader's ticks without a gap from its oldest on); otherwise it waits past the
   * grace for two more of the leader's batched log writes, so the log has the exit tick.
   */
  exitFinal(pairCode: string, expiresAt: number, graceMs: number): boolean {
    const now = this.ctx.now();
    if (now < expiresAt) return false;
    const s = this.series.get(pairCode);
    const latest = s?.ring.latest();
    if (this.role !== 'follower') {
      if (now >= expiresAt + graceMs) return true;
      return latest !== undefined && latest.time > expiresAt;
    }
    const oldest = s?.ring.oldestTime();
    if (latest !== undefined && oldest !== undefined && oldest <= expiresAt && latest.time > expiresAt) return true;
    return now >= expiresAt + graceMs + 2 * FLUSH_INTERVAL_MS;
  }

  /**
   * Resolves once the feed runs. Fastify runs onListen hooks (where modules start) after
   * listen() has resolved, so code that pushes prices right after listening waits for this.
   */
  whenStarted(): Promise<void> {
    return this.startedPromise;
  }

  /** Stop the feed and timers, then write whatever is still in memory. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.running = false;
    this.stopFeed();
    this.quotes?.stop();
    await this.flush().catch(() => undefined);
  }

  /** Whether the embedded simulator is the feed. */
  get usesSimulator(): boolean {
    return this.simulated;
  }

  // ---- ticks in ------------------------------------------------------------------------------

  /** Take one tick from the feed; returns the tick as logged, or null when refused. */
  readonly ingest = (raw: Tick): Tick | null => {
    if (this.stopped) return null;
    const s = this.series.get(raw?.pair_code);
    if (!s) return this.refuse(raw, 'unknown pair');
    if (typeof raw.price !== 'number' || !Number.isFinite(raw.price) || typeof raw.time !== 'number' || !Number.isFinite(raw.time)) {
      return this.refuse(raw, 'not a finite price and time');
    }
    const price = roundPrice(raw.price, s.pair.precision);
    if (!(price > 0)) return this.refuse(raw, 'price must be positive');
    const time = Math.round(raw.time);
    const last = s.ring.latest();
    const floor = s.handedOut;
    if ((last && time < last.time) || (floor && time < floor.time)) return this.refuse(raw, 'time before the last tick');
    const seq = Math.max(last?.seq ?? 0, floor?.seq ?? 0) + 1;

    // A leader whose lease ran out numbers nothing (another node may lead already; leadership.ts).
    if (this.role === 'leader' && !this.term?.valid()) return null;
    const tick: Tick = Object.freeze({ pair_code: s.pair.pair_code, seq, time, price });
    s.handedOut = null;
    s.epoch = this.epoch;
    this.apply(s, tick, true);
    if (this.role === 'leader') this.term?.publish(tick);
    return tick;
  };

  /** A numbered tick into the ring, the candles and the quote state, then to the listeners. */
  private apply(s: Series, tick: Tick, persist: boolean): void {
    const { time, price } = tick;
    s.ring.push(tick);
    if (persist) this.pendingTicks.push(tick);
    if (!s.anchor) {
      s.anchor = { time, price };
      if (persist) this.pendingAnchors.set(tick.pair_code, s.anchor);
    }
    for (const tf of TIMEFRAMES) {
      const candle = applyPrice(s.live.get(tf), tick.pair_code, tf, time, price);
      if (!candle) continue;
      s.live.set(tf, candle);
      if (persist) this.dirtyCandles.set(candleKey(candle), candle);
      this.history.apply(candle);
    }
    // A delayed pair resumes with its first fresh tick, before anyone hears of that tick.
    this.quotes?.touch(tick.pair_code);
    for (const listener of this.listeners) {
      try {
        listener(tick);
      } catch (err) {
        this.ctx.log.error({ err }, 'market tick listener failed');
      }
    }
  }

  private refuse(raw: unknown, reason: string): null {
    this.ctx.log.warn({ tick: raw, reason }, 'market tick refused');
    return null;
  }

  // ---- MarketService ----------------------------------------------------------------------

  listPairs(): Pair[] {
    return this.pairs.map((p) => this.withQuoteFacts(copyPair(p)));
  }

  /**
   * Changes whenever `listPairs()` would answer differently: the pairs are fixed at start except
   * what withQuoteFacts adds (simulated, quotes) and is_active (setActive). init_pairs is encoded
   * once per value of this (server/http/shared-packets.ts).
   */
  pairsVersion(): string {
    let key = '';
    for (const p of this.pairs) {
      key += `${p.is_active === false ? 0 : 1}${this.isSimulated(p.pair_code) ? 1 : 0}`;
      key += p.is_active !== false && this.quotes ? `${this.quotes.state(p.pair_code)},` : '-,';
    }
    return key;
  }

  getPair(pairCode: string): Pair | undefined {
    const s = this.series.get(pairCode);
    return s ? this.withQuoteFacts(copyPair(s.pair)) : undefined;
  }

  pairTerms(pairCode: string): Readonly<Pair> | undefined {
    return this.series.get(pairCode)?.pair;
  }

  /** The pair as traders see it: where its prices come from and whether they are delayed. */
  private withQuoteFacts(p: Pair): Pair {
    p.simulated = this.isSimulated(p.pair_code);
    if (p.is_active !== false && this.quotes) p.quotes = this.quotes.state(p.pair_code);
    return p;
  }

  /** An operator enabled or disabled a pair (pair-admin.ts): the cached pair follows the row. */
  setActive(pairCode: string, active: boolean): boolean {
    const s = this.series.get(pairCode);
    if (!s || s.pair.is_active === active) return false;
    s.pair.is_active = active;
    return true;
  }

  /**
   * Cluster: follow the operators' pair changes made through another node (its `pairs.changed`
   * event is delivered once cluster-wide, not on every node). Returns the pairs that changed.
   */
  async refreshActive(): Promise<string[]> {
    const rows = await this.ctx.db.selectFrom('pairs').select(['pair_code', 'is_active']).execute();
    const changed: string[] = [];
    for (const r of rows) if (this.setActive(r.pair_code, Number(r.is_active) !== 0)) changed.push(r.pair_code);
    return changed;
  }

  /** A pair exists and is not explicitly inactive. */
  isActive(pairCode: string): boolean {
    const s = this.series.get(pairCode);
    return !!s && s.pair.is_active !== false;
  }

  latestTick(pairCode: string): Tick | undefined {
    return this.series.get(pairCode)?.ring.latest();
  }

  async tickAtOrBefore(pairCode: string, timeMs: number): Promise<Tick | undefined> {
    const s = this.series.get(pairCode);
    if (!s || !Number.isFinite(timeMs)) return undefined;
    const hit = s.ring.atOrBefore(timeMs);
    if (hit !== MISS) return hit;
    return this.serial(async () => {
      let best = await storedTickAtOrBefore(this.ctx.db, pairCode, timeMs);
      // Ticks not written yet (a failed flush keeps them) may be later than the stored one.
      for (const t of this.pendingTicks) {
        if (t.pair_code === pairCode && t.time <= timeMs && (!best || t.seq > best.seq)) best = t;
      }
      return best;
    });
  }

  async ticksBetween(pairCode: string, fromMs: number, toMs: number): Promise<Tick[]> {
    const s = this.series.get(pairCode);
    if (!s || !(fromMs <= toMs)) return [];
    const hit = s.ring.between(fromMs, toMs);
    if (hit !== MISS) return hit;
    return this.serial(async () => {
      const stored = await storedTicksBetween(this.ctx.db, pairCode, fromMs, toMs);
      const bySeq = new Map(stored.map((t) => [t.seq, t]));
      for (const t of this.pendingTicks) if (t.pair_code === pairCode && t.time >= fromMs && t.time <= toMs) bySeq.set(t.seq, t);
      for (const t of s.ring.since(fromMs, toMs)) bySeq.set(t.seq, t);
      return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    });
  }

  async logTick(trx: Trx, tick: Tick): Promise<void> {
    await insertTicks(trx, [tick]);
  }

  async tickSpan(pairCode: string, fromSeq: number, toSeq: number, options: TickSpanOptions): Promise<TickSpan> {
    const retentionHours = this.ctx.config.tickRetentionHours;
    const limit = Math.max(0, Math.floor(options.limit));
    const empty: TickSpan = { ticks: [], truncated: false, logged: 0, atFrom: undefined, atTo: undefined, pruned: false, retentionHours };
    if (!this.series.has(pairCode) || !(fromSeq <= toSeq)) return empty;
    const start = Math.max(fromSeq, (options.afterSeq ?? fromSeq - 1) + 1);
    const horizon = this.ctx.now() - retentionHours * 3_600_000;
    return this.serial(async () => {
      // Everything ingested so far goes to the database first, so the log is the one place to read.
      await this.writeBatch();
      const db = this.ctx.db;
      const page = start <= toSeq ? await storedTicksBySeq(db, pairCode, start, toSeq, limit + 1) : [];
      return {
        ticks: page.slice(0, limit),
        truncated: page.length > limit,
        logged: await countStoredTicks(db, pairCode, fromSeq, toSeq),
        atFrom: await storedTickBySeq(db, pairCode, fromSeq),
        atTo: await storedTickBySeq(db, pairCode, toSeq),
        pruned: await prunedFrom(db, pairCode, fromSeq, horizon),
        retentionHours,
      };
    });
  }

  volatility(pairCode: string): number {
    const s = this.series.get(pairCode);
    if (!s) throw new Error(`Unknown pair ${pairCode}`);
    return s.spec.sigma;
  }

  /**
   * The in-memory history of a (pair, timeframe) right now, with a version that changes with it
   * (candle-ring.ts); null until `candles` installed it. Lets the socket reuse an encoded answer.
   */
  historyNow(pairCode: string, timeframe: Timeframe): { version: number; candles: () => Candle[] } | null {
    const version = this.history.version(pairCode, timeframe);
    if (version === undefined) return null;
    return { version, candles: () => this.history.get(pairCode, timeframe, MAX_CANDLES) ?? [] };
  }

  async candles(pairCode: string, timeframe: Timeframe, limit: number): Promise<Candle[]> {
    const s = this.series.get(pairCode);
    const n = Math.min(MAX_CANDLES, Math.floor(limit));
    if (!s || !(n >= 1) || !v.is(TimeframeSchema, timeframe)) return [];
    // Served from memory once read (candle-ring.ts): select_pair costs a copy, not a read.
    const cached = this.history.get(pairCode, timeframe, n);
    if (cached) return cached;
    await this.ensureBackfill(s);
    return this.serial(async () => {
      const again = this.history.get(pairCode, timeframe, n);
      if (again) return again;
      const stored = await storedCandles(this.ctx.db, pairCode, timeframe, MAX_CANDLES);
      const pending: Candle[] = [];
      for (const c of this.dirtyCandles.values()) if (c.pair_code === pairCode && c.timeframe === timeframe) pending.push(c);
      const live = s.live.get(timeframe);
      const merged = mergeCandles(MAX_CANDLES, stored, pending, live ? [live] : []);
      // Installed in the same synchronous step as the read's merge: every later tick updates it.
      this.history.install(pairCode, timeframe, merged);
      return merged.slice(Math.max(0, merged.length - n)).map(copyCandle);
    });
  }

  onTick(listener: (tick: Tick) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  // ---- more for the socket layer, orders and operators ---------------------------------------

  /** The candle of the current bucket (last tick's bucket) of one timeframe, as a copy. */
  liveCandle(pairCode: string, timeframe: Timeframe): Candle | undefined {
    const c = this.series.get(pairCode)?.live.get(timeframe);
    return c ? copyCandle(c) : undefined;
  }

  /** The latest price of every pair that has one (the pairs_rates payload). */
  rates(): Rate[] {
    const out: Rate[] = [];
    for (const s of this.series.values()) {
      const t = s.ring.latest();
      if (t) out.push({ pair_code: t.pair_code, current_price: t.price });
    }
    return out;
  }

  /**
   * Retention never deletes ticks at or after the time this returns (the orders area sets it to
   * the earliest entry/expiry time an open order still needs). Replaces any previous floor.
   */
  setRetentionFloor(floor: RetentionFloor | null): void {
    this.retentionFloor = floor;
  }

  /**
   * Delete ticks older than TICK_RETENTION_HOURS (but none at or after the retention floor, and
   * always keeping each pair's newest tick before the cutoff, so "the last tick at or before t"
   * stays answerable for every t after it) and candles beyond their timeframe's window.
   */
  async runRetention(nowMs: number = this.ctx.now()): Promise<{ ticks: number; candles: number; cutoff: number }> {
    let cutoff = nowMs - this.ctx.config.tickRetentionHours * 3_600_000;
    if (this.retentionFloor) {
      // If the floor cannot be known, keeping everything is the safe answer.
      const floor = await this.retentionFloor();
      if (floor !== null && Number.isFinite(floor)) cutoff = Math.min(cutoff, floor);
      else if (floor !== null) throw new Error('retention floor is not a finite time');
    }
    let ticks = 0;
    let candles = 0;
    for (const code of this.series.keys()) {
      // One short transaction per pair so live batches are never held up for long.
      // The counts come out of the transaction: on PostgreSQL it may run more than once.
      const pruned = await this.serial(() =>
        this.ctx.tx(async (trx) => ({ ticks: await pruneTicks(trx, code, cutoff), candles: await pruneCandles(trx, code, nowMs) })),
      );
      ticks += pruned.ticks;
      candles += pruned.candles;
    }
    // Pruned candles leave the in-memory history too (it is read again on the next request).
    if (candles > 0) this.history.clear();
    return { ticks, candles, cutoff };
  }

  /** Write every tick, changed candle and anchor still in memory (also runs on a timer). */
  flush(): Promise<void> {
    return this.serial(() => this.writeBatch());
  }

  /**
   * Generate and store the history before a pair's first tick, once per pair and only for the
   * simulator (an external feed's past is not ours to invent). Failure is logged, not thrown:
   * the chart still gets the recorded candles.
   */
  ensureBackfill(pairCode: string | Series): Promise<void> {
    const s = typeof pairCode === 'string' ? this.series.get(pairCode) : pairCode;
    if (!s || !this.simulated || !this.isSimulated(s.pair.pair_code) || s.backfilled || !s.anchor) return Promise.resolve();
    if (s.backfilling) return s.backfilling;
    let anchor = s.anchor;
    s.backfilling = this.serial(async () => {
      if (s.backfilled) return;
      if (this.role === 'follower') {
        // The history ends at the pair's first tick as the leader recorded it, not at the first
        // tick this node happened to hear: read the stored anchor (none yet: try again later).
        const row = await this.ctx.db.selectFrom('market_series').selectAll().where('pair_code', '=', s.pair.pair_code).executeTakeFirst();
        if (!row) return;
        anchor = s.anchor = { time: Number(row.anchor_time), price: Number(row.anchor_price) };
        if (Number(row.backfilled) === 1) {
          s.backfilled = true;
          return;
        }
      }
      const now = this.ctx.now();
      const byTf = await backfillCandlesSliced({
        seed: this.ctx.config.simSeed,
        spec: s.spec,
        anchorTime: anchor.time,
        anchorPrice: anchor.price,
        ticksPerSecond: this.ctx.config.simTicksPerSecond,
      });
      const rows: Candle[] = [];
      for (const [tf, list] of byTf) {
        const keepFrom = candleRetentionCutoff(now, tf);
        for (const c of list) if (c.timestamp >= keepFrom) rows.push(c);
      }
      // In slices, the event loop free between them: one transaction for a pair's whole history
      // blocked every client for tens of ms at its first select_pair. The inserts skip candles
      // already stored, so slices left by a crash are simply written again next time.
      for (let i = 0; i < rows.length; i += BACKFILL_SLICE) {
        const slice = rows.slice(i, i + BACKFILL_SLICE);
        await this.ctx.tx((trx) => insertBackfill(trx, slice));
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      await this.ctx.tx(async (trx) => {
        await trx
          .insertInto('market_series')
          .values({ pair_code: s.pair.pair_code, anchor_time: anchor.time, anchor_price: anchor.price, backfilled: 1 })
          .onConflict((oc) => oc.column('pair_code').doUpdateSet({ backfilled: 1 }))
          .execute();
      });
      s.backfilled = true;
      this.history.clear();
    })
      .catch((err) => this.ctx.log.error({ err, pair_code: s.pair.pair_code }, 'market backfill failed'))
      .finally(() => {
        s.backfilling = null;
      });
    return s.backfilling;
  }

  // ---- internals -----------------------------------------------------------------------------

  /** Run `fn` after every earlier serial step (writes and the reads that must not race them). */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async writeBatch(): Promise<void> {
    if (!this.pendingTicks.length && !this.dirtyCandles.size && !this.pendingAnchors.size) return;
    const ticks = this.pendingTicks;
    const dirty = this.dirtyCandles;
    const anchors = this.pendingAnchors;
    this.pendingTicks = [];
    this.dirtyCandles = new Map();
    this.pendingAnchors = new Map();
    // Copies: the live candles keep changing while the transaction runs.
    const candles = [...dirty.values()].map(copyCandle);
    const term = this.term;
    try {
      await this.ctx.tx(async (trx) => {
        // A deposed leader's write is refused before it writes anything (the fencing token).
        if (term) await term.fence(trx);
        // Hash-chained: one batch row per write (tick-chain.ts, docs/market.md).
        await sealTicks(trx, ticks, this.ctx.now());
        await upsertCandles(trx, candles);
        if (anchors.size) {
          await trx
            .insertInto('market_series')
            .values([...anchors].map(([pair_code, a]) => ({ pair_code, anchor_time: a.time, anchor_price: a.price, backfilled: 0 })))
            .onConflict((oc) => oc.column('pair_code').doNothing())
            .execute();
        }
      });
    } catch (err) {
      if (err instanceof FencedError) {
        // Another node leads: what this node numbered since is not the log's to keep.
        this.ctx.log.warn({ epoch: err.epoch, current: err.current, ticks: ticks.length }, 'cluster: tick-log write refused by the fence');
        if (this.term === term) term?.onFenced();
        return;
      }
      // Keep everything for the next attempt; newer changes of the same candle win.
      this.pendingTicks = ticks.concat(this.pendingTicks);
      for (const [key, candle] of dirty) if (!this.dirtyCandles.has(key)) this.dirtyCandles.set(key, candle);
      for (const [code, a] of anchors) if (!this.pendingAnchors.has(code)) this.pendingAnchors.set(code, a);
      this.ctx.log.error({ err }, 'market flush failed');
      throw err;
    }
  }
}

function parseTimeframes(json: string): Timeframe[] {
  try {
    const parsed: unknown = JSON.parse(json);
    if (Array.isArray(parsed)) {
      const valid = parsed.filter((tf): tf is Timeframe => v.is(TimeframeSchema, tf));
      if (valid.length) return TIMEFRAMES.filter((tf) => valid.includes(tf));
    }
  } catch {
    // fall through to every timeframe
  }
  return [...TIMEFRAMES];
}

const copyPair = (p: Pair): Pair => ({ ...p, timeframes: [...p.timeframes] });
