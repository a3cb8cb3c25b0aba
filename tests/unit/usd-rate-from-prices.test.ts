/**
 * The SPA's rates against USD from the live pair prices (contract/currencies.ts, issue 26): the
 * same rule as the server's rate provider — a pair with USD, inverted when USD is its base, the
 * configured rate only where no pair has a price.
 */
import { describe, expect, it } from 'vitest';
import { findCurrency, usdRateFromPrices } from '../../contract/currencies';

const pairs = [
  { pair_code: 'EURUSD', pair_human_code: 'EUR/USD' },
  { pair_code: 'USDJPY', pair_human_code: 'USD/JPY' },
  { pair_code: 'BTCUSD', pair_human_code: 'BTC/USD' },
  { pair_code: 'GBPUSD', pair_human_code: 'GBP/USD' },
];

describe('usdRateFromPrices', () => {
  const prices = { EURUSD: 1.16, USDJPY: 155, BTCUSD: 94_000 };
  it('reads the pair with USD (inverted when USD is its base)', () => {
    expect(usdRateFromPrices(pairs, prices, 'eur')).toEqual({ per_usd: 1 / 1.16, source: 'pair', pair: 'EUR/USD', at: null });
    expect(usdRateFromPrices(pairs, prices, 'JPY')).toMatchObject({ per_usd: 155, source: 'pair', pair: 'USD/JPY' });
    expect(usdRateFromPrices(pairs, prices, 'BTC')?.per_usd).toBeCloseTo(1 / 94_000, 15);
  });
  it('falls back to the configured rate where no pair has a price, and knows no unknown code', () => {
    expect(usdRateFromPrices(pairs, prices, 'GBP')).toEqual({ per_usd: findCurrency('GBP')!.rate, source: 'configured', pair: null, at: null });
    expect(usdRateFromPrices(pairs, prices, 'USDT')?.source).toBe('configured');
    expect(usdRateFromPrices(pairs, prices, 'USD')).toMatchObject({ per_usd: 1, source: 'base' });
    expect(usdRateFromPrices(pairs, prices, 'XXX')).toBeUndefined();
  });
});
