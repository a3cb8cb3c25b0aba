/**
 * Heikin-Ashi candles from ordinary ones, streaming like the studies (indicators.ts):
 *   close = (open + high + low + close) / 4
 *   open  = (previous HA open + previous HA close) / 2, the first one (open + close) / 2
 *   high  = max(high, HA open, HA close), low = min(low, HA open, HA close).
 * `peek` gives the HA candle of the live candle from the committed state; `commit` adds a
 * finished one. A tick costs O(1).
 */
import type { Calculator } from './indicators';

export interface Ohlc {
  open: number;
  high: number;
  low: number;
  close: number;
}

export class HeikinAshiCalculator implements Calculator<Ohlc, Ohlc> {
  private previous: { open: number; close: number } | null = null;
  peek(candle: Ohlc): Ohlc {
    const close = (candle.open + candle.high + candle.low + candle.close) / 4;
    const open = this.previous ? (this.previous.open + this.previous.close) / 2 : (candle.open + candle.close) / 2;
    return { open, high: Math.max(candle.high, open, close), low: Math.min(candle.low, open, close), close };
  }
  commit(candle: Ohlc): void {
    const ha = this.peek(candle);
    this.previous = { open: ha.open, close: ha.close };
  }
}

export function heikinAshi(candles: readonly Ohlc[]): Ohlc[] {
  const calc = new HeikinAshiCalculator();
  return candles.map((c) => {
    const ha = calc.peek(c);
    calc.commit(c);
    return ha;
  });
}
