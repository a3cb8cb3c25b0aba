/**
 * The market's batched writes: the ticks it numbered, the candles they changed and the pairs'
 * first-tick anchors wait here and are written every FLUSH_INTERVAL_MS in one transaction, the
 * ticks sealed into the hash chain (tick-chain.ts) and, on a cluster leader, the write fenced by
 * its epoch first (fencing.ts). Every write, and every read that needs the database (older ticks,
 * stored candles), runs one after another on `serial`, so a read never misses a batch that is
 * half-way into the database: whatever has not been written yet is still here, where the read
 * looks next. A failed write keeps everything for the next attempt.
 */
import type { Candle } from '../../../contract/market';
import type { MarketDeps } from './deps';
import type { Tick } from './types';
import { copyCandle } from './candles';
import { upsertCandles } from './candle-store';
import { FencedError, type LeaderTerm } from './fencing';
import { insertAnchors } from './repository';
import { sealTicks } from './tick-chain';

export const FLUSH_INTERVAL_MS = 500;

export class BatchWriter {
  /** Numbered ticks not written yet, oldest first. */
  pendingTicks: Tick[] = [];
  /** Changed candles not written yet, by candleKey (series.ts); the newest change of each. */
  dirtyCandles = new Map<string, Candle>();
  /** First ticks of pairs without a stored anchor. */
  pendingAnchors = new Map<string, { time: number; price: number }>();
  private chain: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: Pick<MarketDeps, 'tx' | 'now' | 'log'>,
    /** The leader's current term (its fence guards every write), or null. */
    private readonly term: () => LeaderTerm | null,
  ) {}

  /** Run `fn` after every earlier serial step (writes and the reads that must not race them). */
  serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Write every tick, changed candle and anchor still in memory (also runs on the timer). */
  flush(): Promise<void> {
    return this.serial(() => this.write());
  }

  /** Drop everything not written yet. */
  clear(): void {
    this.pendingTicks = [];
    this.dirtyCandles = new Map();
    this.pendingAnchors = new Map();
  }

  /** Flush every FLUSH_INTERVAL_MS until stop(). */
  start(): void {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One write of whatever is pending (call on `serial`). */
  async write(): Promise<void> {
    if (!this.pendingTicks.length && !this.dirtyCandles.size && !this.pendingAnchors.size) return;
    const ticks = this.pendingTicks;
    const dirty = this.dirtyCandles;
    const anchors = this.pendingAnchors;
    this.clear();
    // Copies: the live candles keep changing while the transaction runs.
    const candles = [...dirty.values()].map(copyCandle);
    const term = this.term();
    try {
      await this.deps.tx(async (trx) => {
        // A deposed leader's write is refused before it writes anything (the fencing token).
        if (term) await term.fence(trx);
        // Hash-chained: one batch row per write (tick-chain.ts, docs/market.md).
        await sealTicks(trx, ticks, this.deps.now());
        await upsertCandles(trx, candles);
        await insertAnchors(trx, anchors);
      });
    } catch (err) {
      if (err instanceof FencedError) {
        // Another node leads: what this node numbered since is not the log's to keep.
        this.deps.log.warn({ epoch: err.epoch, current: err.current, ticks: ticks.length }, 'cluster: tick-log write refused by the fence');
        if (this.term() === term) term?.onFenced();
        return;
      }
      // Keep everything for the next attempt; newer changes of the same candle win.
      this.pendingTicks = ticks.concat(this.pendingTicks);
      for (const [key, candle] of dirty) if (!this.dirtyCandles.has(key)) this.dirtyCandles.set(key, candle);
      for (const [code, a] of anchors) if (!this.pendingAnchors.has(code)) this.pendingAnchors.set(code, a);
      this.deps.log.error({ err }, 'market flush failed');
      throw err;
    }
  }
}
