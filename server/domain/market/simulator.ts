/**
 * The embedded price feed: a seeded simulator that ticks every active pair `ticksPerSecond`
 * times a second (model.ts). Tick n of pair p uses the normal draw normal(seed, hash(p), n), so
 * the same seed and the same tick times give the same prices, and a restarted simulator that
 * resumes from the last persisted tick (its price and seq) continues the very same stream.
 *
 * Scheduling: tick slots lie on a fixed grid from the start time (start + k / rate), so timer
 * lateness never accumulates. When the event loop was blocked past several slots, the simulator
 * emits one tick for "now" and skips the missed slots: no bursts of backdated ticks. A tick's
 * time is the clock when it was emitted, never earlier, so once the clock has passed t no new
 * tick with time <= t can appear (settlement can rely on that).
 */
import type { PriceFeed, Tick } from './types';
import type { PairSpec } from './catalogue';
import { roundPrice } from './catalogue';
import { hashKey, normal } from './rng';
import { stepLogPrice } from './model';

/** Where a pair's stream continues from: its last tick (absent for a pair that never ticked). */
export interface ResumePoint {
  seq: number;
  time: number;
  price: number;
}

export interface SimulatorOptions {
  seed: number;
  ticksPerSecond: number;
  /** The pairs to tick (the active ones). */
  pairs: readonly PairSpec[];
  resume?: ReadonlyMap<string, ResumePoint>;
  /** Milliseconds since the epoch. */
  clock?: () => number;
  /** Told about a tick consumer that threw; the clock keeps running either way. */
  onError?: (err: unknown) => void;
}

/** Stream of live ticks is stream 0 of the draws; backfill.ts uses stream 1. */
export const LIVE_STREAM = 0;

interface PairState {
  spec: PairSpec;
  key: number;
  xRef: number;
  /** Unrounded log price of the last tick: rounding is for quotes, not for the model's state. */
  x: number;
  seq: number;
  /** Time of the last tick, or null before the first one. */
  time: number | null;
}

export class Simulator implements PriceFeed {
  private readonly states: PairState[];
  private readonly intervalMs: number;
  private readonly clock: () => number;
  private timer: NodeJS.Timeout | null = null;
  private startedAt = 0;
  private lastSlot = -1;
  private onTick: ((tick: Tick) => void) | null = null;

  constructor(private readonly options: SimulatorOptions) {
    if (!(options.ticksPerSecond > 0)) throw new RangeError('ticksPerSecond must be positive');
    this.intervalMs = 1000 / options.ticksPerSecond;
    this.clock = options.clock ?? Date.now;
    this.states = options.pairs.map((spec) => {
      const resume = options.resume?.get(spec.pair_code);
      const xRef = Math.log(spec.start_price);
      return {
        spec,
        key: hashKey(spec.pair_code),
        xRef,
        x: resume ? Math.log(resume.price) : xRef,
        seq: resume ? resume.seq : 0,
        time: resume ? resume.time : null,
      };
    });
  }

  get ticksPerSecond(): number {
    return this.options.ticksPerSecond;
  }

  /** Every price of the simulator is made up by the model (shown as "Simulated"). */
  isSimulated(): boolean {
    return true;
  }

  start(onTick: (tick: Tick) => void): void {
    if (this.timer) return;
    this.onTick = onTick;
    this.startedAt = this.clock();
    this.lastSlot = -1;
    this.run();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.onTick = null;
  }

  /** The next tick of every pair at `timeMs` (the scheduler's step; tests call it directly). */
  tickAll(timeMs: number): Tick[] {
    return this.states.map((s) => this.advance(s, timeMs));
  }

  private advance(s: PairState, timeMs: number): Tick {
    const time = s.time === null ? timeMs : Math.max(timeMs, s.time);
    // A pair's very first tick moves as if one tick interval had passed since the reference price.
    const dtSeconds = s.time === null ? this.intervalMs / 1000 : (time - s.time) / 1000;
    const seq = s.seq + 1;
    s.x = stepLogPrice(s.x, s.xRef, s.spec.sigma, dtSeconds, normal(this.options.seed, s.key, seq, LIVE_STREAM));
    s.seq = seq;
    s.time = time;
    return { pair_code: s.spec.pair_code, seq, time, price: roundPrice(Math.exp(s.x), s.spec.precision) };
  }

  private run = (): void => {
    const now = this.clock();
    const due = Math.floor((now - this.startedAt) / this.intervalMs);
    if (due > this.lastSlot) {
      this.lastSlot = due;
      const emit = this.onTick;
      if (emit) {
        for (const tick of this.tickAll(now)) {
          try {
            emit(tick);
          } catch (err) {
            this.options.onError?.(err);
          }
        }
      }
    }
    if (!this.onTick) return; // stopped from inside a listener
    const nextAt = this.startedAt + (this.lastSlot + 1) * this.intervalMs;
    this.timer = setTimeout(this.run, Math.max(1, nextAt - this.clock()));
    this.timer.unref();
  };
}
