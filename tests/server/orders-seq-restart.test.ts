/**
 * A crash between the market's batched tick writes: the ticks orders traded on are in the log
 * anyway (each entry tick is written in the order's placement transaction, each exit tick with
 * its settlement), and the next start numbers ticks after the highest seq of the log AND of the
 * ticks orders recorded, so no seq is handed out twice. On a log that lost an order's ticks (a
 * database from before this, or one an operator cut) numbering still continues after them, and
 * an order is never settled on a tick older than its entry.
 *
 * The crash: the market's writer is made to fail (everything stays in memory, as in the 500 ms
 * between two writes), then the database is copied with VACUUM INTO, which holds exactly what
 * was committed at that moment; the next server starts on the copy.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Order, OrderTicksResponse } from '../../contract/orders';
import { openDatabase } from '../../server/db';
import { auditLedger } from '../../server/domain/ledger';
import { FLUSH_INTERVAL_MS } from '../../server/domain/market/service';
import type { Tick } from '../../server/domain/market/types';
import { balance, makeUser, removeDir, startOrdersServer, sleep, TestClock, waitClosed, winCredit, type OrdersServer, type TestUser } from '../support/orders-harness';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-orders-seq-'));
afterAll(() => removeDir(root));
const dir = (name: string) => {
  const d = path.join(root, name);
  fs.mkdirSync(d, { recursive: true });
  return d;
};
const DB_FILE = 'tradeterminal.db';

async function place(s: OrdersServer, user: TestUser, body: Record<string, unknown>): Promise<Order> {
  const r = await s.server.api<{ order: Order }>(
    'POST',
    '/api/v2/orders',
    { pair_code: 'EURUSD', amount: 10, currency: 'USD', trading_account: 'DemoAccount', ...body },
    user.token,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data!.order;
}

async function loggedSeqs(s: OrdersServer, pair: string): Promise<number[]> {
  const rows = await s.server.ctx.db.selectFrom('market_ticks').select('seq').where('pair_code', '=', pair).orderBy('seq').execute();
  return rows.map((r) => Number(r.seq));
}

const ref = (t: Tick) => ({ seq: t.seq, time: t.time, price: t.price });

describe('tick seq after a crash', () => {
  it('keeps the ticks orders traded on and never hands out a seq twice', async () => {
    const T0 = Date.now();
    const clock1 = new TestClock(T0);
    const s1 = await startOrdersServer({ dataDir: dir('first'), clock: clock1 });
    const user = await makeUser(s1);
    const m1 = s1.server.ctx.services.market;
    const t1 = s1.feed.push('EURUSD', 1.16, T0);
    const t2 = s1.feed.push('EURUSD', 1.1601, clock1.advance(50));
    await m1.flush();

    // From here on the batched writer fails: nothing it holds reaches the database.
    const writer = vi.spyOn((m1 as unknown as { writer: { write: () => Promise<void> } }).writer, 'write').mockRejectedValue(new Error('disk gone'));
    let a: Order;
    let b: Order;
    let bExit: Tick;
    let lost: Tick[];
    const crashed = dir('crashed');
    try {
      const t3 = s1.feed.push('EURUSD', 1.1602, clock1.advance(50));
      b = await place(s1, user, { direction: 'up', expiry: 5 }); // entry t3
      const t4 = s1.feed.push('EURUSD', 1.1603, clock1.advance(50));
      a = await place(s1, user, { direction: 'down', expiry: 60 }); // entry t4
      expect([b.entry_tick.seq, a.entry_tick.seq]).toEqual([t3.seq, t4.seq]);
      clock1.set(b.expires_at_ms);
      bExit = s1.feed.push('EURUSD', 1.161, clock1.t);
      clock1.advance(1);
      lost = [s1.feed.push('EURUSD', 1.1612, clock1.t), s1.feed.push('EURUSD', 1.1613, clock1.advance(100))];
      await waitClosed(s1, b.order_id);
      // Let the 500 ms writer try (and fail) at least once.
      await sleep(FLUSH_INTERVAL_MS + 100);
      expect(writer).toHaveBeenCalled();
      // The crash: the database as committed at this moment.
      await sql`vacuum into ${sql.lit(path.join(crashed, DB_FILE))}`.execute(s1.server.ctx.db);
      // The rest of the data directory (the token secrets) survives a crash as it is.
      fs.copyFileSync(path.join(s1.server.dataDir, 'secrets.json'), path.join(crashed, 'secrets.json'));
    } finally {
      writer.mockRestore();
    }
    await s1.server.close();
    expect([t1.seq, t2.seq]).toEqual([1, 2]);

    // A second copy of the crash whose log lost the orders' ticks as well (a database from
    // before orders wrote their ticks, or a log an operator cut): seq 4 (a's entry) and 5 (b's exit).
    const cut = dir('cut');
    for (const file of [DB_FILE, 'secrets.json']) fs.copyFileSync(path.join(crashed, file), path.join(cut, file));
    const db = await openDatabase(path.join(cut, DB_FILE));
    await db.deleteFrom('market_ticks').where('pair_code', '=', 'EURUSD').where('seq', '>=', a.entry_tick.seq).execute();
    await db.destroy();

    // Restart on the crash: the orders' ticks are in the log, numbering goes on after them.
    const clock2 = new TestClock(T0 + 10_000);
    const s2 = await startOrdersServer({ dataDir: crashed, clock: clock2 });
    try {
      expect(await loggedSeqs(s2, 'EURUSD')).toEqual([1, 2, b.entry_tick.seq, a.entry_tick.seq, bExit.seq]);
      const next = s2.feed.push('EURUSD', 1.1605, clock2.advance(10));
      expect(next.seq).toBe(bExit.seq + 1);
      // Honest about the two ticks the crash lost: they were never recorded anywhere, and the
      // seq after the last one anybody recorded is the next one.
      expect(lost.map((t) => t.seq)).toEqual([bExit.seq + 1, bExit.seq + 2]);

      const r = await s2.server.api<OrderTicksResponse>('GET', `/api/platform/orders/${b.order_id}/ticks`, undefined, user.token);
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({
        status: 'closed',
        logged_entry_tick: b.entry_tick,
        logged_exit_tick: ref(bExit),
        missing_count: 0,
        pruned: false,
      });
      const ga = await s2.server.api<OrderTicksResponse>('GET', `/api/platform/orders/${a.order_id}/ticks`, undefined, user.token);
      expect(ga.body.data).toMatchObject({ status: 'open', logged_entry_tick: a.entry_tick, to_seq: next.seq });
      expect(ga.body.data!.ticks.map((t) => t.seq)).toEqual([a.entry_tick.seq, bExit.seq, next.seq]);
      expect(await auditLedger(s2.server.ctx.db)).toEqual([]);
    } finally {
      await s2.server.close();
    }

    // Restart on the cut log, after a's expiry: numbering continues after b's recorded exit
    // tick (seq 5), not after the log's last tick (seq 3); a is refunded rather than settled on
    // seq 3, a tick older than its entry.
    const clock3 = new TestClock(a.expires_at_ms + 60_000);
    const s3 = await startOrdersServer({ dataDir: cut, clock: clock3 });
    try {
      expect(await loggedSeqs(s3, 'EURUSD')).toEqual([1, 2, b.entry_tick.seq]);
      const ra = await s3.server.api<{ order: Order }>('GET', `/api/platform/orders/${a.order_id}`, undefined, user.token);
      expect(ra.body.data!.order).toMatchObject({ status: 'closed', result: 'refunded', close_reason: 'no_price_at_expiry', exit_tick: null, payout: 10 });
      // Time does not go back either: a tick older than b's exit tick is refused, though the
      // log's last tick (seq 3) is older still.
      expect(() => s3.feed.push('EURUSD', 1.17, bExit.time - 1)).toThrow(/refused/);
      const next = s3.feed.push('EURUSD', 1.17, clock3.advance(10));
      expect(next.seq).toBe(bExit.seq + 1);

      const ta = await s3.server.api<OrderTicksResponse>('GET', `/api/platform/orders/${a.order_id}/ticks`, undefined, user.token);
      expect(ta.body.data).toMatchObject({ logged_entry_tick: null, pruned: false, logged_count: 0, missing_count: 1 });
      // b won (settled before the crash), a's stake came back.
      expect(await balance(s3, user.id, 'USD', 'demo')).toBe(1_000_000 - 10_00 + winCredit(10_00, s3.market.getPair('EURUSD')!.payout_rate));
      expect(await auditLedger(s3.server.ctx.db)).toEqual([]);
    } finally {
      await s3.server.close();
    }
  });
});
