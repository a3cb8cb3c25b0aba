/**
 * Retention of the stored history: every RETENTION_INTERVAL_MS (while this node writes the log)
 * ticks older than TICK_RETENTION_HOURS go, but none at or after the retention floor (the orders
 * area sets it to what its open orders still need), always keeping each pair's newest tick before
 * the cutoff, so "the last tick at or before t" stays answerable for every t after it; candles
 * go beyond their timeframe's window (candle-store.ts).
 */
import type { MarketDeps } from './deps';
import type { BatchWriter } from './batch-writer';
import type { CandleRing } from './candle-ring';
import { pruneCandles } from './candle-store';
import { pruneTicks } from './tick-log';

export const RETENTION_INTERVAL_MS = 60_000;

/** Returns the earliest tick time (ms) someone still needs, or null when nobody needs old ticks. */
export type RetentionFloor = () => Promise<number | null> | number | null;

export class Retention {
  private floor: RetentionFloor | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: Pick<MarketDeps, 'tx' | 'now' | 'log' | 'tickRetentionHours'>,
    /** The pairs whose history is kept. */
    private readonly pairCodes: () => Iterable<string>,
    private readonly writer: BatchWriter,
    private readonly history: CandleRing,
  ) {}

  /** Retention never deletes ticks at or after the time `floor` returns. Replaces any previous floor. */
  setFloor(floor: RetentionFloor | null): void {
    this.floor = floor;
  }

  async run(nowMs: number = this.deps.now()): Promise<{ ticks: number; candles: number; cutoff: number }> {
    let cutoff = nowMs - this.deps.tickRetentionHours * 3_600_000;
    if (this.floor) {
      // If the floor cannot be known, keeping everything is the safe answer.
      const floor = await this.floor();
      if (floor !== null && Number.isFinite(floor)) cutoff = Math.min(cutoff, floor);
      else if (floor !== null) throw new Error('retention floor is not a finite time');
    }
    let ticks = 0;
    let candles = 0;
    for (const code of this.pairCodes()) {
      // One short transaction per pair so live batches are never held up for long.
      // The counts come out of the transaction: on PostgreSQL it may run more than once.
      const pruned = await this.writer.serial(() =>
        this.deps.tx(async (trx) => ({ ticks: await pruneTicks(trx, code, cutoff), candles: await pruneCandles(trx, code, nowMs) })),
      );
      ticks += pruned.ticks;
      candles += pruned.candles;
    }
    // Pruned candles leave the in-memory history too (it is read again on the next request).
    if (candles > 0) this.history.clear();
    return { ticks, candles, cutoff };
  }

  /** Run every RETENTION_INTERVAL_MS until stop() (failures are logged). */
  start(): void {
    this.timer = setInterval(() => {
      this.run().catch((err) => this.deps.log.error({ err }, 'market retention failed'));
    }, RETENTION_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
