/** The exit rule at expiry (server/domain/market/exit-rule.ts; docs/trading.md), case by case. */
import { describe, expect, it } from 'vitest';
import { closeReasonOf, exitRule } from '../../server/domain/market/exit-rule';
import type { Tick } from '../../server/domain/market/types';

const T0 = 1_800_000_000_000;
const tick = (seq: number, time: number, price = 1.1): Tick => ({ pair_code: 'BTCUSD', seq, time, price });
const LIMIT = 5000;

describe('exitRule', () => {
  it('settles on the last tick at or before expiry when it is within the limit', () => {
    const d = exitRule([tick(1, T0 - 4000), tick(2, T0 - 200), tick(3, T0 + 100)], T0, LIMIT);
    expect(d).toEqual({ tick: tick(2, T0 - 200), refund: false, rule: 'last_tick_at_or_before_expiry' });
  });

  it('takes a tick exactly at expiry, and one exactly at the limit', () => {
    expect(exitRule([tick(1, T0)], T0, LIMIT).tick).toEqual(tick(1, T0));
    expect(exitRule([tick(1, T0 - LIMIT)], T0, LIMIT).rule).toBe('last_tick_at_or_before_expiry');
  });

  it('refunds when the last tick at or before expiry is older than the limit (stale at expiry)', () => {
    const d = exitRule([tick(1, T0 - LIMIT - 1), tick(2, T0 + 50)], T0, LIMIT);
    expect(d).toEqual({ tick: null, refund: true, rule: 'stale_at_expiry', stale: tick(1, T0 - LIMIT - 1) });
    expect(closeReasonOf(d.rule)).toBe('stale_quotes_at_expiry');
  });

  it('refunds when there is no tick at or before expiry', () => {
    expect(exitRule([], T0, LIMIT)).toEqual({ tick: null, refund: true, rule: 'no_price_at_expiry' });
    expect(exitRule([tick(5, T0 + 1)], T0, LIMIT).rule).toBe('no_price_at_expiry');
    expect(closeReasonOf('no_price_at_expiry')).toBe('no_price_at_expiry');
  });

  it('never settles on a tick older than the entry tick', () => {
    expect(exitRule([tick(3, T0 - 100)], T0, LIMIT, 4).rule).toBe('no_price_at_expiry');
    expect(exitRule([tick(4, T0 - 100)], T0, LIMIT, 4).rule).toBe('last_tick_at_or_before_expiry');
  });

  it('between ticks with the same time, takes the higher seq', () => {
    expect(exitRule([tick(8, T0 - 10, 2), tick(7, T0 - 10, 1)], T0, LIMIT).tick!.seq).toBe(8);
    expect(closeReasonOf('last_tick_at_or_before_expiry')).toBe('expiry');
  });
});
