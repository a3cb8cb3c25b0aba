/**
 * GET /api/platform/orders/{id}/ticks over real HTTP: the tick log of an order read back from its
 * entry tick to its exit tick (to the latest tick while open), only for the order's owner,
 * capped (ORDER_TICKS_CAP, `truncated`, paging with after_seq), with validated params, and an
 * honest `pruned` once retention (TICK_RETENTION_HOURS) has deleted the span.
 */
import { describe, expect, it } from 'vitest';
import { ORDER_TICKS_CAP, type Order, type OrderTicksResponse } from '../../contract/orders';
import { openFamily } from '../../server/domain/auth/sessions';
import type { Tick } from '../../server/domain/market/types';
import { makeUser, waitClosed, type TestUser, useOrdersServer } from '../support/orders-harness';

const s = useOrdersServer();

async function place(user: TestUser, body: Record<string, unknown>): Promise<Order> {
  const r = await s.server.api<{ order: Order }>(
    'POST',
    '/api/v2/orders',
    { direction: 'up', amount: 10, currency: 'USD', trading_account: 'DemoAccount', ...body },
    user.token,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data!.order;
}

function ticksOf(user: TestUser, id: number, query = '') {
  return s.server.api<OrderTicksResponse>('GET', `/api/platform/orders/${id}/ticks${query}`, undefined, user.token);
}

const ref = (t: Tick) => ({ seq: t.seq, time: t.time, price: t.price });

/** A new access token for the same user at the server's current (moved) time. */
async function tokenNow(user: TestUser): Promise<TestUser> {
  const ctx = s.server.ctx;
  const now = ctx.now();
  const session = await ctx.tx((trx) => openFamily(trx, user.id, 'user', now, ctx.config.refreshTokenTtl));
  return { id: user.id, token: await ctx.tokens.sign({ userId: user.id, sessionType: 'user', family: session.family }, now) };
}

describe('GET /api/platform/orders/{id}/ticks', () => {
  it('reads back a settled order from its entry tick to its exit tick', async () => {
    const user = await makeUser(s);
    const clock = s.clock!;
    s.feed.push('EURUSD', 1.159, clock.advance(100)); // before the entry: not part of the span
    const entry = s.feed.push('EURUSD', 1.16, clock.advance(10));
    const o = await place(user, { pair_code: 'EURUSD', expiry: 5 });
    expect(o.entry_tick).toEqual(ref(entry));
    const middle = [s.feed.push('EURUSD', 1.1601, clock.advance(1000)), s.feed.push('EURUSD', 1.1599, clock.advance(1000))];
    clock.set(o.expires_at_ms);
    const exit = s.feed.push('EURUSD', 1.1603, o.expires_at_ms);
    clock.advance(1);
    s.feed.push('EURUSD', 1.17, clock.t); // after expiry: proves the exit final, not part of the span
    await waitClosed(s, o.order_id);

    const r = await ticksOf(user, o.order_id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data).toEqual({
      order_id: o.order_id,
      pair_code: 'EURUSD',
      status: 'closed',
      entry_tick: ref(entry),
      exit_tick: ref(exit),
      logged_entry_tick: ref(entry),
      logged_exit_tick: ref(exit),
      from_seq: entry.seq,
      to_seq: exit.seq,
      ticks: [entry, ...middle, exit].map(ref),
      truncated: false,
      next_after_seq: null,
      logged_count: 4,
      missing_count: 0,
      pruned: false,
      retention_hours: s.server.ctx.config.tickRetentionHours,
    });
    // The settlement can be checked from the answer alone: close = the last tick at or before expiry.
    const ticks = r.body.data!.ticks;
    const close = ticks.filter((t) => t.time <= o.expires_at_ms).at(-1)!;
    expect(close).toEqual(r.body.data!.exit_tick);
  });

  it('runs to the latest tick while open, pages with limit and after_seq, and ends at an early close', async () => {
    const user = await makeUser(s);
    const clock = s.clock!;
    const entry = s.feed.push('GBPUSD', 1.33, clock.advance(10));
    const o = await place(user, { pair_code: 'GBPUSD', expiry: 600 });
    const later: Tick[] = [];
    for (let i = 1; i <= 6; i++) later.push(s.feed.push('GBPUSD', 1.33 + i / 10_000, clock.advance(250)));
    const all = [entry, ...later].map(ref);

    const whole = await ticksOf(user, o.order_id);
    expect(whole.body.data).toMatchObject({ status: 'open', exit_tick: null, logged_exit_tick: null, to_seq: later[5].seq, truncated: false });
    expect(whole.body.data!.ticks).toEqual(all);

    const pages: ReturnType<typeof ref>[] = [];
    let after: number | null = null;
    const flags: boolean[] = [];
    do {
      const r = await ticksOf(user, o.order_id, `?limit=3${after === null ? '' : `&after_seq=${after}`}`);
      expect(r.status).toBe(200);
      pages.push(...r.body.data!.ticks);
      flags.push(r.body.data!.truncated);
      after = r.body.data!.next_after_seq;
    } while (after !== null);
    expect(pages).toEqual(all);
    expect(flags).toEqual([true, true, false]);

    // An early close fixes the end of the span at the tick it was priced on.
    const closed = await s.server.api<{ order: Order }>('POST', `/api/platform/orders/${o.order_id}/close`, {}, user.token);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    s.feed.push('GBPUSD', 1.34, clock.advance(250));
    const after_close = await ticksOf(user, o.order_id);
    expect(after_close.body.data).toMatchObject({ status: 'closed', exit_tick: ref(later[5]), logged_exit_tick: ref(later[5]), to_seq: later[5].seq });
    expect(after_close.body.data!.ticks).toEqual(all);
  });

  it(`returns at most ${ORDER_TICKS_CAP} ticks by default and says it truncated`, async () => {
    const user = await makeUser(s);
    const clock = s.clock!;
    const entry = s.feed.push('AUDUSD', 0.66, clock.advance(10));
    const o = await place(user, { pair_code: 'AUDUSD', expiry: 3600 });
    let last = entry;
    for (let i = 0; i < ORDER_TICKS_CAP + 4; i++) last = s.feed.push('AUDUSD', 0.66 + (i % 7) / 100_000, clock.advance(1));
    const r = await ticksOf(user, o.order_id);
    expect(r.status).toBe(200);
    const data = r.body.data!;
    expect(data.ticks).toHaveLength(ORDER_TICKS_CAP);
    expect(data.ticks[0]).toEqual(ref(entry));
    expect(data).toMatchObject({ truncated: true, next_after_seq: entry.seq + ORDER_TICKS_CAP - 1, to_seq: last.seq, logged_count: ORDER_TICKS_CAP + 5 });
    const rest = await ticksOf(user, o.order_id, `?after_seq=${data.next_after_seq}`);
    expect(rest.body.data!.ticks.map((t) => t.seq)).toEqual([0, 1, 2, 3, 4].map((i) => entry.seq + ORDER_TICKS_CAP + i));
    expect(rest.body.data!.truncated).toBe(false);
    expect((await ticksOf(user, o.order_id, `?limit=${ORDER_TICKS_CAP + 1}`)).status).toBe(400);
    // Leave no open order behind (the retention test below needs none).
    expect((await s.server.api('POST', `/api/platform/orders/${o.order_id}/close`, {}, user.token)).status).toBe(200);
  });

  it("is the owner's only: another user's order and an unknown id are 404; bad params are 400", async () => {
    const owner = await makeUser(s);
    const other = await makeUser(s);
    s.feed.push('EURUSD', 1.16, s.clock!.advance(10));
    const o = await place(owner, { pair_code: 'EURUSD', expiry: 5 });

    const foreign = await ticksOf(other, o.order_id);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ success: false, data: null, error: 'Order not found', error_message: 'Order not found' });
    expect((await ticksOf(owner, 999_999)).status).toBe(404);
    expect((await s.server.api('GET', `/api/platform/orders/${o.order_id}/ticks`)).status).toBe(401);

    for (const id of ['abc', '0', '-3', '1.5']) {
      const r = await s.server.api('GET', `/api/platform/orders/${id}/ticks`, undefined, owner.token);
      expect(r.status, id).toBe(400);
    }
    for (const q of ['limit=0', 'limit=abc', 'limit=5001', 'after_seq=-1', 'after_seq=x', 'after_seq=1.5']) {
      const r = await ticksOf(owner, o.order_id, `?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body).toMatchObject({ success: false, data: null });
      expect(r.body.details?.[0]?.field, q).toBe(q.split('=')[0]);
    }
    // Settle it so the retention test finds no open order.
    const clock = s.clock!;
    clock.set(o.expires_at_ms);
    s.feed.push('EURUSD', 1.16, clock.t);
    clock.advance(1);
    s.feed.push('EURUSD', 1.16, clock.t);
    await waitClosed(s, o.order_id);
  });

  it('says when retention has deleted the span (TICK_RETENTION_HOURS)', async () => {
    const user = await makeUser(s);
    const clock = s.clock!;
    const entry = s.feed.push('USDCAD', 1.37, clock.advance(10));
    const o = await place(user, { pair_code: 'USDCAD', expiry: 5 });
    clock.set(o.expires_at_ms);
    const exit = s.feed.push('USDCAD', 1.371, clock.t);
    clock.advance(1);
    s.feed.push('USDCAD', 1.372, clock.t);
    await waitClosed(s, o.order_id);
    const fresh = await ticksOf(user, o.order_id);
    expect(fresh.body.data).toMatchObject({ logged_count: 2, missing_count: 0, pruned: false });

    // Hours later retention runs: the order's ticks are older than the retention window.
    const hours = s.server.ctx.config.tickRetentionHours;
    clock.advance((hours + 1) * 3_600_000);
    s.feed.push('USDCAD', 1.38, clock.t);
    const run = await s.server.ctx.services.market.runRetention(clock.t);
    expect(run.ticks).toBeGreaterThan(0);

    const pruned = await ticksOf(await tokenNow(user), o.order_id);
    expect(pruned.status).toBe(200);
    expect(pruned.body.data).toMatchObject({
      entry_tick: ref(entry),
      exit_tick: ref(exit),
      logged_entry_tick: null,
      logged_exit_tick: null,
      ticks: [],
      logged_count: 0,
      missing_count: exit.seq - entry.seq + 1,
      pruned: true,
      retention_hours: hours,
    });
  });
});
