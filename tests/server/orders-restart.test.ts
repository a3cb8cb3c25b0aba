/**
 * Restart behaviour: orders left open when the server stopped are settled exactly once by the
 * next start, each with the tick at its expiry from the tick log (a pair whose ticks were lost
 * is refunded with the reason recorded), orders not yet due are scheduled again, and a third
 * start changes nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../support/test-database';
import { auditLedger } from '../../server/domain/ledger';
import type { Order } from '../../contract/orders';
import { balance, makeUser, orderLedger, removeDir, startOrdersServer, TestClock, waitClosed, type OrdersServer, type TestUser } from '../support/orders-harness';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-orders-restart-'));
afterAll(() => removeDir(dataDir));

async function place(s: OrdersServer, user: TestUser, body: Record<string, unknown>): Promise<Order> {
  const r = await s.server.api<{ order: Order }>('POST', '/api/v2/orders', { currency: 'USD', ...body }, user.token);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data!.order;
}

async function getOrder(s: OrdersServer, user: TestUser, id: number): Promise<Order> {
  const r = await s.server.api<{ order: Order }>('GET', `/api/platform/orders/${id}`, undefined, user.token);
  expect(r.status).toBe(200);
  return r.body.data!.order;
}

const allLedger = (s: OrdersServer) =>
  s.server.ctx.db.selectFrom('ledger_transactions').select(['id', 'idempotency_key', 'kind', 'created_at']).orderBy('id').execute();

describe('restart', () => {
  it('settles overdue orders once with the tick at expiry, and reschedules the rest', async () => {
    const T0 = Date.now();
    const clock1 = new TestClock(T0);
    const s1 = await startOrdersServer({ dataDir, clock: clock1 });
    const user = await makeUser(s1, { USD: 100_00 });
    s1.feed.push('EURUSD', 1.16, T0);
    s1.feed.push('GBPUSD', 1.33, T0);
    s1.feed.push('USDJPY', 152.5, T0);
    clock1.advance(1000);
    const a = await place(s1, user, { pair_code: 'EURUSD', direction: 'up', amount: 10, trading_account: 'RealAccount', expiry: 60 });
    const b = await place(s1, user, { pair_code: 'EURUSD', direction: 'down', amount: 10, trading_account: 'DemoAccount', expiry: 60 });
    const c = await place(s1, user, { pair_code: 'GBPUSD', direction: 'up', amount: 20, trading_account: 'DemoAccount', expiry: 30 });
    const d = await place(s1, user, { pair_code: 'USDJPY', direction: 'up', amount: 5, trading_account: 'RealAccount', expiry: 60 });
    const e = await place(s1, user, { pair_code: 'EURUSD', direction: 'up', amount: 10, trading_account: 'DemoAccount', expiry: 600 });
    clock1.advance(27_000);
    // c expires at T0 + 31 s: a tie (its last tick, 3 s before expiry, is within the stale limit)
    const gbpExit = s1.feed.push('GBPUSD', 1.33, clock1.t);
    clock1.advance(32_000);
    const eurExit = s1.feed.push('EURUSD', 1.161, clock1.t); // a, b expire at T0 + 61 s
    await s1.server.close();

    // Data loss: the USDJPY tick log is gone while the server was down.
    const db = await openTestDatabase(dataDir);
    const stillOpen = await db.selectFrom('orders').select('id').where('status', '=', 'open').execute();
    expect(stillOpen).toHaveLength(5);
    await db.deleteFrom('market_ticks').where('pair_code', '=', 'USDJPY').execute();
    await db.destroy();

    let ledgerAfterRestart: unknown[];
    const clock2 = new TestClock(T0 + 120_000);
    const s2 = await startOrdersServer({ dataDir, clock: clock2 });
    try {
      const [ga, gb, gc, gd, ge] = await Promise.all([a, b, c, d, e].map((o) => getOrder(s2, user, o.order_id)));
      expect(ga).toMatchObject({ status: 'closed', result: 'won', close_price: 1.161, payout: 19.2, profit_loss: 9.2, close_reason: 'expiry' });
      expect(ga.exit_tick).toEqual({ time: eurExit.time, seq: eurExit.seq, price: 1.161 });
      expect(gb).toMatchObject({ status: 'closed', result: 'lost', close_price: 1.161, payout: 0, profit_loss: -10 });
      expect(gb.exit_tick).toEqual({ time: eurExit.time, seq: eurExit.seq, price: 1.161 });
      expect(gc).toMatchObject({ status: 'closed', result: 'tie', close_price: 1.33, payout: 20, profit_loss: 0 });
      expect(gc.exit_tick).toEqual({ time: gbpExit.time, seq: gbpExit.seq, price: 1.33 });
      expect(gd).toMatchObject({
        status: 'closed',
        result: 'refunded',
        close_reason: 'no_price_at_expiry',
        close_price: null,
        exit_tick: null,
        payout: 5,
        profit_loss: 0,
      });
      expect(ge).toMatchObject({ status: 'open', result: null });

      expect(await balance(s2, user.id, 'USD', 'real')).toBe(100_00 - 10_00 - 5_00 + 19_20 + 5_00);
      expect(await balance(s2, user.id, 'USD', 'demo')).toBe(1_000_000 - 10_00 - 20_00 - 10_00 + 20_00);
      expect((await orderLedger(s2, a.order_id)).map((l) => l.kind)).toEqual(['order_stake', 'order_payout']);
      expect((await orderLedger(s2, b.order_id)).map((l) => l.kind)).toEqual(['order_stake']);
      expect((await orderLedger(s2, c.order_id)).map((l) => l.kind)).toEqual(['order_stake', 'order_refund']);
      expect((await orderLedger(s2, d.order_id)).map((l) => l.kind)).toEqual(['order_stake', 'order_refund']);
      expect(await auditLedger(s2.server.ctx.db)).toEqual([]);
      ledgerAfterRestart = await allLedger(s2);
    } finally {
      await s2.server.close();
    }

    // A third start: nothing is settled again; the order still running is scheduled and
    // settles when its expiry passes.
    const clock3 = new TestClock(T0 + 130_000);
    const s3 = await startOrdersServer({ dataDir, clock: clock3 });
    try {
      expect(await balance(s3, user.id, 'USD', 'real')).toBe(109_20);
      expect(await allLedger(s3)).toEqual(ledgerAfterRestart);
      expect((await getOrder(s3, user, e.order_id)).status).toBe('open');
      s3.feed.push('EURUSD', 1.17, clock3.set(e.expires_at_ms));
      clock3.advance(5);
      s3.feed.push('EURUSD', 1.18, clock3.t);
      await waitClosed(s3, e.order_id);
      const ge = await getOrder(s3, user, e.order_id);
      expect(ge).toMatchObject({ result: 'won', close_price: 1.17, payout: 19.2 });
      expect(await balance(s3, user.id, 'USD', 'demo')).toBe(1_000_000 - 10_00 - 10_00 + 19_20);
      const settleRows = await s3.server.ctx.db
        .selectFrom('ledger_transactions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('idempotency_key', 'like', 'order:%:settle')
        .executeTakeFirstOrThrow();
      expect(Number(settleRows.n)).toBe(4); // a, c, d, e (b lost: nothing to credit)
      expect(await auditLedger(s3.server.ctx.db)).toEqual([]);
    } finally {
      await s3.server.close();
    }
  });
});
