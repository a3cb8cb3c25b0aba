/**
 * The feed changing hands in a cluster (docs/cluster.md): this node's market taking the lead for
 * a term (`lead`) and giving it up (`follow`). Taking over brings every pair's series up to date
 * from the database and starts the write batch with what the new term must write; giving up
 * stops the feed and writes what the term numbered once more through the fence (fencing.ts).
 */
import type { MarketDeps } from './deps';
import type { Tick } from './types';
import type { BatchWriter } from './batch-writer';
import type { LeaderTerm } from './fencing';
import type { TickSequencer } from './sequencer';
import type { ResumePoint } from './simulator';
import { candlesContaining } from './candle-store';
import { seriesAnchors } from './repository';
import { candleKey, type Series } from './series';
import { highestOrderTicks, lastStoredTick } from './tick-log';

/** How the market runs its feed: started again from resume points, or stopped with its timers. */
export interface FeedControl {
  restart(resume: ReadonlyMap<string, ResumePoint>): void;
  stop(): void;
}

export class Handover {
  constructor(
    private readonly deps: Pick<MarketDeps, 'db'>,
    private readonly series: ReadonlyMap<string, Series>,
    private readonly writer: BatchWriter,
    private readonly ticks: TickSequencer,
    private readonly feed: FeedControl,
  ) {}

  /**
   * This node took the feed's lock for `term.epoch` (its bump is committed): continue every pair
   * after the newest tick anyone handed out (the log, the bus ticks this node holds, the orders'
   * recorded ticks), put bus ticks the old leader never wrote into this term's first write, and
   * start the feed from the last price.
   */
  async lead(term: LeaderTerm): Promise<void> {
    const t = this.ticks;
    if (t.stopped || t.role === 'single') return;
    t.term = term;
    if (term.handoverMs > 0) await new Promise((resolve) => setTimeout(resolve, term.handoverMs));
    if (t.stopped || t.term !== term) return;
    t.role = 'leader';
    t.epoch = Math.max(t.epoch, term.epoch);
    const recorded = await this.writer.serial(() => this.takeOver());
    if (t.stopped || t.term !== term) return;
    // The simulator continues each pair's stream from its last seq and price (simulator.ts).
    const resume = new Map<string, ResumePoint>();
    for (const s of this.series.values()) {
      const from = recorded.get(s.pair.pair_code) ?? s.ring.latest();
      if (from) resume.set(s.pair.pair_code, { seq: from.seq, time: from.time, price: from.price });
    }
    this.feed.restart(resume);
  }

  /**
   * This node no longer leads: the feed stops at once; what this term numbered and has not
   * written yet is written once more through the fence (refused if another node leads already),
   * then dropped. The node follows the bus from now on.
   */
  async follow(): Promise<void> {
    const t = this.ticks;
    if (t.role !== 'leader') {
      // Demoted during the handover wait: the term never started.
      t.term = null;
      return;
    }
    const term = t.term;
    this.feed.stop();
    t.role = 'follower';
    await this.writer.flush().catch(() => undefined);
    if (t.term === term) t.term = null;
    if (t.role === 'follower') this.writer.clear();
  }

  /**
   * The new term's state (run on the writer's serial queue): the write batch starts over with
   * what the term must write (bus ticks the old leader never logged, the buckets in progress,
   * anchors the log lacks); a ring behind the log catches up from it; each pair's numbering floor
   * is the newest tick an order recorded beyond both. Returns those order ticks.
   */
  private async takeOver(): Promise<Map<string, Tick>> {
    const { db } = this.deps;
    const { series, writer } = this;
    writer.clear();
    // The stored anchors are the pairs' first ticks (a follower's own is the first it heard).
    const anchors = await seriesAnchors(db);
    for (const s of series.values()) {
      const a = anchors.get(s.pair.pair_code);
      if (a) {
        s.anchor = { time: a.time, price: a.price };
        s.backfilled = a.backfilled;
      } else if (s.anchor) {
        writer.pendingAnchors.set(s.pair.pair_code, s.anchor);
      }
      const logged = await lastStoredTick(db, s.pair.pair_code);
      const seen = s.ring.latest();
      if (logged && (!seen || logged.seq > seen.seq)) {
        // The bus missed the old leader's last ticks: the log is ahead of this node's ring.
        s.ring.push(logged);
        for (const c of await candlesContaining(db, s.pair.pair_code, logged.time)) s.live.set(c.timeframe, c);
      } else if (seen) {
        for (const t of s.ring.since(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY)) {
          if (t.seq > (logged?.seq ?? 0)) writer.pendingTicks.push(t);
        }
      }
      // The buckets in progress are written by this term (the old leader's last write may be older).
      for (const c of s.live.values()) writer.dirtyCandles.set(candleKey(c), c);
    }
    // A tick an order recorded beyond both (placed on a node that heard a tick this one missed).
    const recorded = await highestOrderTicks(db, (code) => series.get(code)?.ring.latest()?.seq ?? 0);
    for (const s of series.values()) s.handedOut = null;
    for (const [code, t] of recorded) {
      const s = series.get(code);
      if (s) s.handedOut = { seq: t.seq, time: t.time };
    }
    return recorded;
  }
}
