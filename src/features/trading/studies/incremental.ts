/**
 * A calculator (indicators.ts, heikin-ashi.ts) kept in step with a candle series that grows at
 * its tail: `reset` computes every candle once; `tail` handles a live tick or a new candle by
 * committing only the candles finished since the last call and peeking the live one, so a tick
 * costs O(1) calculator work, never a pass over the series. The last candle is always the live
 * one (never committed); the committed state is tracked by timestamp, so a series capped at its
 * head (the oldest candle dropped) keeps working.
 */
import type { Calculator } from './indicators';

export interface Timed {
  timestamp: number;
}

export interface Point<T> {
  time: number;
  value: T | null;
}

export class IncrementalSeries<T, C extends Timed> {
  private calc: Calculator<T, C>;
  private committedTime = -Infinity;

  constructor(private readonly create: () => Calculator<T, C>) {
    this.calc = create();
  }

  /** Every candle's value, from a fresh state. */
  reset(candles: readonly C[]): Point<T>[] {
    this.calc = this.create();
    this.committedTime = -Infinity;
    const points: Point<T>[] = new Array(candles.length);
    for (let i = 0; i < candles.length; i += 1) {
      const candle = candles[i];
      points[i] = { time: candle.timestamp, value: this.calc.peek(candle) };
      if (i < candles.length - 1) {
        this.calc.commit(candle);
        this.committedTime = candle.timestamp;
      }
    }
    return points;
  }

  /**
   * The values of the candles after the last committed one: the newly finished ones (now
   * committed) and the live last one. Call it only when the series changed at its tail.
   */
  tail(candles: readonly C[]): Point<T>[] {
    let first = candles.length - 1;
    while (first > 0 && candles[first - 1].timestamp > this.committedTime) first -= 1;
    const points: Point<T>[] = [];
    for (let i = first; i < candles.length; i += 1) {
      const candle = candles[i];
      points.push({ time: candle.timestamp, value: this.calc.peek(candle) });
      if (i < candles.length - 1) {
        this.calc.commit(candle);
        this.committedTime = candle.timestamp;
      }
    }
    return points;
  }
}

/** A calculator over closes, fed with candles. */
export function onClose<T, C extends { close: number }>(calc: Calculator<T>): Calculator<T, C> {
  return { peek: (candle) => calc.peek(candle.close), commit: (candle) => calc.commit(candle.close) };
}
