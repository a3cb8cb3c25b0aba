/**
 * What exists only on PostgreSQL (the `server-pg` project runs this file; the SQLite project
 * leaves it out, vitest.config.ts): the pool's type parsing fails loudly on a bigint or numeric
 * that is not a safe integer; transactions racing on one balance on a real connection pool never
 * overdraw and never pay twice (20 concurrent real and demo placements, 20 concurrent early
 * closes, 20 concurrent demo resets); a transaction runs again after a serialization failure,
 * a deadlock or a unique violation; and the plpgsql guards refuse what the SQLite triggers refuse
 * (append-only ledger and tick batches, the zero-sum seal, entries of a sealed transaction,
 * changed ticks).
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MAX_TRANSACTION_ATTEMPTS, dialectOf, transaction } from '../../server/db';
import { UnsafeIntegerError } from '../../server/db/postgres';
import { balance, makeUser, orderLedger, type TestUser, useOrdersServer } from '../support/orders-harness';
import type { Order } from '../../contract/orders';

const s = useOrdersServer();

const PAIR = 'EURUSD';
const db = () => s.server.ctx.db;

function place(user: TestUser, over: Record<string, unknown> = {}) {
  return s.server.api<{ order: Order }>(
    'POST',
    '/api/v2/orders',
    { pair_code: PAIR, direction: 'up', amount: 10, currency: 'USD', trading_account: 'RealAccount', expiry: 600, ...over },
    user.token,
  );
}

it('runs on PostgreSQL', () => {
  expect(dialectOf(db())).toBe('postgres');
});

describe('type parsing', () => {
  it('returns bigint, count(*) and sum(bigint) as numbers', async () => {
    const r = await sql<{ big: unknown; n: unknown; total: unknown }>`
      select 9007199254740991::bigint as big, count(*) as n, sum(x) as total from (values (9000000000000::bigint), (7::bigint)) v(x)
    `.execute(db());
    expect(r.rows[0]).toEqual({ big: 9007199254740991, n: 2, total: 9000000000007 });
  });

  it('fails the query when a bigint is past 2^53', async () => {
    await expect(sql`select 9007199254740993::bigint as n`.execute(db())).rejects.toBeInstanceOf(UnsafeIntegerError);
    await expect(sql`select sum(x) as total from (values (9007199254740991::bigint), (2::bigint)) v(x)`.execute(db())).rejects.toThrow(/not a safe integer/);
  });

  it('fails the query on a numeric with a fraction', async () => {
    await expect(sql`select 1.5::numeric as n`.execute(db())).rejects.toBeInstanceOf(UnsafeIntegerError);
    await expect(sql`select avg(x) as a from (values (1::bigint), (2::bigint)) v(x)`.execute(db())).rejects.toThrow(/1\.5/);
  });

  it('the pool stays usable after a refused value', async () => {
    await expect(sql`select 1e30::numeric as n`.execute(db())).rejects.toBeInstanceOf(UnsafeIntegerError);
    const r = await sql<{ n: number }>`select 5::bigint as n`.execute(db());
    expect(r.rows[0].n).toBe(5);
  });
});

describe('concurrent transactions on one balance', () => {
  it('20 concurrent placements of 10 against 95: exactly 9 accepted, the balance never negative', async () => {
    const user = await makeUser(s, { USD: 95_00 });
    s.feed.push(PAIR, 1.16, s.clock!.advance(10));
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => place(user, { direction: i % 2 ? 'up' : 'down' })));
    const accepted = results.filter((r) => r.status === 201);
    expect(accepted).toHaveLength(9);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('Insufficient balance');
    }
    expect(await balance(s, user.id, 'USD', 'real')).toBe(5_00);
    const rows = await db().selectFrom('orders').select('id').where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(9);
  });

  it('20 concurrent demo placements of 600 against 10,000: exactly 16 accepted (no pair lock: the balance row lock alone)', async () => {
    const user = await makeUser(s);
    s.feed.push(PAIR, 1.16, s.clock!.advance(10));
    const results = await Promise.all(Array.from({ length: 20 }, () => place(user, { trading_account: 'DemoAccount', amount: 600 })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(16);
    expect(results.filter((r) => r.status === 400)).toHaveLength(4);
    expect(await balance(s, user.id, 'USD', 'demo')).toBe(400_00);
  });

  it('20 concurrent placements with one client_request_id: one order, one debit', async () => {
    const user = await makeUser(s, { USD: 100_00 });
    s.feed.push(PAIR, 1.16, s.clock!.advance(10));
    const results = await Promise.all(Array.from({ length: 20 }, () => place(user, { client_request_id: 'pg-race-0001' })));
    expect(results.every((r) => r.status === 201 || r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.body.data!.order.order_id)).size).toBe(1);
    expect(await balance(s, user.id, 'USD', 'real')).toBe(90_00);
  });

  it('20 concurrent early closes of one order: one payout', async () => {
    const user = await makeUser(s, { USD: 100_00 });
    s.feed.push(PAIR, 1.16, s.clock!.advance(10));
    const placed = await place(user, { amount: 20 });
    expect(placed.status).toBe(201);
    const o = placed.body.data!.order;
    s.clock!.advance(10_000);
    s.feed.push(PAIR, 1.161, s.clock!.t);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => s.server.api<{ order: Order }>('POST', `/api/platform/orders/${o.order_id}/close`, {}, user.token)),
    );
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 200));
    const payouts = new Set(results.map((r) => r.body.data!.order.payout));
    expect(payouts.size).toBe(1);
    const paid = Math.round([...payouts][0]! * 100);
    expect(paid).toBeGreaterThan(0);
    expect(await balance(s, user.id, 'USD', 'real')).toBe(80_00 + paid);
    expect(await orderLedger(s, o.order_id)).toHaveLength(2);
  });

  it('20 concurrent demo resets leave exactly the demo amount', async () => {
    const user = await makeUser(s);
    s.feed.push(PAIR, 1.16, s.clock!.advance(10));
    expect((await place(user, { trading_account: 'DemoAccount', amount: 123 })).status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => s.server.api('POST', '/api/v2/payments/reset-demo-balance', { currency: 'USD' }, user.token)),
    );
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(await balance(s, user.id, 'USD', 'demo')).toBe(1_000_000);
  });
});

describe('transaction retries', () => {
  const failing = (code: string) => Object.assign(new Error(`simulated ${code}`), { code });

  it('runs the whole function again after a serialization failure, a deadlock or a unique violation, rolling back each failed attempt', async () => {
    for (const code of ['40001', '40P01', '23505']) {
      const key = `pg-retry-${code}`;
      let attempts = 0;
      const result = await transaction(db(), async (trx) => {
        attempts++;
        await trx.insertInto('outbox').values({ channel: 'test', recipient: key, subject: String(attempts), body: '', created_at: 0 }).execute();
        if (attempts < 3) throw failing(code);
        return 'done';
      });
      expect(result).toBe('done');
      expect(attempts).toBe(3);
      // Only the attempt that committed left its row.
      expect(await db().selectFrom('outbox').select('subject').where('recipient', '=', key).execute()).toEqual([{ subject: '3' }]);
    }
  });

  it('gives up after MAX_TRANSACTION_ATTEMPTS, and never retries another error', async () => {
    let attempts = 0;
    await expect(
      transaction(db(), async () => {
        attempts++;
        throw failing('40001');
      }),
    ).rejects.toThrow('simulated 40001');
    expect(attempts).toBe(MAX_TRANSACTION_ATTEMPTS);
    attempts = 0;
    await expect(
      transaction(db(), async () => {
        attempts++;
        throw failing('23503');
      }),
    ).rejects.toThrow('simulated 23503');
    expect(attempts).toBe(1);
  });

  it('a real deadlock between two transactions: one is chosen to fail, runs again, and both commit', async () => {
    const a = await makeUser(s, { USD: 10_00 });
    const b = await makeUser(s, { USD: 10_00 });
    let attempts = 0;
    // Each locks one user row, waits, then wants the other's: PostgreSQL detects the cycle (40P01).
    const touch = (first: number, second: number, name: string) =>
      transaction(db(), async (trx) => {
        attempts++;
        await trx.updateTable('users').set({ updated_at: 1 }).where('id', '=', first).execute();
        await sql`select pg_sleep(0.2)`.execute(trx);
        await trx.updateTable('users').set({ updated_at: 2 }).where('id', '=', second).execute();
        await trx.insertInto('outbox').values({ channel: 'test', recipient: 'pg-deadlock', subject: name, body: '', created_at: 0 }).execute();
      });
    await Promise.all([touch(a.id, b.id, 'a-then-b'), touch(b.id, a.id, 'b-then-a')]);
    expect(attempts).toBe(3);
    const rows = await db().selectFrom('outbox').select('subject').where('recipient', '=', 'pg-deadlock').orderBy('subject').execute();
    expect(rows.map((r) => r.subject)).toEqual(['a-then-b', 'b-then-a']);
  });
});

describe('the database guards', () => {
  it('ledger tables and tick batches are append-only: update, delete and truncate are refused', async () => {
    const user = await makeUser(s, { USD: 10_00 });
    const entry = await db().selectFrom('ledger_entries').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    await expect(db().updateTable('ledger_entries').set({ amount: 1 }).where('id', '=', entry.id).execute()).rejects.toThrow(/ledger_entries is append-only: update refused/);
    await expect(db().deleteFrom('ledger_entries').where('id', '=', entry.id).execute()).rejects.toThrow(/ledger_entries is append-only: delete refused/);
    for (const table of ['ledger_entries', 'ledger_transactions', 'house_entries', 'ledger_seals']) {
      await expect(sql.raw(`truncate ${table} cascade`).execute(db())).rejects.toThrow(/is append-only: truncate refused/);
    }
    await expect(sql`delete from house_entries`.execute(db())).rejects.toThrow(/house_entries is append-only/);
    await expect(sql`update ledger_seals set created_at = 0`.execute(db())).rejects.toThrow(/ledger_seals is append-only/);
    await expect(sql`update ledger_transactions set kind = 'x'`.execute(db())).rejects.toThrow(/ledger_transactions is append-only/);
    await s.server.ctx.services.market.flush();
    await expect(sql`update market_tick_batches set tick_count = tick_count + 1`.execute(db())).rejects.toThrow(/market_tick_batches is append-only/);
    await expect(sql`delete from market_tick_batches`.execute(db())).rejects.toThrow(/market_tick_batches is append-only/);
    await expect(sql`update market_ticks set price = price + 1 where batch_id is not null`.execute(db())).rejects.toThrow(/market_ticks rows do not change/);
  });

  it('a seal of an unbalanced transaction and an entry of a sealed one are refused', async () => {
    const user = await makeUser(s, { USD: 10_00 });
    const now = Date.now();
    await expect(
      transaction(db(), async (trx) => {
        const tx = await trx
          .insertInto('ledger_transactions')
          .values({ idempotency_key: 'pg-unbalanced', kind: 'deposit_credit', user_id: user.id, ref_type: null, ref_id: null, created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('ledger_entries')
          .values({ ledger_tx_id: tx.id, user_id: user.id, currency: 'USD', account: 'real', amount: 5, balance_after: 10_05, created_at: now })
          .execute();
        await trx.insertInto('ledger_seals').values({ ledger_tx_id: tx.id, created_at: now }).execute();
      }),
    ).rejects.toThrow(/does not balance/);
    const sealed = await db().selectFrom('ledger_seals').select('ledger_tx_id').orderBy('ledger_tx_id', 'desc').executeTakeFirstOrThrow();
    await expect(
      db()
        .insertInto('house_entries')
        .values({ ledger_tx_id: sealed.ledger_tx_id, account: 'house:suspense', currency: 'USD', amount: 0, balance_after: 0, created_at: now })
        .execute(),
    ).rejects.toThrow(/ledger transaction is sealed: house_entries insert refused/);
    // Nothing of the refused transaction stayed.
    expect(await db().selectFrom('ledger_transactions').select('id').where('idempotency_key', '=', 'pg-unbalanced').execute()).toEqual([]);
  });
});
