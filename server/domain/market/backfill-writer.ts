/**
 * Writes a pair's backfilled history (backfill.ts generates it) once: before the pair's first
 * recorded tick, only for pairs the embedded simulator quotes (an external feed's past is not
 * ours to invent), and only the candles retention would keep. Failure is logged, not thrown: the
 * chart still gets the recorded candles, and the next request tries again.
 */
import type { Candle } from '../../../contract/market';
import type { MarketDeps } from './deps';
import type { BatchWriter } from './batch-writer';
import type { CandleRing } from './candle-ring';
import type { Series } from './series';
import { backfillCandlesSliced } from './backfill';
import { candleRetentionCutoff, insertBackfill } from './candle-store';
import { markBackfilled, seriesAnchor } from './repository';

/** Backfilled candles written per transaction (the event loop is free between slices). */
const BACKFILL_SLICE = 800;

export class BackfillWriter {
  constructor(
    private readonly deps: Pick<MarketDeps, 'db' | 'tx' | 'now' | 'log' | 'simSeed' | 'simTicksPerSecond'>,
    private readonly writer: BatchWriter,
    private readonly history: CandleRing,
    /** Whether the simulator makes this pair's prices up (only then is its past generated). */
    private readonly simulated: (pairCode: string) => boolean,
    /** Whether this node follows a cluster leader (then the leader's stored anchor is the one). */
    private readonly following: () => boolean,
  ) {}

  /** Generate and store the pair's history unless it has it; resolves when done (or given up). */
  ensure(s: Series): Promise<void> {
    if (!this.simulated(s.pair.pair_code) || s.backfilled || !s.anchor) return Promise.resolve();
    if (s.backfilling) return s.backfilling;
    let anchor = s.anchor;
    s.backfilling = this.writer
      .serial(async () => {
        if (s.backfilled) return;
        if (this.following()) {
          // The history ends at the pair's first tick as the leader recorded it, not at the first
          // tick this node happened to hear: read the stored anchor (none yet: try again later).
          const stored = await seriesAnchor(this.deps.db, s.pair.pair_code);
          if (!stored) return;
          anchor = s.anchor = { time: stored.time, price: stored.price };
          if (stored.backfilled) {
            s.backfilled = true;
            return;
          }
        }
        const now = this.deps.now();
        const byTf = await backfillCandlesSliced({
          seed: this.deps.simSeed,
          spec: s.spec,
          anchorTime: anchor.time,
          anchorPrice: anchor.price,
          ticksPerSecond: this.deps.simTicksPerSecond,
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
          await this.deps.tx((trx) => insertBackfill(trx, slice));
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        await this.deps.tx((trx) => markBackfilled(trx, s.pair.pair_code, anchor));
        s.backfilled = true;
        this.history.clear();
      })
      .catch((err) => this.deps.log.error({ err, pair_code: s.pair.pair_code }, 'market backfill failed'))
      .finally(() => {
        s.backfilling = null;
      });
    return s.backfilling;
  }
}
