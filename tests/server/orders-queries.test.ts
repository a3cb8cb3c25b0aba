/**
 * Pair codes in any case (the contract upper-cases them: POST /api/v2/orders, the `symbol`
 * filter of GET /api/platform/orders, GET /api/v2/candles) and GET /api/v1/orders/all: a page of
 * at most ORDERS_ALL_CAP, newest first, with `truncated` and the pagination block when the user
 * has more.
 */
import { describe, expect, it } from 'vitest';
import { ORDERS_ALL_CAP, type Order, type OrderAllResponse } from '../../contract/orders';
import { makeUser, type TestUser, useOrdersServer } from '../support/orders-harness';

const s = useOrdersServer();

function place(user: TestUser, body: Record<string, unknown>) {
  return s.server.api<{ order: Order }>(
    'POST',
    '/api/v2/orders',
    { direction: 'up', amount: 10, currency: 'USD', trading_account: 'DemoAccount', expiry: 600, ...body },
    user.token,
  );
}

const all = (user: TestUser, query = '') => s.server.api<OrderAllResponse>('GET', `/api/v1/orders/all${query}`, undefined, user.token);

describe('pair codes in any case', () => {
  it('places an order for "eurusd" on EURUSD and filters the list by a lower-case symbol', async () => {
    const user = await makeUser(s);
    const entry = s.feed.push('EURUSD', 1.16, s.clock!.advance(10));
    s.feed.push('GBPUSD', 1.33, s.clock!.t);
    const lower = await place(user, { pair_code: 'eurusd' });
    expect(lower.status, JSON.stringify(lower.body)).toBe(201);
    expect(lower.body.data!.order).toMatchObject({ pair_code: 'EURUSD', pair: 'EURUSD', pair_human_code: 'EUR/USD', open_price: 1.16 });
    expect(lower.body.data!.order.entry_tick.seq).toBe(entry.seq);
    const mixed = await place(user, { pair_code: ' GbpUsd ' });
    expect(mixed.status).toBe(201);
    expect(mixed.body.data!.order.pair_code).toBe('GBPUSD');

    // A retry with the same request id in another case is the same order.
    const first = await place(user, { pair_code: 'EURUSD', client_request_id: 'case-retry-1' });
    const again = await place(user, { pair_code: 'eurUSD', client_request_id: 'case-retry-1' });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.data!.order.order_id).toBe(first.body.data!.order.order_id);

    const list = async (symbol: string) =>
      (await s.server.api<{ orders: Order[] }>('GET', `/api/platform/orders?symbol=${symbol}`, undefined, user.token)).body.data!.orders.map(
        (o) => o.order_id,
      );
    const eur = [first.body.data!.order.order_id, lower.body.data!.order.order_id];
    expect(await list('EURUSD')).toEqual(eur);
    expect(await list('eurusd')).toEqual(eur);
    expect(await list('gbpUSD')).toEqual([mixed.body.data!.order.order_id]);

    expect((await place(user, { pair_code: 'nosuchpair' })).body.error).toBe('Pair not found');
    await closeAll(user);
  });

  it('serves candles for a lower-case pair_code', async () => {
    const r = await s.server.api<{ candles: { pair_code: string }[] }>('GET', '/api/v2/candles?pair_code=eurusd&timeframe=5s&limit=5');
    expect(r.status).toBe(200);
    expect(r.body.data!.candles.length).toBeGreaterThan(0);
    expect(r.body.data!.candles.every((c) => c.pair_code === 'EURUSD')).toBe(true);
  });
});

/** Close every open order of the user early (so nothing is left to settle). */
async function closeAll(user: TestUser) {
  s.feed.push('EURUSD', 1.16, s.clock!.advance(1));
  s.feed.push('GBPUSD', 1.33, s.clock!.t);
  const open = await s.server.api<{ orders: Order[] }>('GET', '/api/platform/orders?status=open&limit=100', undefined, user.token);
  for (const o of open.body.data!.orders) {
    expect((await s.server.api('POST', `/api/platform/orders/${o.order_id}/close`, {}, user.token)).status).toBe(200);
  }
}

