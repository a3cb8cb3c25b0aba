/**
 * The 24-hour change (issue 26 item 4; server/domain/market/day-change.ts): every rate carries
 * the price 24 hours ago, read from the stored 5-minute candles, from a feed whose prices and
 * times the test sets. With less than 24 hours of history the base is the earliest price and the
 * rate says since when (`price_24h_time`). The rates on the socket carry the same.
 */
import { describe, expect, it } from 'vitest';
import type { Rate } from '../../contract/market';
import { dayChangeRatio } from '../../contract/market';
import { useOrdersServer } from '../support/orders-harness';

const s = useOrdersServer();
const HOUR = 3_600_000;
const FIVE_MIN = 300_000;

const market = () => s.server.ctx.services.market;

function rateOf(code: string): Rate {
  const rate = market().rates().find((r) => r.pair_code === code);
  if (!rate) throw new Error(`no rate for ${code}`);
  return rate;
}

describe('24-hour change', () => {
  it('takes the close of the 5-minute candle at or before 24 h ago as the base', async () => {
    const now = s.clock!.t;
    s.feed.push('GBPUSD', 1.5, now - 30 * HOUR);
    s.feed.push('GBPUSD', 1.55, now - 24 * HOUR - 20 * 60_000);
    s.feed.push('GBPUSD', 1.6, now - 24 * HOUR - 1000); // the last price before "24 h ago"
    s.feed.push('GBPUSD', 1.7, now - 23 * HOUR);
    s.feed.push('GBPUSD', 1.8, now);
    await market().flush();
    await market().refreshDayChange();
    const rate = rateOf('GBPUSD');
    expect(rate.current_price).toBe(1.8);
    expect(rate.price_24h).toBe(1.6);
    expect(rate.price_24h_time).toBeUndefined();
    expect(dayChangeRatio(rate.current_price, rate.price_24h)).toBeCloseTo(0.125, 10);
  });

  it('with less than 24 hours of history uses the earliest price and says since when', async () => {
    const now = s.clock!.t;
    const first = now - 2 * HOUR;
    s.feed.push('EURJPY', 160, first);
    s.feed.push('EURJPY', 164, now);
    await market().flush();
    await market().refreshDayChange();
    const rate = rateOf('EURJPY');
    expect(rate.price_24h).toBe(160);
    expect(rate.price_24h_time).toBeLessThanOrEqual(first);
    expect(rate.price_24h_time).toBeGreaterThan(first - FIVE_MIN);
    expect(dayChangeRatio(rate.current_price, rate.price_24h)).toBeCloseTo(0.025, 10);
  });

  it('sends the base with the rates a socket gets on connect', async () => {
    const socket = await s.server.socket();
    const rates = await new Promise<Rate[]>((resolve) => socket.once('pairs_rates', (p: { rates: Rate[] }) => resolve(p.rates)));
    const gbp = rates.find((r) => r.pair_code === 'GBPUSD');
    expect(gbp).toMatchObject({ current_price: 1.8, price_24h: 1.6 });
    socket.disconnect();
  });

  it('has no change without a base', () => {
    expect(dayChangeRatio(1.2, undefined)).toBeNull();
    expect(dayChangeRatio(1.2, 0)).toBeNull();
  });
});
