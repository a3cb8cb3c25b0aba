/**
 * Early close over HTTP: the indicative quote on GET, the paid value computed at the moment of
 * the close (exactly pricing.ts on the latest tick and the time left), idempotent retries and
 * concurrent closes paying once, expected_min, and the refusals (settled order, expired order).
 */
import { describe, expect, it } from 'vitest';
import { balance, makeUser, orderLedger, waitClosed, winCredit, type TestUser, useOrdersServer } from '../support/orders-harness';
import { earlyCloseValue, toBasisPoints } from '../../server/domain/orders/pricing';
import type { Order, OrderDetails } from '../../contract/orders';

const s = useOrdersServer();

const PAIR = 'GBPUSD';

async function open(user: TestUser, over: Record<string, unknown> = {}): Promise<Order> {
  s.feed.push(PAIR, 1.33, s.clock!.advance(10));
  const r = await s.server.api<{ order: Order }>(
    'POST',
    '/api/v2/orders',
    { pair_code: PAIR, direction: 'up', amount: 50, currency: 'USD', trading_account: 'RealAccount', expiry: 120, ...over },
    user.token,
  );
  expect(r.status).toBe(201);
  return r.body.data!.order;
}

const close = (user: TestUser, id: number, body: unknown = {}) =>
  s.server.api<{ order: Order }>('POST', `/api/platform/orders/${id}/close`, body, user.token);

/** N(x) by Abramowitz & Stegun 26.2.17 (|error| < 7.5e-8): an independent check on pricing.ts. */
function referenceN(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const poly = t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  const upper = (Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI)) * poly;
  return x >= 0 ? 1 - upper : upper;
}

/** The documented formula, written out independently of the server's code. */
function referenceValue(o: Order, spot: number, now: number): number {
  const sigma = s.market.volatility(PAIR);
  const T = (o.expires_at_ms - now) / 1000 / (365 * 24 * 3600);
  const d2 = (Math.log(spot / o.open_price) - (sigma * sigma * T) / 2) / (sigma * Math.sqrt(T));
  const p = o.direction === 'up' ? referenceN(d2) : referenceN(-d2);
  return Math.round(o.amount * 100) * (1 + o.payout_rate) * p * 0.95;
}

function expectedValue(o: Order, spot: number, now: number) {
  return earlyCloseValue(Math.round(o.amount * 100), toBasisPoints(o.payout_rate), {
    direction: o.direction,
    spot,
    strike: o.open_price,
    sigma: s.market.volatility(PAIR),
    secondsLeft: (o.expires_at_ms - now) / 1000,
  });
}

