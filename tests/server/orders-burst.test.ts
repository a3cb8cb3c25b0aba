/**
 * An expiry burst settles in batches (server/domain/orders/settle-batch.ts): 400 orders expiring
 * together are closed by far fewer write transactions than orders, each exactly once, against
 * the last tick at or before its expiry, with the books balanced (audit on close). How fast is a
 * benchmark figure (bench/settlement.bench.ts), not asserted here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, sleep, startOrdersServer, TestClock, type OrdersServer } from '../support/orders-harness';
import { auditLedgerAfterEach } from '../support/ledger-audit';
import { settleKey } from '../../server/domain/orders/settle-order';

const clock = new TestClock();
let s: OrdersServer;
beforeAll(async () => {
  s = await startOrdersServer({ clock });
});
afterAll(async () => {
  await s.server.close();
});
auditLedgerAfterEach(() => s);

describe('expiry burst', () => {
  it('settles 400 orders expiring together in batches, each once, on the right tick', async () => {
    const orders = s.server.ctx.services.orders;
    const users = [await makeUser(s), await makeUser(s), await makeUser(s), await makeUser(s)];
    s.feed.push('EURUSD', 1.16);
    const placed: Array<{ id: number; direction: 'up' | 'down'; expiresAt: number }> = [];
    for (let i = 0; i < 400; i++) {
      clock.advance(1);
      const direction = i % 2 ? 'up' : 'down';
      const { order } = await orders.place(users[i % 4].id, {
        pair_code: 'EURUSD',
        direction,
        amount: 1,
        currency: 'USD',
        trading_account: 'DemoAccount',
        expiry: 5,
      });
      placed.push({ id: order.order_id, direction, expiresAt: order.expires_at_ms });
    }

    // Count the write transactions settlement uses from here on.
    let transactions = 0;
    const tx = orders.deps.tx;
    orders.deps.tx = (fn) => {
      transactions++;
      return tx(fn);
    };
    try {
      const first = Math.min(...placed.map((p) => p.expiresAt));
      const last = Math.max(...placed.map((p) => p.expiresAt));
      clock.set(first - 100);
      const exit = s.feed.push('EURUSD', 1.1601); // before every expiry: every order's close tick
      clock.set(last + 50);
      s.feed.push('EURUSD', 1.1599); // after every expiry: makes 1.1601 final for all of them

      const db = s.server.ctx.db;
      const deadline = Date.now() + 20_000;
      for (;;) {
        const open = await db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'open').executeTakeFirstOrThrow();
        if (Number(open.n) === 0) break;
        if (Date.now() > deadline) throw new Error(`${open.n} orders still open`);
        await sleep(20);
      }

      expect(transactions).toBeGreaterThan(0);
      // One transaction per batch, not per order (the old scheduler used 400).
      expect(transactions).toBeLessThanOrEqual(200);

      const rows = await db
        .selectFrom('orders')
        .select(['id', 'direction', 'result', 'close_price', 'exit_tick_seq'])
        .where('id', 'in', placed.map((p) => p.id))
        .execute();
      expect(rows).toHaveLength(400);
      for (const r of rows) {
        expect(r.close_price).toBe(1.1601);
        expect(Number(r.exit_tick_seq)).toBe(exit.seq);
        expect(r.result).toBe(r.direction === 'up' ? 'won' : 'lost');
      }
      // Each winner was paid exactly once.
      const keys = await db
        .selectFrom('ledger_transactions')
        .select('idempotency_key')
        .where('idempotency_key', 'in', placed.map((p) => settleKey(p.id)))
        .execute();
      expect(keys).toHaveLength(200);
      expect(new Set(keys.map((k) => k.idempotency_key)).size).toBe(200);
    } finally {
      orders.deps.tx = tx;
    }
  });
});
