/**
 * The operator command `npm run admin -- order <id>` as a person runs it (tsx server/cli/admin.ts
 * in a child process on the DATA_DIR of a running test server): it prints the order with its
 * entry and exit ticks as the tick log holds them and re-checks the settlement from the log
 * (won, tie, lost, early close, open), says DISAGREES (exit 1) when the log and what was paid
 * differ, CANNOT VERIFY (exit 3) when the log lacks the ticks, and refuses bad usage (exit 2).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../contract/orders';
import { expectLedgerClean, makeUser, startOrdersServer, waitClosed, type OrdersServer, type TestUser } from '../support/orders-harness';
import { databaseEnv, dropTrigger } from '../support/test-database';

let s: OrdersServer;
let user: TestUser;
beforeAll(async () => {
  s = await startOrdersServer();
  user = await makeUser(s);
});
afterAll(async () => {
  await s.server.close();
});
afterEach(async () => {
  await expectLedgerClean(s);
});

const TSX = path.resolve('node_modules/.bin/tsx');

function admin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      ['server/cli/admin.ts', ...args],
      { env: { ...process.env, ...databaseEnv(s.server.dataDir), LOG_LEVEL: 'silent', NODE_ENV: 'test' }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

async function place(body: Record<string, unknown>): Promise<Order> {
  const r = await s.server.api<{ order: Order }>(
    'POST',
    '/api/v2/orders',
    { pair_code: 'EURUSD', amount: 10, currency: 'USD', trading_account: 'DemoAccount', expiry: 5, ...body },
    user.token,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data!.order;
}

async function settle(o: Order, closePrice: number): Promise<Order> {
  const clock = s.clock!;
  clock.set(o.expires_at_ms);
  s.feed.push(o.pair_code, closePrice, o.expires_at_ms);
  clock.advance(1);
  s.feed.push(o.pair_code, closePrice, clock.t);
  await waitClosed(s, o.order_id);
  const r = await s.server.api<{ order: Order }>('GET', `/api/platform/orders/${o.order_id}`, undefined, user.token);
  return r.body.data!.order;
}

describe('npm run admin -- order <id>', () => {
  // One order of each kind, then one command run per order (each run is a process of its own).
  let won: Order, lost: Order, tie: Order, closedEarly: Order, open: Order;
  beforeAll(async () => {
    const clock = s.clock!;
    s.feed.push('EURUSD', 1.16, clock.advance(10));
    won = await settle(await place({ direction: 'up' }), 1.1612);
    s.feed.push('EURUSD', 1.16, clock.advance(10));
    lost = await settle(await place({ direction: 'down', amount: 7 }), 1.1612);
    s.feed.push('EURUSD', 1.16, clock.advance(10));
    tie = await settle(await place({ direction: 'up', amount: 3 }), 1.16);
    s.feed.push('EURUSD', 1.16, clock.advance(10));
    const early = await place({ direction: 'up', expiry: 300 });
    s.feed.push('EURUSD', 1.1603, clock.advance(20_000));
    const closed = await s.server.api<{ order: Order }>('POST', `/api/platform/orders/${early.order_id}/close`, {}, user.token);
    expect(closed.status).toBe(200);
    closedEarly = closed.body.data!.order;
    expect(closedEarly.payout).toBeGreaterThan(0);
    s.feed.push('EURUSD', 1.1603, clock.advance(10));
    open = await place({ direction: 'down', expiry: 3600 });
    expect([won.result, lost.result, tie.result, closedEarly.result]).toEqual(['won', 'lost', 'tie', 'closed_early']);
    await s.server.ctx.services.market.flush();
  });
  afterAll(async () => {
    expect((await s.server.api('POST', `/api/platform/orders/${open.order_id}/close`, {}, user.token)).status).toBe(200);
  });

  it('prints a won order with its ticks from the log and agrees with its payout', async () => {
    const w = await admin(['order', String(won.order_id)]);
    expect(w.code, w.stderr + w.stdout).toBe(0);
    expect(w.stdout).toContain(`Order #${won.order_id}  user ${user.id}  EURUSD up  DemoAccount  stake 10.00 USD`);
    expect(w.stdout).toMatch(new RegExp(`Entry tick  seq ${won.entry_tick.seq} at \\S+ price 1\\.16000  \\| log: same`));
    expect(w.stdout).toMatch(new RegExp(`Exit tick   seq ${won.exit_tick!.seq} at \\S+ price 1\\.16120  \\| log: same`));
    expect(w.stdout).toContain(`Close by the rules (last logged tick at or before expiry): seq ${won.exit_tick!.seq}`);
    expect(w.stdout).toContain(`AGREES: won, paid ${won.payout!.toFixed(2)} USD`);
  });

  it('agrees with a lost and a tied order', async () => {
    const [l, t] = await Promise.all([admin(['order', String(lost.order_id)]), admin(['order', String(tie.order_id)])]);
    expect(l.code, l.stderr).toBe(0);
    expect(l.stdout).toContain('Ledger: stake debited 7.00 USD, credited at settlement 0.00 USD');
    expect(l.stdout).toContain('AGREES: lost, paid 0.00 USD');
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toContain('AGREES: tie, paid 3.00 USD');
  });

  it('re-prices an early close at its recorded moment, and leaves an open order open', async () => {
    const [e, o] = await Promise.all([admin(['order', String(closedEarly.order_id)]), admin(['order', String(open.order_id)])]);
    expect(e.code, e.stderr).toBe(0);
    expect(e.stdout).toContain(`Re-check: closed_early, payout ${closedEarly.payout!.toFixed(2)} USD`);
    expect(e.stdout).toContain(`AGREES: closed_early, paid ${closedEarly.payout!.toFixed(2)} USD`);
    expect(o.code, o.stderr).toBe(0);
    expect(o.stdout).toContain('status open');
    expect(o.stdout).toContain('OPEN: not settled yet');
  });
});

describe('npm run admin -- order <id> on a log that differs', () => {
  it('says DISAGREES when the log tells another story than what was paid, CANNOT VERIFY when the log lacks it', async () => {
    const clock = s.clock!;
    s.feed.push('GBPUSD', 1.33, clock.advance(10));
    const won = await settle(await place({ pair_code: 'GBPUSD', direction: 'up' }), 1.3312);
    await s.server.ctx.services.market.flush();
    const db = s.server.ctx.db;

    // The log now says the price fell to the exit: the order should have lost, yet it was paid.
    // (Tick rows are append-only since migration 009; this tamper goes around the guard.)
    await dropTrigger(db, 'market_ticks_sealed', 'market_ticks');
    await db.updateTable('market_ticks').set({ price: 1.3299 }).where('pair_code', '=', 'GBPUSD').where('seq', '=', won.exit_tick!.seq).execute();
    const bad = await admin(['order', String(won.order_id)]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('| log: seq');
    expect(bad.stdout).toContain('Re-check: lost, payout 0.00 USD');
    expect(bad.stdout).toContain('DISAGREES: the rules give lost, the order says won');
    expect(bad.stderr).toContain('DISAGREES with what was paid');

    // Without its entry tick the log cannot confirm the open price.
    await db.updateTable('market_ticks').set({ price: 1.3312 }).where('pair_code', '=', 'GBPUSD').where('seq', '=', won.exit_tick!.seq).execute();
    await db.deleteFrom('market_ticks').where('pair_code', '=', 'GBPUSD').where('seq', '=', won.entry_tick.seq).execute();
    const gap = await admin(['order', String(won.order_id)]);
    expect(gap.code).toBe(3);
    expect(gap.stdout).toContain('| log: not found');
    expect(gap.stdout).toContain(`CANNOT CHECK: the entry tick seq ${won.entry_tick.seq} is not in the tick log`);
    expect(gap.stderr).toContain('CANNOT VERIFY');
  });

  it('refuses an unknown order and bad usage', async () => {
    const missing = await admin(['order', '999999']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No order #999999');
    const usage = [['order', 'abc'], ['order', '1', '2']];
    const [help, ...runs] = await Promise.all([admin(['help']), ...usage.map((args) => admin(args))]);
    runs.forEach((r, i) => {
      expect(r.code, usage[i].join(' ')).toBe(2);
      expect(r.stderr).toContain('Usage: npm run admin -- order <id>');
    });
    expect(help.stdout).toContain('  order <id>');
  });
});
