/**
 * Early-close pricing (server/domain/orders/pricing.ts): erf/N against tabled values, the quote's
 * shape (half the win at the money near expiry, monotonic in the price, capped by the win) and
 * the worked example of docs/orders.md to the minor unit.
 */
import { describe, expect, it } from 'vitest';
import { earlyCloseValue, erf, erfc, inTheMoneyProbability, normCdf, toBasisPoints, winPayout } from '../../server/domain/orders/pricing';

describe('erf, erfc and N()', () => {
  it('match tabled values', () => {
    const erfTable: [number, number][] = [
      [0, 0],
      [0.1, 0.1124629160182849],
      [0.5, 0.5204998778130465],
      [1, 0.8427007929497149],
      [2, 0.9953222650189527],
      [3, 0.9999779095030014],
      [-0.3, -0.3286267594591274],
    ];
    for (const [x, want] of erfTable) expect(erf(x)).toBeCloseTo(want, 14);

    const normTable: [number, number][] = [
      [0, 0.5],
      [0.5, 0.6914624612740131],
      [1, 0.8413447460685429],
      [-1, 0.15865525393145707],
      [1.96, 0.9750021048517795],
      [-1.96, 0.024997895148220435],
      [2.5, 0.9937903346742238],
      [-3, 0.0013498980316300957],
      [3.5, 0.9997673709209645],
      [5, 0.9999997133484281],
    ];
    for (const [x, want] of normTable) expect(normCdf(x)).toBeCloseTo(want, 13);
  });

  it('keeps relative precision in the tails', () => {
    const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);
    expect(rel(erfc(3), 2.2090496998585438e-5)).toBeLessThan(1e-12);
    expect(rel(erfc(5), 1.5374597944280351e-12)).toBeLessThan(1e-12);
    expect(rel(erfc(10), 2.088487583762545e-45)).toBeLessThan(1e-12);
    expect(rel(normCdf(-6), 9.865876450377012e-10)).toBeLessThan(1e-10);
    expect(normCdf(Infinity)).toBe(1);
    expect(normCdf(-Infinity)).toBe(0);
    expect(normCdf(40)).toBe(1);
  });

  it('is symmetric: N(x) + N(-x) = 1', () => {
    for (const x of [0.01, 0.3, 1.1, 2.7, 4.2]) expect(normCdf(x) + normCdf(-x)).toBeCloseTo(1, 15);
  });
});

describe('early-close value', () => {
  const stake = 10_000; // 100.00 USD
  const bp = 8200; // 82 %
  const base = { spot: 1.16, strike: 1.16, sigma: 0.07, secondsLeft: 1 } as const;

  it('at S = K near expiry is about stake x (1 + payout) x 0.5 x 0.95', () => {
    const expected = stake * 1.82 * 0.5 * 0.95; // 8645
    for (const direction of ['up', 'down'] as const) {
      const value = earlyCloseValue(stake, bp, { ...base, direction });
      expect(Number.isInteger(value)).toBe(true);
      expect(Math.abs(value - expected)).toBeLessThanOrEqual(1);
      expect(inTheMoneyProbability({ ...base, direction })).toBeCloseTo(0.5, 4);
    }
  });

  it('is monotonic in the current price (up rises, down falls)', () => {
    let lastUp = -1;
    let lastDown = Infinity;
    for (let i = -40; i <= 40; i++) {
      const spot = 1.16 + i * 0.00002;
      const q = { ...base, spot, secondsLeft: 30 };
      const up = earlyCloseValue(stake, bp, { ...q, direction: 'up' });
      const down = earlyCloseValue(stake, bp, { ...q, direction: 'down' });
      expect(up).toBeGreaterThanOrEqual(lastUp);
      expect(down).toBeLessThanOrEqual(lastDown);
      lastUp = up;
      lastDown = down;
    }
    expect(lastUp).toBeGreaterThan(earlyCloseValue(stake, bp, { ...base, spot: 1.1592, secondsLeft: 30, direction: 'up' }));
  });

  it('never pays more than the win, and keeps the 5 % margin even when the outcome is certain', () => {
    const win = winPayout(stake, bp);
    expect(win).toBe(18_200);
    for (const spot of [0.5, 1.15, 1.16, 1.17, 5]) {
      for (const secondsLeft of [0, 1, 60, 3600, 14_400]) {
        for (const direction of ['up', 'down'] as const) {
          const value = earlyCloseValue(stake, bp, { ...base, spot, secondsLeft, direction });
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(Math.floor(win * 0.95));
        }
      }
    }
    // Deep in the money with no time left: P = 1, so exactly 95 % of the win.
    expect(earlyCloseValue(stake, bp, { ...base, spot: 1.2, secondsLeft: 0, direction: 'up' })).toBe(17_290);
    expect(earlyCloseValue(stake, bp, { ...base, spot: 1.2, secondsLeft: 0, direction: 'down' })).toBe(0);
  });

  it('reproduces the worked example of docs/orders.md to the minor unit', () => {
    const example = { spot: 1.1602, strike: 1.16, sigma: 0.07, secondsLeft: 30 };
    expect(inTheMoneyProbability({ ...example, direction: 'up' })).toBeCloseTo(0.99421623, 7);
    expect(earlyCloseValue(10_000, 9200, { ...example, direction: 'up' })).toBe(18_134);
    expect(earlyCloseValue(10_000, 9200, { ...example, direction: 'down' })).toBe(105);
  });

  it('rounds toward zero and works in crypto minor units', () => {
    // 0.001 BTC = 100000 sat; the exact value is never exceeded.
    const q = { spot: 95_010, strike: 95_000, sigma: 0.6, secondsLeft: 120, direction: 'up' as const };
    const p = inTheMoneyProbability(q);
    const value = earlyCloseValue(100_000, 8500, q);
    expect(value).toBeLessThanOrEqual(100_000 * 1.85 * p * 0.95);
    expect(value).toBeGreaterThan(100_000 * 1.85 * p * 0.95 - 2);
  });

  it('refuses nonsense inputs', () => {
    expect(() => earlyCloseValue(-1, bp, { ...base, direction: 'up' })).toThrow(RangeError);
    expect(() => earlyCloseValue(1.5, bp, { ...base, direction: 'up' })).toThrow(RangeError);
    expect(() => earlyCloseValue(stake, bp, { ...base, spot: 0, direction: 'up' })).toThrow(RangeError);
    expect(toBasisPoints(0.82)).toBe(8200);
    expect(toBasisPoints(0.92)).toBe(9200);
  });
});
