/**
 * Orders against the embedded simulator (the production feed) on the real clock: the open price
 * is the latest simulated tick, each order settles shortly after expiry with the last tick at or
 * before expiry (and a later tick exists), the outcome follows the prices, and the balances and the
 * ledger agree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../contract/orders';
import type { MarketService } from '../../server/domain/market/types';
import { outcomeOf } from '../../server/domain/orders/wire';
import { startTestServer } from '../support/server';
import { balance, expectLedgerClean, makeUser, sleep, waitClosed, winCredit, type WithServer } from '../support/orders-harness';
import { auditLedgerAfterEach } from '../support/ledger-audit';

let s: WithServer;
let market: MarketService;
beforeAll(async () => {
  s = { server: await startTestServer({ SIM_TICKS_PER_SECOND: '4' }) };
  market = s.server.ctx.services.market;
  await s.server.ctx.services.orders.started;
  while (!market.latestTick('EURUSD') || !market.latestTick('BTCUSD')) await sleep(20);
});
afterAll(async () => {
  await s.server.close();
});
// The ledger audit after every test, and the real `audit` command when the server closes.
auditLedgerAfterEach(() => s);

describe('orders on the simulated feed', () => {
  it('open at the latest tick and settle with the last tick at or before expiry', async () => {
    const user = await makeUser(s, { USD: 1000_00 });
    const place = async (pair_code: string, direction: 'up' | 'down', trading_account: string) => {
      const r = await s.server.api<{ order: Order }>(
        'POST',
        '/api/v2/orders',
        { pair_code, direction, amount: 100, currency: 'USD', trading_account, expiry: 5 },
        user.token,
      );
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.data!.order;
    };
    const orders = await Promise.all([
      place('EURUSD', 'up', 'RealAccount'),
      place('EURUSD', 'down', 'DemoAccount'),
      place('BTCUSD', 'up', 'DemoAccount'),
      place('BTCUSD', 'down', 'RealAccount'),
    ]);
    for (const o of orders) {
      const entry = await market.tickAtOrBefore(o.pair_code, o.entry_tick.time);
      expect(entry).toEqual({ pair_code: o.pair_code, ...o.entry_tick });
    }
    for (const o of orders) await waitClosed(s, o.order_id, 9000);

    let real = 1000_00 - 2 * 100_00;
    let demo = 1_000_000 - 2 * 100_00;
    for (const o of orders) {
      const got = (await s.server.api<{ order: Order }>('GET', `/api/platform/orders/${o.order_id}`, undefined, user.token)).body.data!.order;
      const exit = await market.tickAtOrBefore(o.pair_code, o.expires_at_ms);
      expect(got.exit_tick).toEqual({ time: exit!.time, seq: exit!.seq, price: exit!.price });
      const after = await market.ticksBetween(o.pair_code, o.expires_at_ms + 1, o.expires_at_ms + 5000);
      expect(after.length).toBeGreaterThan(0);
      expect(after[0].seq).toBe(exit!.seq + 1);
      const outcome = outcomeOf(o.direction, o.open_price, exit!.price, o.price_precision);
      expect(got.result).toBe(outcome);
      const credit = outcome === 'won' ? winCredit(100_00, o.payout_rate) : outcome === 'tie' ? 100_00 : 0;
      expect(got.payout).toBe(credit / 100);
      if (o.trading_account === 'RealAccount') real += credit;
      else demo += credit;
    }
    expect(await balance(s, user.id, 'USD', 'real')).toBe(real);
    expect(await balance(s, user.id, 'USD', 'demo')).toBe(demo);
    await expectLedgerClean(s);
  });
});
