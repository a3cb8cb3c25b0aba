/**
 * Reading a pair's past: ticks by time (the ring first, then the tick log), a span of the log by
 * seq, a sealed batch of the log, and the candle history a chart gets (the in-memory history once
 * read, candle-ring.ts).
 * Reads that need the database run on the writer's serial queue (batch-writer.ts) and add what is
 * still waiting to be written, so they never miss a tick or a candle.
 */
import * as v from 'valibot';
import { ErrorText } from '../../../contract/envelope';
import { MarketErrorText, type Candle, type TickBatchResponse } from '../../../contract/market';
import { TimeframeSchema, type Timeframe } from '../../../contract/user';
import { notFound } from '../errors';
import type { MarketDeps } from './deps';
import type { Tick, TickSpan, TickSpanOptions } from './types';
import type { BatchWriter } from './batch-writer';
import type { CandleRing } from './candle-ring';
import type { Series } from './series';
import { copyCandle, MAX_CANDLES, mergeCandles } from './candles';
import { storedCandles } from './candle-store';
import { batchWithTicks } from './tick-chain';
import { countStoredTicks, MISS, prunedFrom, storedTickAtOrBefore, storedTickBySeq, storedTicksBetween, storedTicksBySeq } from './tick-log';

export class MarketReads {
  constructor(
    private readonly deps: Pick<MarketDeps, 'db' | 'now' | 'tickRetentionHours'>,
    private readonly series: ReadonlyMap<string, Series>,
    private readonly writer: BatchWriter,
    private readonly history: CandleRing,
    /** The pair's generated history is stored before its candles are first read (backfill-writer.ts). */
    private readonly ensureBackfill: (s: Series) => Promise<void>,
  ) {}

  async tickAtOrBefore(pairCode: string, timeMs: number): Promise<Tick | undefined> {
    const s = this.series.get(pairCode);
    if (!s || !Number.isFinite(timeMs)) return undefined;
    const hit = s.ring.atOrBefore(timeMs);
    if (hit !== MISS) return hit;
    return this.writer.serial(async () => {
      let best = await storedTickAtOrBefore(this.deps.db, pairCode, timeMs);
      // Ticks not written yet (a failed flush keeps them) may be later than the stored one.
      for (const t of this.writer.pendingTicks) {
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
    return this.writer.serial(async () => {
      const stored = await storedTicksBetween(this.deps.db, pairCode, fromMs, toMs);
      const bySeq = new Map(stored.map((t) => [t.seq, t]));
      for (const t of this.writer.pendingTicks) if (t.pair_code === pairCode && t.time >= fromMs && t.time <= toMs) bySeq.set(t.seq, t);
      for (const t of s.ring.since(fromMs, toMs)) bySeq.set(t.seq, t);
      return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    });
  }

  async tickSpan(pairCode: string, fromSeq: number, toSeq: number, options: TickSpanOptions): Promise<TickSpan> {
    const retentionHours = this.deps.tickRetentionHours;
    const limit = Math.max(0, Math.floor(options.limit));
    const empty: TickSpan = { ticks: [], truncated: false, logged: 0, atFrom: undefined, atTo: undefined, pruned: false, retentionHours };
    if (!this.series.has(pairCode) || !(fromSeq <= toSeq)) return empty;
    const start = Math.max(fromSeq, (options.afterSeq ?? fromSeq - 1) + 1);
    const horizon = this.deps.now() - retentionHours * 3_600_000;
    return this.writer.serial(async () => {
      // Everything ingested so far goes to the database first, so the log is the one place to read.
      await this.writer.write();
      const db = this.deps.db;
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

  /** One sealed batch of the tick log with its ticks, in canonical order; NotFound when there is none. */
  async tickBatch(batchId: number): Promise<TickBatchResponse> {
    const batch = await batchWithTicks(this.deps.db, batchId);
    if (!batch) throw notFound(MarketErrorText.batchNotFound);
    return batch;
  }

  /** The in-memory history of a (pair, timeframe) right now, with its version; null until `candles` installed it. */
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
    return this.writer.serial(async () => {
      const again = this.history.get(pairCode, timeframe, n);
      if (again) return again;
      const stored = await storedCandles(this.deps.db, pairCode, timeframe, MAX_CANDLES);
      const pending: Candle[] = [];
      for (const c of this.writer.dirtyCandles.values()) if (c.pair_code === pairCode && c.timeframe === timeframe) pending.push(c);
      const live = s.live.get(timeframe);
      const merged = mergeCandles(MAX_CANDLES, stored, pending, live ? [live] : []);
      // Installed in the same synchronous step as the read's merge: every later tick updates it.
      this.history.install(pairCode, timeframe, merged);
      return merged.slice(Math.max(0, merged.length - n)).map(copyCandle);
    });
  }

  /** The REST history: as `candles`, and NotFound for a pair that is not listed. */
  async candleHistory(pairCode: string, timeframe: Timeframe, limit: number): Promise<Candle[]> {
    if (!this.series.has(pairCode)) throw notFound(ErrorText.pairNotFound);
    return this.candles(pairCode, timeframe, limit);
  }
}
