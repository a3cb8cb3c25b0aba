/**
 * The chart studies as pure, streaming calculators (issue 16): SMA, EMA, Bollinger Bands, RSI
 * and MACD over closing prices.
 *
 * Each calculator has two operations: `peek(close)` gives the study's value for a candle that
 * follows the committed ones without changing anything (the live candle, which moves with every
 * tick), and `commit(close)` adds a finished candle to the state. So a live tick costs one
 * `peek` (O(1), or O(period) for Bollinger's deviation) instead of a pass over the series, and a
 * new candle costs one `commit` of the one before it. The batch functions (`sma`, `ema`, ...)
 * run the same calculators over a whole series; values before the study has enough candles are
 * null.
 *
 * Definitions (the textbook ones):
 * - SMA(n): mean of the last n closes.
 * - EMA(n): alpha = 2 / (n + 1), seeded with the SMA of the first n closes, then
 *   ema = alpha * close + (1 - alpha) * previous ema.
 * - Bollinger(n, k): middle = SMA(n); upper/lower = middle +/- k * the POPULATION standard
 *   deviation of the same n closes (divide by n, as John Bollinger defines the bands).
 * - RSI(n), Wilder's: the first average gain/loss is the simple mean of the first n changes,
 *   then avg = (previous avg * (n - 1) + current) / n; RSI = 100 - 100 / (1 + avgGain / avgLoss)
 *   (100 when there is no loss, 50 when there is neither gain nor loss).
 * - MACD(fast, slow, signal): macd = EMA(fast) - EMA(slow) (from the candle where EMA(slow) has
 *   a value), signal = EMA(signal) of the macd values, histogram = macd - signal.
 */
import type { Study, StudyKind } from '../../../../contract/chart';

export interface Calculator<T, I = number> {
  /** The value for one more candle with this close, the state unchanged. */
  peek(input: I): T | null;
  /** Adds a finished candle. */
  commit(input: I): void;
}

export class SmaCalculator implements Calculator<number> {
  private readonly window: number[] = [];
  /** Sum of `window`, which holds at most period - 1 committed closes. */
  private sum = 0;
  constructor(readonly period: number) {}
  peek(close: number): number | null {
    return this.window.length < this.period - 1 ? null : (this.sum + close) / this.period;
  }
  commit(close: number): void {
    this.window.push(close);
    this.sum += close;
    if (this.window.length > this.period - 1) this.sum -= this.window.shift()!;
  }
  /** The committed closes that, with one more, make the window (oldest first). */
  get closes(): readonly number[] {
    return this.window;
  }
}

export class EmaCalculator implements Calculator<number> {
  private count = 0;
  private seedSum = 0;
  private ema = 0;
  private readonly alpha: number;
  constructor(readonly period: number) {
    this.alpha = 2 / (period + 1);
  }
  peek(close: number): number | null {
    const n = this.count + 1;
    if (n < this.period) return null;
    if (n === this.period) return (this.seedSum + close) / this.period;
    return this.alpha * close + (1 - this.alpha) * this.ema;
  }
  commit(close: number): void {
    const value = this.peek(close);
    this.count += 1;
    if (this.count <= this.period) this.seedSum += close;
    if (value !== null) this.ema = value;
  }
}

export interface BollingerValue {
  upper: number;
  middle: number;
  lower: number;
}

export class BollingerCalculator implements Calculator<BollingerValue> {
  private readonly sma: SmaCalculator;
  constructor(
    readonly period: number,
    readonly deviations: number,
  ) {
    this.sma = new SmaCalculator(period);
  }
  peek(close: number): BollingerValue | null {
    const middle = this.sma.peek(close);
    if (middle === null) return null;
    let squares = (close - middle) ** 2;
    for (const c of this.sma.closes) squares += (c - middle) ** 2;
    const sd = Math.sqrt(squares / this.period);
    return { upper: middle + this.deviations * sd, middle, lower: middle - this.deviations * sd };
  }
  commit(close: number): void {
    this.sma.commit(close);
  }
}

