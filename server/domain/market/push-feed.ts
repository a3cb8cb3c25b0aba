/**
 * A price feed driven by calls: the adapter for a source that pushes prices to us (a vendor's
 * websocket, a replay of recorded quotes) and the way tests drive exact prices. Prices pushed
 * before start() or after stop() go nowhere. The market service assigns seq numbers, rounds to
 * the pair's precision and refuses ticks whose time goes backwards, so a push needs only the
 * pair, the price and (optionally) the time.
 */
import type { PriceFeed, Tick } from './types';

export class PushFeed implements PriceFeed {
  private onTick: ((tick: Tick) => void) | null = null;

  constructor(private readonly clock: () => number = Date.now) {}

  start(onTick: (tick: Tick) => void): void {
    this.onTick = onTick;
  }

  stop(): void {
    this.onTick = null;
  }

  get running(): boolean {
    return this.onTick !== null;
  }

  /** Deliver one price now (or at `timeMs`); returns false when the feed is not running. */
  push(pairCode: string, price: number, timeMs: number = this.clock()): boolean {
    if (!this.onTick) return false;
    // seq 0: the service numbers ticks itself.
    this.onTick({ pair_code: pairCode, seq: 0, time: timeMs, price });
    return true;
  }
}
