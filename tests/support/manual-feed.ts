/**
 * A PriceFeed the test drives: `push(pair_code, price[, time])` emits one tick right away, so a
 * test sets exact entry and exit prices. Pass it as `buildApp(config, { marketFeed })` (or the
 * second argument of startTestServer).
 *
 * The market service numbers ticks itself (seq = last + 1 per pair, continuing the stored log
 * after a restart), rounds prices to the pair's precision and refuses ticks older than the last
 * one. Its tick consumer returns the tick as logged (or null when refused), so `push` returns
 * exactly what orders will record as their entry/exit tick, and throws on a refused tick so a
 * test never silently runs on a price that was not taken.
 */
import type { PriceFeed, Tick } from '../../server/domain/market/types';

export class ManualFeed implements PriceFeed {
  private listener: ((tick: Tick) => unknown) | null = null;
  private readonly clock: () => number;
  /** Every tick as the market logged it, oldest first. */
  readonly logged: Tick[] = [];

  constructor(clock: () => number = () => Date.now()) {
    this.clock = clock;
  }

  start(onTick: (tick: Tick) => void): void {
    this.listener = onTick;
  }

  stop(): void {
    this.listener = null;
  }

  get started(): boolean {
    return this.listener !== null;
  }

  /** Emit one tick of `pair_code` at `price` (time defaults to the clock); returns the logged tick. */
  push(pair_code: string, price: number, time: number = this.clock()): Tick {
    if (!this.listener) throw new Error('ManualFeed.push before the market started the feed');
    const logged = this.listener({ pair_code, seq: 0, time, price });
    if (!isTick(logged)) throw new Error(`the market refused the tick ${pair_code} ${price} @ ${time}`);
    this.logged.push(logged);
    return logged;
  }
}

function isTick(value: unknown): value is Tick {
  const t = value as Tick | null;
  return typeof t === 'object' && t !== null && typeof t.seq === 'number' && typeof t.time === 'number' && typeof t.price === 'number';
}
