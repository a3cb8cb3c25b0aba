/**
 * Chart studies (issue 16) against known values:
 * - RSI(14): the classic Wilder example series as published in StockCharts' RSI spreadsheet
 *   (closes with four decimals; RSI 70.53 ... 37.77).
 * - EMA(10) and SMA(10): StockCharts' 10-day EMA spreadsheet (EMA seeded with the SMA of the
 *   first 10 closes).
 * - Bollinger Bands: hand-computed with the POPULATION standard deviation (divide by n).
 * - MACD(2, 3, 2): hand-computed in fractions on a short series.
 * - Heikin-Ashi: hand-computed.
 * And the incremental path the chart uses per tick (peek the live candle, commit finished ones)
 * gives exactly what a full recomputation gives.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHART_SETUP, mergeChartSetups, mergeChartSetupsUpdates, MAX_CHART_SETUPS, type Study } from '../../contract/chart';
import { bollinger, ema, macd, rsi, sma, studyCalculator } from '../../src/features/trading/studies/indicators';
import { heikinAshi, HeikinAshiCalculator } from '../../src/features/trading/studies/heikin-ashi';
import { IncrementalSeries, onClose } from '../../src/features/trading/studies/incremental';

function rounded(values: readonly (number | null)[], digits = 2): (string | null)[] {
  return values.map((v) => (v === null ? null : v.toFixed(digits)));
}

const WILDER = [
  44.3389, 44.0902, 44.1497, 43.6124, 44.3278, 44.8264, 45.0955, 45.4245, 45.8433, 46.0826, 45.8931, 46.0328, 45.614, 46.282, 46.282, 46.0028, 46.0328, 46.4116, 46.2222,
  45.6439, 46.2122, 46.2521, 45.7137, 46.4515, 45.7835, 45.3548, 44.0288, 44.1783, 44.2181, 44.5672, 43.4205, 42.6628, 43.1314,
];
const WILDER_RSI = ['70.53', '66.32', '66.55', '69.41', '66.36', '57.97', '62.93', '63.26', '56.06', '62.38', '54.71', '50.42', '39.99', '41.46', '41.87', '45.46', '37.30', '33.08', '37.77'];

const EMA_CLOSES = [
  22.27, 22.19, 22.08, 22.17, 22.18, 22.13, 22.23, 22.43, 22.24, 22.29, 22.15, 22.39, 22.38, 22.61, 23.36, 24.05, 23.75, 23.83, 23.95, 23.63, 23.82, 23.87, 23.65, 23.19, 23.1,
  23.33, 22.68, 23.1, 22.4, 22.17,
];
const EMA_10 = ['22.22', '22.21', '22.24', '22.27', '22.33', '22.52', '22.80', '22.97', '23.13', '23.28', '23.34', '23.43', '23.51', '23.53', '23.47', '23.40', '23.39', '23.26', '23.23', '23.08', '22.92'];
const SMA_10 = ['22.22', '22.21', '22.23', '22.26', '22.30', '22.42', '22.61', '22.77', '22.91', '23.08', '23.21', '23.38', '23.52', '23.65', '23.71', '23.68', '23.61', '23.51', '23.43', '23.28', '23.13'];

describe('studies against known values', () => {
  it("RSI(14) is Wilder's: the StockCharts example, value by value", () => {
    const values = rsi(WILDER, 14);
    expect(values.slice(0, 14)).toEqual(Array(14).fill(null));
    expect(rounded(values.slice(14))).toEqual(WILDER_RSI);
  });

  it('EMA(10) is seeded with the SMA of the first 10 closes (StockCharts example)', () => {
    const values = ema(EMA_CLOSES, 10);
    expect(values.slice(0, 9)).toEqual(Array(9).fill(null));
    expect(rounded(values.slice(9))).toEqual(EMA_10);
  });

  it('SMA(10) is the mean of the last 10 closes', () => {
    expect(rounded(sma(EMA_CLOSES, 10).slice(9))).toEqual(SMA_10);
    expect(sma([1, 2, 3, 4], 2)).toEqual([null, 1.5, 2.5, 3.5]);
  });

  it('Bollinger(5, 2) uses the population standard deviation', () => {
    const [a, b, c, d, first, second] = bollinger([1, 2, 3, 4, 5, 9], 5, 2);
    expect([a, b, c, d]).toEqual([null, null, null, null]);
    // 1..5: mean 3, variance (4 + 1 + 0 + 1 + 4) / 5 = 2.
    expect(first!.middle).toBe(3);
    expect(first!.upper).toBeCloseTo(3 + 2 * Math.SQRT2, 12);
    expect(first!.lower).toBeCloseTo(3 - 2 * Math.SQRT2, 12);
    // 2,3,4,5,9: mean 4.6, squares 6.76 + 2.56 + 0.36 + 0.16 + 19.36 = 29.2, variance 5.84.
    expect(second!.middle).toBeCloseTo(4.6, 12);
    expect(second!.upper).toBeCloseTo(4.6 + 2 * Math.sqrt(5.84), 12);
    expect(second!.lower).toBeCloseTo(4.6 - 2 * Math.sqrt(5.84), 12);
  });

  it('MACD(2, 3, 2): EMA(2) - EMA(3), signal EMA(2) of it, histogram the difference', () => {
    // EMA2 (alpha 2/3): 3, 3, 13/3, 61/9, 169/27, 547/81 from the 2nd close; EMA3 (alpha 1/2): 3, 4, 6, 6, 6.5 from the 3rd.
    // MACD: 0, 1/3, 7/9, 7/27, 41/162; signal: 1/6, 31/54, 59/162, 141/486.
    const values = macd([2, 4, 3, 5, 8, 6, 7], 2, 3, 2);
    expect(values[0]).toBeNull();
    expect(values[1]).toBeNull();
    expect(values[2]).toEqual({ macd: 0, signal: null, histogram: null });
    const expected = [
      [1 / 3, 1 / 6],
      [7 / 9, 31 / 54],
      [7 / 27, 59 / 162],
      [41 / 162, 141 / 486],
    ];
    expected.forEach(([m, s], i) => {
      const v = values[i + 3]!;
      expect(v.macd).toBeCloseTo(m, 12);
      expect(v.signal).toBeCloseTo(s, 12);
      expect(v.histogram).toBeCloseTo(m - s, 12);
    });
  });

  it('RSI is 100 without losses and 50 on a flat series', () => {
    expect(rsi([1, 2, 3, 4], 3).at(-1)).toBe(100);
    expect(rsi([5, 5, 5, 5], 3).at(-1)).toBe(50);
  });

  it('Heikin-Ashi: close the OHLC mean, open the mean of the previous HA open and close', () => {
    const [first, second] = heikinAshi([
      { open: 10, high: 14, low: 8, close: 12 },
      { open: 12, high: 13, low: 9, close: 10 },
    ]);
    expect(first).toEqual({ open: 11, high: 14, low: 8, close: 11 });
    // open (11 + 11) / 2 = 11, close (12 + 13 + 9 + 10) / 4 = 11.
    expect(second).toEqual({ open: 11, high: 13, low: 9, close: 11 });
    const third = new HeikinAshiCalculator();
    expect(third.peek({ open: 1, high: 5, low: 0.5, close: 4 })).toEqual({ open: 2.5, high: 5, low: 0.5, close: 2.625 });
  });
});

describe('incremental updates (one tick = one peek, a new candle = one commit)', () => {
  const studies: Study[] = [
    { id: 'a', kind: 'sma', period: 5, color: '#112233' },
    { id: 'b', kind: 'ema', period: 4, color: '#112233' },
    { id: 'c', kind: 'bollinger', period: 6, deviations: 2, color: '#112233' },
    { id: 'd', kind: 'rsi', period: 5, color: '#112233' },
    { id: 'e', kind: 'macd', fast: 3, slow: 6, signal: 3, color: '#112233', signalColor: '#445566' },
  ];

  it.each(studies.map((s) => [s.kind, s] as const))('%s: ticks on the live candle and new candles match a full recomputation', (_, study) => {
    type C = { timestamp: number; close: number };
    let candles: C[] = WILDER.slice(0, 10).map((close, i) => ({ timestamp: i * 60, close }));
    const live = new IncrementalSeries(() => onClose<(number | null)[], C>(studyCalculator(study)));
    const shown = new Map<number, (number | null)[] | null>();
    for (const p of live.reset(candles)) shown.set(p.time, p.value);
    for (let i = 10; i < WILDER.length; i += 1) {
      // Three ticks move the live candle, the third one at its final close.
      for (const close of [WILDER[i] + 0.3, WILDER[i] - 0.2, WILDER[i]]) {
        const last = candles.length - 1;
        candles = candles[last].timestamp === i * 60 ? [...candles.slice(0, last), { timestamp: i * 60, close }] : [...candles, { timestamp: i * 60, close }];
        const points = live.tail(candles);
        // A tick: the live candle only; a new candle: the one just finished (committed) and the live one.
        expect(points.map((p) => p.time)).toEqual(candles.length > 1 && close === WILDER[i] + 0.3 ? [(i - 1) * 60, i * 60] : [i * 60]);
        for (const p of points) shown.set(p.time, p.value);
      }
      // The head is capped like the chart's 1000 candles: the incremental state does not care.
      if (candles.length > 15) candles = candles.slice(1);
    }
    const full = new IncrementalSeries(() => onClose<(number | null)[], C>(studyCalculator(study)));
    const allCandles = WILDER.map((close, i) => ({ timestamp: i * 60, close }));
    for (const p of full.reset(allCandles)) {
      const got = shown.get(p.time);
      if (p.value === null) expect(got).toBeNull();
      else got!.forEach((v, k) => (p.value![k] === null ? expect(v).toBeNull() : expect(v).toBeCloseTo(p.value![k]!, 9)));
    }
  });
});

describe('saved chart setups (contract/chart.ts)', () => {
  const setup = (type: 'bars' | 'line') => ({ ...DEFAULT_CHART_SETUP, type });

  it('an update replaces only the pairs it names; null removes one', () => {
    const merged = mergeChartSetups({ EURUSD: setup('bars'), BTCUSD: setup('line') }, { EURUSD: null, AAPL: setup('line') });
    expect(merged).toEqual({ BTCUSD: setup('line'), AAPL: setup('line') });
  });

  it(`keeps at most ${MAX_CHART_SETUPS} pairs, dropping the least recently changed`, () => {
    let stored = {};
    for (let i = 0; i < MAX_CHART_SETUPS + 3; i += 1) stored = mergeChartSetups(stored, { [`P${i}`]: setup('bars') });
    stored = mergeChartSetups(stored, { P3: setup('line') });
    const keys = Object.keys(stored);
    expect(keys).toHaveLength(MAX_CHART_SETUPS);
    expect(keys[0]).toBe('P4');
    expect(keys.at(-1)).toBe('P3');
  });

  it('two pending updates merge pair by pair', () => {
    expect(mergeChartSetupsUpdates({ EURUSD: setup('bars') }, { BTCUSD: null, EURUSD: setup('line') })).toEqual({ EURUSD: setup('line'), BTCUSD: null });
  });
});
