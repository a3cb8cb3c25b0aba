/**
 * Orders end to end over HTTP against a real server whose prices come from a ManualFeed and
 * whose clock the test moves: placement and its checks, settlement of every up/down x
 * win/tie/loss x real/demo case with the exact balance change, concurrency (two orders beyond
 * the balance, the same client_request_id twice), owner-only reads, list pagination and
 * filters, and the order_update push. The ledger audits clean after every test.
 */
import { describe, expect, it } from 'vitest';
import { nextEvent } from '../support/server';
import { balance, makeUser, orderLedger, waitClosed, winCredit, type TestUser, useOrdersServer } from '../support/orders-harness';
import type { Order } from '../../contract/orders';

const s = useOrdersServer();

const PAIR = 'EURUSD';

function place(user: TestUser, body: Record<string, unknown>) {
  return s.server.api<{ order: Order }>('POST', '/api/v2/orders', body, user.token);
}

const order = (over: Record<string, unknown> = {}) => ({
  pair_code: PAIR,
  direction: 'up',
  amount: 10,
  currency: 'USD',
  trading_account: 'DemoAccount',
  expiry: 5,
  ...over,
});

/** Advance the clock to expiry, tick the close price at expiry, then one tick after it. */
async function expireWith(o: Order, closePrice: number) {
  const clock = s.clock!;
  clock.set(o.expires_at_ms);
  const exit = s.feed.push(o.pair_code, closePrice, o.expires_at_ms);
  clock.advance(1);
  s.feed.push(o.pair_code, closePrice + 0.5, o.expires_at_ms + 1);
  await waitClosed(s, o.order_id);
  return exit;
}

describe('placement', () => {
  it('opens an order at the latest tick and debits the stake once', async () => {
    const user = await makeUser(s);
    const entry = s.feed.push(PAIR, 1.16, s.clock!.advance(100));
    s.clock!.advance(250);
    const r = await place(user, order({ amount: 25.5, direction: 'down', expiry: 90 }));
    expect(r.status).toBe(201);
    expect(r.body.success).toBe(true);
    const o = r.body.data!.order;
    const payoutRate = s.market.getPair(PAIR)!.payout_rate;
    expect(o).toMatchObject({
      pair_code: PAIR,
      pair: PAIR,
      pair_human_code: 'EUR/USD',
      direction: 'down',
      trading_account: 'DemoAccount',
      balance_type: 'DemoBalance',
      status: 'open',
      result: null,
      currency: 'USD',
      amount: 25.5,
      amount_in_user_currency: 25.5,
      open_price: 1.16,
      close_price: null,
      current_price: 1.16,
      payout_rate: payoutRate,
      profit_loss: null,
      payout: null,
      expiry_seconds: 90,
      created_at: Math.floor(s.clock!.t / 1000),
      created_at_ms: s.clock!.t,
      expires_at_ms: s.clock!.t + 90_000,
      is_closed: false,
      is_manual: false,
      close_time: null,
      close_reason: null,
      entry_tick: { time: entry.time, seq: entry.seq, price: 1.16 },
      exit_tick: null,
    });
    expect(o.potential_return).toBe(winCredit(2550, payoutRate) / 100);
    // currency_amount x current price x rate - amount = stake x (current/open - 1): zero at the open price.
    expect(o.currency_amount * 1.16 * 1 - o.amount_in_user_currency).toBeCloseTo(0, 10);
    expect(await balance(s, user.id, 'USD', 'demo')).toBe(1_000_000 - 2550);
    expect(await orderLedger(s, o.order_id)).toEqual([{ idempotency_key: `order:${o.order_id}:stake`, kind: 'order_stake' }]);
  });

  it('refuses an unknown or inactive pair (404), a pair with no price yet (409) and a stake above the balance', async () => {
    const user = await makeUser(s, { USD: 5_00 });
    const unknown = await place(user, order({ pair_code: 'NOPE' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, data: null, error: 'Pair not found', error_message: 'Pair not found' });
    const inactive = await place(user, order({ pair_code: 'USDTRY' }));
    expect(inactive.status).toBe(404);
    expect(inactive.body.error).toBe('Pair not found');
    const noPrice = await place(user, order({ pair_code: 'XAGUSD' }));
    expect(noPrice.status).toBe(409);
    expect(noPrice.body.error).toBe('Price unavailable, try again');

    // A price older than the pair's stale limit (5 s) is not traded on (stalled feed, closed
    // market): the pair is suspended with its own message until a fresh tick.
    s.feed.push(PAIR, 1.16, s.clock!.t);
    s.clock!.advance(5_001);
    const stale = await place(user, order());
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('Quotes for this pair are delayed; trading resumes when they are back');

    s.feed.push(PAIR, 1.16, s.clock!.t);
    const tooMuch = await place(user, order({ trading_account: 'RealAccount', amount: 6 }));
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toBe('Insufficient balance');
    expect(await balance(s, user.id, 'USD', 'real')).toBe(5_00);
    const none = await s.server.ctx.db.selectFrom('orders').select('id').where('user_id', '=', user.id).execute();
    expect(none).toEqual([]);
  });

  it('needs a valid bearer token', async () => {
    const r = await s.server.api('POST', '/api/v2/orders', order());
    expect(r.status).toBe(401);
    expect(r.body.success).toBe(false);
    const bad = await s.server.api('GET', '/api/platform/orders', undefined, 'not-a-token');
    expect(bad.status).toBe(401);
  });

  // The route checks only the token's signature before the handler; the session is read as the
  // order transaction's first statement (http/auth.ts requireToken, placement.ts Placer).
  it('refuses a signed token whose session has ended: 401 and nothing written, for a new order, a replay and a closed pair', async () => {
    const user = await makeUser(s);
    s.feed.push(PAIR, 1.16, s.clock!.advance(100));
    const first = await place(user, order({ client_request_id: 'web-before-logout' }));
    expect(first.status).toBe(201);
    expect((await s.server.api('POST', '/api/platform/auth/logout', undefined, user.token)).status).toBe(200);
    const before = await balance(s, user.id, 'USD', 'demo');
    for (const body of [order(), order({ client_request_id: 'web-before-logout' }), order({ pair_code: 'NOPE', client_request_id: 'web-before-logout' })]) {
      const r = await place(user, body);
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ success: false, data: null });
    }
    expect(await balance(s, user.id, 'USD', 'demo')).toBe(before);
    const rows = await s.server.ctx.db.selectFrom('orders').select('id').where('user_id', '=', user.id).execute();
    expect(rows.map((r) => r.id)).toEqual([first.body.data!.order.order_id]);
  });
});