export class RsiCalculator implements Calculator<number> {
  private previous: number | null = null;
  private changes = 0;
  private gainSum = 0;
  private lossSum = 0;
  private avgGain = 0;
  private avgLoss = 0;
  constructor(readonly period: number) {}
  private averages(close: number): { gain: number; loss: number } | null {
    if (this.previous === null) return null;
    const change = close - this.previous;
    const gain = Math.max(change, 0);
    const loss = Math.max(-change, 0);
    const n = this.changes + 1;
    if (n < this.period) return null;
    if (n === this.period) return { gain: (this.gainSum + gain) / this.period, loss: (this.lossSum + loss) / this.period };
    return { gain: (this.avgGain * (this.period - 1) + gain) / this.period, loss: (this.avgLoss * (this.period - 1) + loss) / this.period };
  }
  peek(close: number): number | null {
    const avg = this.averages(close);
    if (!avg) return null;
    if (avg.loss === 0) return avg.gain === 0 ? 50 : 100;
    return 100 - 100 / (1 + avg.gain / avg.loss);
  }
  commit(close: number): void {
    const avg = this.averages(close);
    if (this.previous !== null) {
      const change = close - this.previous;
      this.changes += 1;
      if (this.changes <= this.period) {
        this.gainSum += Math.max(change, 0);
        this.lossSum += Math.max(-change, 0);
      }
    }
    if (avg) {
      this.avgGain = avg.gain;
      this.avgLoss = avg.loss;
    }
    this.previous = close;
  }
}

export interface MacdValue {
  macd: number;
  signal: number | null;
  histogram: number | null;
}

export class MacdCalculator implements Calculator<MacdValue> {
  private readonly fast: EmaCalculator;
  private readonly slow: EmaCalculator;
  private readonly signal: EmaCalculator;
  constructor(fast: number, slow: number, signal: number) {
    this.fast = new EmaCalculator(fast);
    this.slow = new EmaCalculator(slow);
    this.signal = new EmaCalculator(signal);
  }
  peek(close: number): MacdValue | null {
    const fast = this.fast.peek(close);
    const slow = this.slow.peek(close);
    if (fast === null || slow === null) return null;
    const macd = fast - slow;
    const signal = this.signal.peek(macd);
    return { macd, signal, histogram: signal === null ? null : macd - signal };
  }
  commit(close: number): void {
    const value = this.peek(close);
    this.fast.commit(close);
    this.slow.commit(close);
    if (value) this.signal.commit(value.macd);
  }
}

function run<T>(calculator: Calculator<T>, closes: readonly number[]): (T | null)[] {
  return closes.map((close) => {
    const value = calculator.peek(close);
    calculator.commit(close);
    return value;
  });
}

export const sma = (closes: readonly number[], period: number) => run(new SmaCalculator(period), closes);
export const ema = (closes: readonly number[], period: number) => run(new EmaCalculator(period), closes);
export const bollinger = (closes: readonly number[], period: number, deviations: number) => run(new BollingerCalculator(period, deviations), closes);
export const rsi = (closes: readonly number[], period: number) => run(new RsiCalculator(period), closes);
export const macd = (closes: readonly number[], fast: number, slow: number, signal: number) => run(new MacdCalculator(fast, slow, signal), closes);

/** The lines a study draws, in a fixed order; every calculator value maps to one number (or null) per line. */
export const STUDY_LINES: Record<StudyKind, readonly string[]> = {
  sma: ['value'],
  ema: ['value'],
  bollinger: ['upper', 'middle', 'lower'],
  rsi: ['value'],
  macd: ['histogram', 'macd', 'signal'],
};

/** Whether the study lives in its own pane under the price (an oscillator) or on the price. */
export function hasOwnPane(kind: StudyKind): boolean {
  return kind === 'rsi' || kind === 'macd';
}

export type LineValues = (number | null)[];

/** A calculator for a study, its values flattened to STUDY_LINES order. */
export function studyCalculator(study: Study): Calculator<LineValues> {
  const wrap = <T>(calc: Calculator<T>, lines: (value: T) => LineValues): Calculator<LineValues> => ({
    peek: (close) => {
      const value = calc.peek(close);
      return value === null ? null : lines(value);
    },
    commit: (close) => calc.commit(close),
  });
  switch (study.kind) {
    case 'sma':
      return wrap(new SmaCalculator(study.period), (v) => [v]);
    case 'ema':
      return wrap(new EmaCalculator(study.period), (v) => [v]);
    case 'bollinger':
      return wrap(new BollingerCalculator(study.period, study.deviations), (v) => [v.upper, v.middle, v.lower]);
    case 'rsi':
      return wrap(new RsiCalculator(study.period), (v) => [v]);
    case 'macd':
      return wrap(new MacdCalculator(study.fast, study.slow, study.signal), (v) => [v.histogram, v.macd, v.signal]);
  }
}