describe('GET /api/v1/orders/all', () => {
  it('answers every order with truncated: false, and pages with limit and offset', async () => {
    const user = await makeUser(s);
    s.feed.push('EURUSD', 1.16, s.clock!.advance(10));
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await place(user, { pair_code: 'EURUSD' })).body.data!.order.order_id);
    const newest = [...ids].reverse();

    const whole = await all(user);
    expect(whole.status).toBe(200);
    expect(whole.body.data!.orders.map((o) => o.order_id)).toEqual(newest);
    expect(whole.body.data!.truncated).toBe(false);
    expect(whole.body.data!.pagination).toEqual({ total_count: 3, limit: ORDERS_ALL_CAP, offset: 0, has_more: false, next_offset: null });

    const p1 = await all(user, '?limit=2');
    expect(p1.body.data!.orders.map((o) => o.order_id)).toEqual(newest.slice(0, 2));
    expect(p1.body.data!.truncated).toBe(true);
    expect(p1.body.data!.pagination).toEqual({ total_count: 3, limit: 2, offset: 0, has_more: true, next_offset: 2 });
    const p2 = await all(user, '?limit=2&offset=2');
    expect(p2.body.data!.orders.map((o) => o.order_id)).toEqual(newest.slice(2));
    expect(p2.body.data!.truncated).toBe(false);

    for (const q of ['limit=0', `limit=${ORDERS_ALL_CAP + 1}`, 'limit=x', 'offset=-1', 'offset=1.5']) {
      const r = await all(user, `?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body).toMatchObject({ success: false, data: null });
    }
    await closeAll(user);
  });

  it(`returns at most ${ORDERS_ALL_CAP} and says truncated when the user has more`, async () => {
    const user = await makeUser(s);
    // Closed orders written straight into the table (placing 1001 over HTTP adds nothing here).
    const now = s.clock!.t;
    const rows = Array.from({ length: ORDERS_ALL_CAP + 1 }, (_, i) => ({
      user_id: user.id,
      client_request_id: null,
      pair_code: 'EURUSD',
      pair_human_code: 'EUR/USD',
      direction: 'up',
      account: 'demo',
      currency: 'USD',
      stake: 100,
      payout_rate_bp: 9000,
      price_precision: 5,
      expiry_seconds: 5,
      accepted_at: now - 10_000 + i,
      expires_at: now - 5_000 + i,
      open_price: 1.16,
      entry_tick_time: now - 10_000,
      entry_tick_seq: 1,
      status: 'closed',
      result: 'lost',
      close_reason: 'expiry',
      close_price: 1.15,
      exit_tick_time: now - 5_000,
      exit_tick_seq: 2,
      payout: 0,
      closed_at: now - 5_000 + i,
    }));
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 200) {
      const inserted = await s.server.ctx.db.insertInto('orders').values(rows.slice(i, i + 200)).returning('id').execute();
      ids.push(...inserted.map((r) => r.id));
    }
    const oldest = Math.min(...ids);

    const capped = await all(user);
    expect(capped.status).toBe(200);
    const data = capped.body.data!;
    expect(data.orders).toHaveLength(ORDERS_ALL_CAP);
    expect(data.orders.map((o) => o.order_id)).not.toContain(oldest);
    expect(data.truncated).toBe(true);
    expect(data.pagination).toEqual({ total_count: ORDERS_ALL_CAP + 1, limit: ORDERS_ALL_CAP, offset: 0, has_more: true, next_offset: ORDERS_ALL_CAP });

    const rest = await all(user, `?offset=${data.pagination.next_offset}`);
    expect(rest.body.data!.orders.map((o) => o.order_id)).toEqual([oldest]);
    expect(rest.body.data!.truncated).toBe(false);
  });
});