describe('settlement at expiry', () => {
  const cases: { direction: 'up' | 'down'; outcome: 'won' | 'tie' | 'lost'; close: number }[] = [
    { direction: 'up', outcome: 'won', close: 1.20001 },
    { direction: 'up', outcome: 'tie', close: 1.2 },
    { direction: 'up', outcome: 'lost', close: 1.19999 },
    { direction: 'down', outcome: 'won', close: 1.19999 },
    { direction: 'down', outcome: 'tie', close: 1.2 },
    { direction: 'down', outcome: 'lost', close: 1.20001 },
  ];
  for (const account of ['RealAccount', 'DemoAccount'] as const) {
    for (const c of cases) {
      it(`${account} ${c.direction} ${c.outcome}: pays the exact amount once`, async () => {
        const user = await makeUser(s, { USD: 100_00 });
        const ledgerAccount = account === 'RealAccount' ? 'real' : 'demo';
        const before = await balance(s, user.id, 'USD', ledgerAccount);
        s.feed.push(PAIR, 1.2, s.clock!.advance(10));
        // 10.01 makes the win payout 10.01 x 1.92 = 19.2192: credited 19.21 (toward zero).
        const r = await place(user, order({ amount: 10.01, direction: c.direction, trading_account: account }));
        expect(r.status).toBe(201);
        const o = r.body.data!.order;
        expect(await balance(s, user.id, 'USD', ledgerAccount)).toBe(before - 1001);

        const exit = await expireWith(o, c.close);
        const rate = s.market.getPair(PAIR)!.payout_rate;
        const credit = c.outcome === 'won' ? winCredit(1001, rate) : c.outcome === 'tie' ? 1001 : 0;
        expect(await balance(s, user.id, 'USD', ledgerAccount)).toBe(before - 1001 + credit);
        const other = account === 'RealAccount' ? 'demo' : 'real';
        expect(await balance(s, user.id, 'USD', other)).toBe(account === 'RealAccount' ? 1_000_000 : 100_00);

        const got = await s.server.api<{ order: Order }>('GET', `/api/platform/orders/${o.order_id}`, undefined, user.token);
        expect(got.status).toBe(200);
        expect(got.body.data!.order).toMatchObject({
          status: 'closed',
          is_closed: true,
          result: c.outcome,
          close_reason: 'expiry',
          close_price: c.close,
          current_price: c.close,
          payout: credit / 100,
          profit_loss: (credit - 1001) / 100,
          is_manual: false,
          close_time: o.expires_at,
          exit_tick: { time: exit.time, seq: exit.seq, price: c.close },
          close_quote: null,
        });
        const kinds = (await orderLedger(s, o.order_id)).map((l) => `${l.kind}:${l.idempotency_key}`);
        const settle =
          c.outcome === 'won'
            ? [`order_payout:order:${o.order_id}:settle`]
            : c.outcome === 'tie'
              ? [`order_refund:order:${o.order_id}:settle`]
              : [];
        expect(kinds).toEqual([`order_stake:order:${o.order_id}:stake`, ...settle]);
      });
    }
  }

  it('settles crypto stakes in satoshis, rounding the payout toward zero', async () => {
    const user = await makeUser(s, {}, ['USD', 'BTC']);
    s.feed.push('BTCUSD', 95_000, s.clock!.advance(10));
    const r = await place(user, order({ pair_code: 'BTCUSD', currency: 'BTC', amount: 0.00123457 }));
    expect(r.status).toBe(201);
    const o = r.body.data!.order;
    expect(o.amount).toBe(0.00123457);
    await expireWith(o, 95_000.5);
    const rate = s.market.getPair('BTCUSD')!.payout_rate;
    const credit = Number((123457n * BigInt(Math.round((1 + rate) * 10_000))) / 10_000n);
    expect(await balance(s, user.id, 'BTC', 'demo')).toBe(10_000 * 1e8 - 123457 + credit);
  });

  it('two settlers racing pay once (status guard + ledger key)', async () => {
    const user = await makeUser(s);
    s.feed.push(PAIR, 1.3, s.clock!.advance(10));
    const o = (await place(user, order())).body.data!.order;
    s.clock!.set(o.expires_at_ms);
    const exit = s.feed.push(PAIR, 1.31, o.expires_at_ms);
    const { applySettlement } = await import('../../server/domain/orders/settle-order');
    const results = await Promise.all([
      s.server.ctx.tx((trx) => applySettlement(trx, o.order_id, exit, s.clock!.t)),
      s.server.ctx.tx((trx) => applySettlement(trx, o.order_id, exit, s.clock!.t)),
    ]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    s.feed.push(PAIR, 1.31, o.expires_at_ms + 1); // the scheduler now finds it closed
    await new Promise((r) => setTimeout(r, 100));
    const rate = s.market.getPair(PAIR)!.payout_rate;
    expect(await balance(s, user.id, 'USD', 'demo')).toBe(1_000_000 - 1000 + winCredit(1000, rate));
    expect((await orderLedger(s, o.order_id)).map((l) => l.kind)).toEqual(['order_stake', 'order_payout']);
  });
});

describe('concurrency and idempotency', () => {
  it('two orders that together exceed the balance: exactly one is accepted', async () => {
    const user = await makeUser(s, { USD: 100_00 });
    s.feed.push(PAIR, 1.16, s.clock!.advance(10));
    const results = await Promise.all([
      place(user, order({ amount: 60, trading_account: 'RealAccount', expiry: 600 })),
      place(user, order({ amount: 60, trading_account: 'RealAccount', expiry: 600, direction: 'down' })),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 400]);
    expect(results.find((r) => r.status === 400)!.body.error).toBe('Insufficient balance');
    expect(await balance(s, user.id, 'USD', 'real')).toBe(40_00);
    const rows = await s.server.ctx.db.selectFrom('orders').select('id').where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('the same client_request_id twice in a row: one order, one debit', async () => {
    const user = await makeUser(s);
    s.feed.push(PAIR, 1.16, s.clock!.advance(10));
    const body = order({ client_request_id: 'req_abc-12345', expiry: 600 });
    const first = await place(user, body);
    s.feed.push(PAIR, 1.17, s.clock!.advance(10));
    const second = await place(user, body);
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.body.data!.order.order_id).toBe(first.body.data!.order.order_id);
    expect(second.body.data!.order.open_price).toBe(1.16);
    expect(await balance(s, user.id, 'USD', 'demo')).toBe(1_000_000 - 1000);

    // The same id for a different order is a client bug: refused, nothing stored.
    const different = await place(user, { ...body, amount: 11 });
    expect(different.status).toBe(409);
    expect(different.body.error).toBe('client_request_id was already used for a different order');
    // Another user may use the same id.
    const other = await makeUser(s);
    expect((await place(other, body)).status).toBe(201);
    expect(await balance(s, user.id, 'USD', 'demo')).toBe(1_000_000 - 1000);
  });

  it('a retry after the quotes stopped answers the order made the first time; a new request id is refused', async () => {
    const user = await makeUser(s);
    s.feed.push(PAIR, 1.16, s.clock!.advance(10));
    const body = order({ client_request_id: 'retry-after-stall', expiry: 600 });
    const first = await place(user, body);
    expect(first.status).toBe(201);
    // The feed stalls (older than the pair's stale limit): the pair is suspended.
    s.clock!.advance(5_001);
    const retry = await place(user, body);
    expect(retry.status).toBe(200);
    expect(retry.body.data!.order.order_id).toBe(first.body.data!.order.order_id);
    const fresh = await place(user, { ...body, client_request_id: 'retry-after-stall-2' });
    expect(fresh.status).toBe(409);
    expect(fresh.body.error).toBe('Quotes for this pair are delayed; trading resumes when they are back');
    // A reused id for a different order is still a client bug while the pair is suspended.
    const different = await place(user, { ...body, amount: 11 });
    expect(different.status).toBe(409);
    expect(different.body.error).toBe('client_request_id was already used for a different order');
    expect(await balance(s, user.id, 'USD', 'demo')).toBe(1_000_000 - 1000);
  });

  it('the same client_request_id in concurrent requests: one order, one debit', async () => {
    const user = await makeUser(s);
    s.feed.push(PAIR, 1.16, s.clock!.advance(10));
    const body = order({ client_request_id: 'concurrent-0001', expiry: 600 });
    const results = await Promise.all(Array.from({ length: 6 }, () => place(user, body)));
    const ids = new Set(results.map((r) => r.body.data!.order.order_id));
    expect(ids.size).toBe(1);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(await balance(s, user.id, 'USD', 'demo')).toBe(1_000_000 - 1000);
    const [id] = [...ids];
    expect(await orderLedger(s, id)).toHaveLength(1);
  });
});

describe('reading orders', () => {
  it("user B can neither read nor close user A's order", async () => {
    const a = await makeUser(s);
    const b = await makeUser(s);
    s.feed.push(PAIR, 1.16, s.clock!.advance(10));
    const o = (await place(a, order({ expiry: 600 }))).body.data!.order;
    const read = await s.server.api('GET', `/api/platform/orders/${o.order_id}`, undefined, b.token);
    expect(read.status).toBe(404);
    expect(read.body).toMatchObject({ success: false, error: 'Order not found' });
    const close = await s.server.api('POST', `/api/platform/orders/${o.order_id}/close`, {}, b.token);
    expect(close.status).toBe(404);
    expect(close.body.error).toBe('Order not found');
    const list = await s.server.api<{ orders: Order[] }>('GET', '/api/platform/orders?status=all', undefined, b.token);
    expect(list.body.data!.orders).toEqual([]);
    const all = await s.server.api<{ orders: Order[] }>('GET', '/api/v1/orders/all', undefined, b.token);
    expect(all.body.data!.orders).toEqual([]);
    const missing = await s.server.api('GET', '/api/platform/orders/999999', undefined, a.token);
    expect(missing.status).toBe(404);
    expect(await balance(s, a.id, 'USD', 'demo')).toBe(1_000_000 - 1000);
  });

  it('lists newest first with pagination and filters', async () => {
    const user = await makeUser(s, { USD: 1000_00, EUR: 1000_00 }, ['USD', 'EUR']);
    s.feed.push(PAIR, 1.16, s.clock!.advance(10));
    s.feed.push('GBPUSD', 1.33, s.clock!.t);
    const specs = [
      { pair_code: PAIR, trading_account: 'DemoAccount', currency: 'USD' },
      { pair_code: PAIR, trading_account: 'RealAccount', currency: 'USD' },
      { pair_code: 'GBPUSD', trading_account: 'DemoAccount', currency: 'EUR' },
      { pair_code: 'GBPUSD', trading_account: 'RealAccount', currency: 'EUR' },
      { pair_code: PAIR, trading_account: 'RealAccount', currency: 'EUR' },
      { pair_code: PAIR, trading_account: 'DemoAccount', currency: 'USD', expiry: 5 },
      { pair_code: 'GBPUSD', trading_account: 'RealAccount', currency: 'USD' },
    ];
    const ids: number[] = [];
    for (const spec of specs) {
      s.clock!.advance(1);
      const r = await place(user, order({ expiry: 600, ...spec }));
      expect(r.status).toBe(201);
      ids.push(r.body.data!.order.order_id);
    }
    // Settle the one 5-second order so there is a closed one.
    const short = (await s.server.api<{ order: Order }>('GET', `/api/platform/orders/${ids[5]}`, undefined, user.token)).body.data!.order;
    await expireWith(short, 1.17);
    const newestFirst = [...ids].reverse();

    const get = (q: string) => s.server.api<{ orders: Order[]; pagination: any }>('GET', `/api/platform/orders${q}`, undefined, user.token);
    const page1 = await get('?limit=3');
    expect(page1.status).toBe(200);
    expect(page1.body.data!.orders.map((o) => o.order_id)).toEqual(newestFirst.slice(0, 3));
    expect(page1.body.data!.pagination).toEqual({ total_count: 7, limit: 3, offset: 0, has_more: true, next_offset: 3 });
    const page3 = await get('?limit=3&offset=6');
    expect(page3.body.data!.orders.map((o) => o.order_id)).toEqual(newestFirst.slice(6));
    expect(page3.body.data!.pagination).toEqual({ total_count: 7, limit: 3, offset: 6, has_more: false, next_offset: null });
    const dflt = await get('');
    expect(dflt.body.data!.pagination.limit).toBe(10);
    expect(dflt.body.data!.orders).toHaveLength(7);

    const ofIds = async (q: string) => (await get(q)).body.data!.orders.map((o) => o.order_id);
    expect(await ofIds('?status=closed')).toEqual([ids[5]]);
    expect(await ofIds('?status=open')).toEqual(newestFirst.filter((id) => id !== ids[5]));
    expect(await ofIds('?symbol=GBPUSD')).toEqual([ids[6], ids[3], ids[2]]);
    expect(await ofIds('?currency=eur')).toEqual([ids[4], ids[3], ids[2]]);
    expect(await ofIds('?trading_account=DemoAccount')).toEqual([ids[5], ids[2], ids[0]]);
    expect(await ofIds('?trading_account=RealAccount&currency=USD&status=open')).toEqual([ids[6], ids[1]]);
    expect(await ofIds('?trading_account=all&status=all&limit=100')).toEqual(newestFirst);

    const all = await s.server.api<{ orders: Order[] }>('GET', '/api/v1/orders/all', undefined, user.token);
    expect(all.status).toBe(200);
    expect(all.body.data!.orders.map((o) => o.order_id)).toEqual(newestFirst);
  });
});

describe('socket push', () => {
  it('sends order_update to the owner when an order opens and when it settles', async () => {
    const user = await makeUser(s);
    const stranger = await makeUser(s);
    const socket = await s.server.socket();
    socket.emit('provide_token', { token: user.token });
    const other = await s.server.socket();
    other.emit('provide_token', { token: stranger.token });
    await new Promise((r) => setTimeout(r, 150));
    let strangerGot = 0;
    other.on('order_update', () => strangerGot++);

    s.feed.push(PAIR, 1.16, s.clock!.advance(10));
    const opened = nextEvent<{ change: string; order: Order }>(socket, 'order_update', 3000, (p) => p.change === 'opened');
    const o = (await place(user, order({ direction: 'down' }))).body.data!.order;
    const openedPayload = await opened;
    expect(openedPayload.order.order_id).toBe(o.order_id);
    expect(openedPayload.order.status).toBe('open');

    const settled = nextEvent<{ change: string; order: Order }>(socket, 'order_update', 3000, (p) => p.change === 'settled');
    await expireWith(o, 1.15);
    const settledPayload = await settled;
    expect(settledPayload.order).toMatchObject({ order_id: o.order_id, status: 'closed', result: 'won', close_price: 1.15 });
    await new Promise((r) => setTimeout(r, 100));
    expect(strangerGot).toBe(0);
  });
});

describe('tick retention', () => {
  it('never prunes the ticks an open order still needs', async () => {
    const user = await makeUser(s);
    const entry = s.feed.push('USDCHF', 0.8, s.clock!.advance(10));
    const o = (await place(user, order({ pair_code: 'USDCHF', expiry: 14_400 }))).body.data!.order;
    s.feed.push('USDCHF', 0.81, s.clock!.advance(1000));
    const m = s.server.ctx.services.market;
    await m.flush();
    const orders = s.server.ctx.services.orders;
    expect(await orders.earliestOpenAcceptedAt()).toBeLessThanOrEqual(o.created_at_ms);
    // Seven hours on, the 6-hour retention alone would delete the entry tick.
    await m.runRetention(s.clock!.t + 7 * 3_600_000);
    const stored = await s.server.ctx.db
      .selectFrom('market_ticks')
      .select('seq')
      .where('pair_code', '=', 'USDCHF')
      .where('seq', '=', entry.seq)
      .execute();
    expect(stored).toHaveLength(1);
  });
});
