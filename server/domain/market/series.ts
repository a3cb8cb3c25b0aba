/**
 * Each pair's live state in memory (`Series`): its terms as operated, the ring of recent ticks,
 * the live candle per timeframe, the anchor (first recorded tick) and the numbering floor after
 * a restart. Built from the database at start (`restoreSeries`); a cluster follower taking over
 * the feed brings it up to date from there again (handover.ts).
 */
import type { Candle, Pair } from '../../../contract/market';
import type { Timeframe } from '../../../contract/user';
import type { DB } from '../../db';
import type { DomainLog } from '../log';
import type { Tick } from './types';
import { operatedPair, pairSpec, type PairSpec } from './catalogue';
import { candlesContaining } from './candle-store';
import { pairRecords, seriesAnchors } from './repository';
import type { ResumePoint } from './simulator';
import { highestOrderTicks, lastStoredTick, TickRing } from './tick-log';

/** The ring keeps at least this many seconds of ticks per pair at the configured rate. */
export const RING_SECONDS = 600;

export interface Series {
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

/** A candle's key in the write batch. */
export const candleKey = (c: Candle) => `${c.pair_code}|${c.timeframe}|${c.timestamp}`;

/**
 * Every pair of the `pairs` table with a catalogue entry, in display order, each with its last
 * logged tick and the stored candles it continues, and where each pair's numbering (and the
 * simulator's price) resumes.
 */
export async function restoreSeries(
  db: DB,
  log: DomainLog,
  ticksPerSecond: number,
): Promise<{ series: Series[]; resume: Map<string, ResumePoint> }> {
  const rows = await pairRecords(db);
  const anchors = await seriesAnchors(db);
  const ringCapacity = Math.max(1024, Math.ceil(RING_SECONDS * ticksPerSecond));
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

  const series: Series[] = [];
  for (const row of rows) {
    const spec = pairSpec(row.pair_code);
    if (!spec) {
      log.warn({ pair_code: row.pair_code }, 'pairs row without a catalogue entry ignored');
      continue;
    }
    const pair = operatedPair(row, spec);
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
    const a = anchors.get(pair.pair_code);
    if (a) {
      s.anchor = { time: a.time, price: a.price };
      s.backfilled = a.backfilled;
    }
    const last = logged.get(pair.pair_code);
    if (last) {
      s.ring.push(last);
      for (const c of await candlesContaining(db, pair.pair_code, last.time)) s.live.set(c.timeframe, c);
    }
    const fromOrder = recorded.get(pair.pair_code);
    if (fromOrder) {
      log.warn(
        { pair_code: pair.pair_code, seq: fromOrder.seq, logged_seq: last?.seq ?? null },
        'an order recorded a tick the tick log does not hold; numbering continues after it',
      );
      s.handedOut = { seq: fromOrder.seq, time: fromOrder.time };
    }
    const resumeFrom = fromOrder ?? last;
    if (resumeFrom) resume.set(pair.pair_code, { seq: resumeFrom.seq, time: resumeFrom.time, price: resumeFrom.price });
    series.push(s);
  }
  return { series, resume };
}
