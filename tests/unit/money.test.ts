import { describe, expect, it } from 'vitest';
import { toMinor, formatMinor, fromMinor, mulDivFloor } from '../../contract/money';

describe('money at the edges', () => {
  it('parses decimals exactly into minor units', () => {
    expect(toMinor(100, 2)).toBe(10000);
    expect(toMinor(0.1 + 0.2, 2)).toBe(30);
    expect(toMinor('12.34', 2)).toBe(1234);
    expect(toMinor('0.00000001', 8)).toBe(1);
    expect(toMinor(-5.5, 2)).toBe(-550);
  });
  it('rejects more decimals than the currency has, and non-numbers', () => {
    expect(toMinor(1.005, 2)).toBeNull();
    expect(toMinor('1.001', 2)).toBeNull();
    expect(toMinor(Number.NaN, 2)).toBeNull();
    expect(toMinor(Infinity, 2)).toBeNull();
    expect(toMinor('1e5', 2)).toBeNull();
    expect(toMinor('abc', 2)).toBeNull();
  });
  it('formats minor units without float arithmetic', () => {
    expect(formatMinor(1, 2)).toBe('0.01');
    expect(formatMinor(-1234, 2)).toBe('-12.34');
    expect(formatMinor(123456789, 8)).toBe('1.23456789');
    expect(fromMinor(1999, 2)).toBe(19.99);
  });
  it('rounds computed amounts toward zero', () => {
    expect(mulDivFloor(1000, 18200, 10000)).toBe(1820);
    expect(mulDivFloor(333, 1, 2)).toBe(166);
  });
});