describe('early close', () => {
  it('quotes on GET, pays the value at the moment of the close, and pays once when retried', async () => {
    const user = await makeUser(s, { USD: 500_00 });
    const o = await open(user);
    expect(await balance(s, user.id, 'USD', 'real')).toBe(450_00);

    s.clock!.advance(30_000);
    s.feed.push(PAIR, 1.3304, s.clock!.t);
    const details = await s.server.api<{ order: OrderDetails }>('GET', `/api/platform/orders/${o.order_id}`, undefined, user.token);
    expect(details.status).toBe(200);
    const quote = details.body.data!.order.close_quote!;
    expect(quote).toEqual({ amount: expectedValue(o, 1.3304, s.clock!.t) / 100, currency: 'USD', quoted_at: s.clock!.t, valid_for_ms: 3000 });
    expect(details.body.data!.order.current_price).toBe(1.3304);

    // The market moves before the user confirms: the close pays the fresh value, not the quote.
    s.clock!.advance(2000);
    const exit = s.feed.push(PAIR, 1.3306, s.clock!.t);
    const paid = expectedValue(o, 1.3306, s.clock!.t);
    expect(paid).not.toBe(Math.round(quote.amount * 100));
    expect(Math.abs(paid - referenceValue(o, 1.3306, s.clock!.t))).toBeLessThan(1.01);
    expect(paid).toBeGreaterThan(0);
    expect(paid).toBeLessThan(winCredit(5000, o.payout_rate));
    const r = await close(user, o.order_id, { currency: 'USD' });
    expect(r.status).toBe(200);
    expect(r.body.data!.order).toMatchObject({
      status: 'closed',
      result: 'closed_early',
      close_reason: 'early_close',
      is_manual: true,
      is_closed: true,
      close_price: 1.3306,
      payout: paid / 100,
      profit_loss: (paid - 5000) / 100,
      close_time: Math.floor(s.clock!.t / 1000),
      exit_tick: { time: exit.time, seq: exit.seq, price: 1.3306 },
    });
    expect(await balance(s, user.id, 'USD', 'real')).toBe(450_00 + paid);

    // A retry after a lost response: same order, no second payment.
    s.clock!.advance(1000);
    s.feed.push(PAIR, 1.4, s.clock!.t);
    const again = await close(user, o.order_id);
    expect(again.status).toBe(200);
    expect(again.body.data!.order).toEqual(r.body.data!.order);
    expect(await balance(s, user.id, 'USD', 'real')).toBe(450_00 + paid);
    expect((await orderLedger(s, o.order_id)).map((l) => `${l.kind}:${l.idempotency_key}`)).toEqual([
      `order_stake:order:${o.order_id}:stake`,
      `order_early_close:order:${o.order_id}:settle`,
    ]);

    // Expiry comes later: the scheduler must not settle it again.
    s.clock!.set(o.expires_at_ms + 5000);
    s.feed.push(PAIR, 1.5, s.clock!.t);
    await new Promise((r) => setTimeout(r, 150));
    expect(await balance(s, user.id, 'USD', 'real')).toBe(450_00 + paid);
    const details2 = await s.server.api<{ order: OrderDetails }>('GET', `/api/platform/orders/${o.order_id}`, undefined, user.token);
    expect(details2.body.data!.order.close_quote).toBeNull();
    expect(details2.body.data!.order.result).toBe('closed_early');
  });

  it('concurrent closes of one order pay once', async () => {
    const user = await makeUser(s, { USD: 100_00 });
    const o = await open(user, { direction: 'down', amount: 20 });
    s.clock!.advance(10_000);
    s.feed.push(PAIR, 1.3295, s.clock!.t);
    const paid = expectedValue(o, 1.3295, s.clock!.t);
    expect(Math.abs(paid - referenceValue(o, 1.3295, s.clock!.t))).toBeLessThan(1.01);
    const results = await Promise.all(Array.from({ length: 5 }, () => close(user, o.order_id)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    for (const r of results) expect(r.body.data!.order.payout).toBe(paid / 100);
    expect(await balance(s, user.id, 'USD', 'real')).toBe(80_00 + paid);
    expect(await orderLedger(s, o.order_id)).toHaveLength(2);
  });

  it('refuses with 409 when the fresh value is below expected_min, and leaves the order open', async () => {
    const user = await makeUser(s, { USD: 100_00 });
    const o = await open(user);
    // No tick for more than 10 s: no quote, and no close on a stale price.
    s.clock!.advance(10_001);
    const stale = await close(user, o.order_id);
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('Price unavailable, try again');
    const noQuote = await s.server.api<{ order: OrderDetails }>('GET', `/api/platform/orders/${o.order_id}`, undefined, user.token);
    expect(noQuote.body.data!.order.close_quote).toBeNull();

    s.feed.push(PAIR, 1.3301, s.clock!.t);
    const value = expectedValue(o, 1.3301, s.clock!.t);
    const refused = await close(user, o.order_id, { expected_min: value / 100 + 0.01 });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('Price changed, please confirm again');
    expect(await balance(s, user.id, 'USD', 'real')).toBe(50_00);
    const tooFine = await close(user, o.order_id, { expected_min: 1.001 });
    expect(tooFine.status).toBe(400);
    const accepted = await close(user, o.order_id, { expected_min: value / 100 });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data!.order.payout).toBe(value / 100);
    expect(await balance(s, user.id, 'USD', 'real')).toBe(50_00 + value);
  });

  it('refuses an order that settled at expiry (409) and one past expiry waiting for settlement (409)', async () => {
    const user = await makeUser(s, { USD: 100_00 });
    const o = await open(user, { expiry: 5 });
    s.clock!.set(o.expires_at_ms);
    s.feed.push(PAIR, 1.33, s.clock!.t); // the close price at expiry; no later tick yet
    const expiring = await close(user, o.order_id);
    expect(expiring.status).toBe(409);
    expect(expiring.body.error).toBe('Order has expired and is being settled');

    s.clock!.advance(1);
    s.feed.push(PAIR, 1.331, s.clock!.t);
    await waitClosed(s, o.order_id);
    const settled = await close(user, o.order_id);
    expect(settled.status).toBe(409);
    expect(settled.body.error).toBe('Order is already closed');
    // Tie at 1.33: the stake came back, nothing more.
    expect(await balance(s, user.id, 'USD', 'real')).toBe(100_00);
  });

  it('refuses a currency that is not the order currency, and bad bodies, without closing', async () => {
    const user = await makeUser(s, { USD: 100_00 });
    const o = await open(user);
    const mismatch = await close(user, o.order_id, { currency: 'EUR' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toBe('Currency does not match the order');
    for (const body of [{ currency: 'XXX' }, { currency: 5 }, { expected_min: -1 }, { expected_min: 'a lot' }, [1, 2]]) {
      const r = await close(user, o.order_id, body);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, data: null });
    }
    const malformed = await close(user, o.order_id, '{"currency":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('Malformed JSON body');
    for (const id of ['abc', '0', '-1', '1.5']) {
      const r = await close(user, id as unknown as number);
      expect(r.status).toBe(400);
    }
    const stored = await s.server.ctx.db.selectFrom('orders').select('status').where('id', '=', o.order_id).executeTakeFirstOrThrow();
    expect(stored.status).toBe('open');
    expect(await balance(s, user.id, 'USD', 'real')).toBe(50_00);
    // Currency in lower case is the same currency.
    s.feed.push(PAIR, 1.33, s.clock!.advance(10));
    const ok = await close(user, o.order_id, { currency: 'usd' });
    expect(ok.status).toBe(200);
  });
});
