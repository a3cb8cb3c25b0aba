/**
 * The operator's views of the books and the risk limit (issue 13 items 2 and 3, docs/money.md):
 * `books`, `pnl`, `exposure`, `risk`, and `audit`'s zero-sum check, run through the real CLI
 * entry (runCli in this process, and one run as its own process) on the database of a running
 * server whose orders were placed and settled through the HTTP API.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Order } from '../../contract/orders';
import { OrderErrorText } from '../../contract/orders';
import { runCli } from '../../server/cli/admin';
import {
  balance,
  expectLedgerClean,
  makeUser,
  startOrdersServer,
  waitClosed,
  type OrdersServer,
  type TestUser,
} from '../support/orders-harness';
import { databaseEnv, testDialect } from '../support/test-database';
import { migrationsFor } from '../../server/db/migrations';

let s: OrdersServer;
let user: TestUser;
const today = () => new Date(s.clock!.t).toISOString().slice(0, 10);

beforeAll(async () => {
  s = await startOrdersServer();
  user = await makeUser(s, { USD: 100_000 });
});
afterAll(async () => {
  await s.server.close();
});
afterEach(async () => {
  await expectLedgerClean(s);
});

/** The real CLI entry in this process; stdout and stderr captured. */
async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
  const error = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void err.push(String(line)));
  try {
    const code = await runCli(args, { ...databaseEnv(s.server.dataDir), LOG_LEVEL: 'silent', NODE_ENV: 'test', ...env });
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

async function json<T = any>(args: string[]): Promise<T> {
  const r = await cli([...args, '--json']);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as T;
}

function place(body: Record<string, unknown>) {
  return s.server.api<{ order: Order }>(
    'POST',
    '/api/v2/orders',
    { pair_code: 'EURUSD', amount: 10, currency: 'USD', trading_account: 'RealAccount', expiry: 5, direction: 'up', ...body },
    user.token,
  );
}

async function placeOk(body: Record<string, unknown>): Promise<Order> {
  const r = await place(body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data!.order;
}

async function settle(o: Order, closePrice: number): Promise<void> {
  const clock = s.clock!;
  clock.set(o.expires_at_ms);
  s.feed.push(o.pair_code, closePrice, o.expires_at_ms);
  clock.advance(1);
  s.feed.push(o.pair_code, closePrice, clock.t);
  await waitClosed(s, o.order_id);
}

describe('books, pnl, exposure and the risk limit', () => {
  it('books: every account kind per currency, summing to zero', async () => {
    const books = await json(['books']);
    expect(books.currencies.USD).toEqual({
      accounts: { 'house:clearing:test': -100_000, 'house:demo_issuer': -1_000_000, 'users:demo': 1_000_000, 'users:real': 100_000 },
      sum: 0,
    });
    const text = await cli(['books']);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/house:clearing:test\s+-1000\.00 USD/);
    expect(text.out).toMatch(/sum\s+0\.00 USD/);
  });

  it('pnl: the house result of closed real orders per day and pair; demo apart', async () => {
    const clock = s.clock!;
    s.feed.push('EURUSD', 1.16, clock.advance(10));
    const won = await placeOk({ direction: 'up', amount: 100 });
    await settle(won, 1.1612); // won: pays 192.00
    s.feed.push('EURUSD', 1.16, clock.advance(10));
    const lost = await placeOk({ direction: 'down', amount: 50 });
    await settle(lost, 1.1612); // lost: pays 0
    s.feed.push('EURUSD', 1.16, clock.advance(10));
    const demo = await placeOk({ direction: 'up', amount: 10, trading_account: 'DemoAccount' });
    await settle(demo, 1.1612); // demo win
    // pnl groups by the UTC day of the close. The test clock starts at the real time, so a run
    // near midnight closes these orders on two days: the expected rows come from each order's
    // own close day, and the sums per kind are the same either way.
    const closeDay = new Map<number, string>();
    for (const r of await s.server.ctx.db.selectFrom('orders').select(['id', 'closed_at']).where('id', 'in', [won.order_id, lost.order_id, demo.order_id]).execute()) {
      closeDay.set(Number(r.id), new Date(Number(r.closed_at)).toISOString().slice(0, 10));
    }
    const rowsOf = (orders: { id: number; stake: number; payout: number }[]) => {
      const byDay = new Map<string, { day: string; pair: string; currency: string; orders: number; stakes: number; payouts: number; house_result: number }>();
      for (const o of orders) {
        const day = closeDay.get(o.id)!;
        const row = byDay.get(day) ?? { day, pair: 'EURUSD', currency: 'USD', orders: 0, stakes: 0, payouts: 0, house_result: 0 };
        row.orders += 1;
        row.stakes += o.stake;
        row.payouts += o.payout;
        row.house_result += o.stake - o.payout;
        byDay.set(day, row);
      }
      return [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day));
    };
    const days = [...new Set(closeDay.values())].sort();
    const pnl = await json(['pnl', '--from', days[0]!, '--to', days[days.length - 1]!]);
    expect(pnl.real).toEqual(rowsOf([{ id: won.order_id, stake: 10_000, payout: 19_200 }, { id: lost.order_id, stake: 5_000, payout: 0 }]));
    expect(pnl.demo).toEqual(rowsOf([{ id: demo.order_id, stake: 1_000, payout: 1_920 }]));
    expect(pnl.totals).toEqual({ USD: -4_200 });
    // The realised result is what the house's trading account holds once nothing is open.
    const books = await json(['books']);
    expect(books.currencies.USD.accounts['house:trading']).toBe(-4_200);
    expect(books.currencies.USD.accounts['house:demo_issuer']).toBe(-1_000_000 - 920);
    expect(books.currencies.USD.sum).toBe(0);
    // Another day has nothing.
    const before = await json(['pnl', '--from', '2020-01-01', '--to', '2020-01-02']);
    expect(before.real).toEqual([]);
    expect(before.totals).toEqual({});
    const bad = await cli(['pnl', '--from', today()]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--to must be a date YYYY-MM-DD');
  });

  it('exposure: open real orders per direction and the worst case; the risk limit refuses an order that would exceed it', async () => {
    const clock = s.clock!;
    s.feed.push('EURUSD', 1.16, clock.advance(10));
    const open = [
      await placeOk({ direction: 'up', amount: 20, expiry: 3600 }),
      await placeOk({ direction: 'up', amount: 20, expiry: 3600 }),
      await placeOk({ direction: 'down', amount: 30, expiry: 3600 }),
      await placeOk({ direction: 'down', amount: 30, expiry: 3600, trading_account: 'DemoAccount' }),
    ];
    expect(open).toHaveLength(4);
    const exposure = await json(['exposure']);
    // up wins: pays 2 x 38.40 = 76.80 against 70.00 of stakes held: the house loses 6.80.
    expect(exposure.pairs).toEqual([
      {
        pair: 'EURUSD',
        directions: {
          up: { count: 2, stakes: { USD: 4_000 }, payouts: { USD: 7_680 } },
          down: { count: 1, stakes: { USD: 3_000 }, payouts: { USD: 5_760 } },
        },
        worst_case_usd_minor: 680,
        limit_usd_minor: 5_000_000,
      },
    ]);

    const set = await cli(['risk', 'set-limit', 'eurusd', '10']);
    expect(set.code, set.err).toBe(0);
    expect(set.out).toBe('Risk limit of EURUSD: 10.00 USD');
    expect(await json(['risk', 'show'])).toEqual({ default_usd_minor: 5_000_000, pairs: [{ pair: 'EURUSD', limit_usd_minor: 1_000 }] });

    // Up 10 more: up would pay 96.00 against 80.00 held, 16.00 > 10.00: refused, nothing moves.
    const realBefore = await balance(s, user.id, 'USD', 'real');
    const orders = async () => (await s.server.ctx.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    const countBefore = await orders();
    const refused = await place({ direction: 'up', amount: 10, expiry: 3600 });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(OrderErrorText.riskLimit);
    expect(await balance(s, user.id, 'USD', 'real')).toBe(realBefore);
    expect(await orders()).toBe(countBefore);
    // A demo order is play money: not limited.
    await placeOk({ direction: 'up', amount: 10, expiry: 3600, trading_account: 'DemoAccount' });
    // Down 10 lowers the risk (both outcomes now cost nothing): accepted though over nothing.
    await placeOk({ direction: 'down', amount: 10, expiry: 3600 });
    expect((await json(['exposure'])).pairs[0].worst_case_usd_minor).toBe(0);

    // A limit of 0 stops every order that adds risk; clearing returns to the default.
    expect((await cli(['risk', 'set-limit', 'EURUSD', '0'])).code).toBe(0);
    expect((await place({ direction: 'up', amount: 5, expiry: 3600 })).status).toBe(409);
    const cleared = await cli(['risk', 'clear-limit', 'EURUSD']);
    expect(cleared.out).toBe('Risk limit of EURUSD: back to the default 50000.00 USD');
    await placeOk({ direction: 'up', amount: 10, expiry: 3600 });

    // Bad usage: exit 2 with the reason.
    const unknown = await cli(['risk', 'set-limit', 'NOPAIR', '10']);
    expect([unknown.code, unknown.err.split('\n')[0]]).toEqual([2, 'Unknown pair NOPAIR']);
    const cents = await cli(['risk', 'set-limit', 'EURUSD', '1.234']);
    expect(cents.code).toBe(2);
    expect(cents.err).toContain('at most 2 decimals');
    // The configured default (RISK_MAX_PAIR_LOSS_USD) is what `risk show` reports.
    const configured = await cli(['risk', 'show', '--json'], { RISK_MAX_PAIR_LOSS_USD: '1234' });
    expect(JSON.parse(configured.out).default_usd_minor).toBe(123_400);
  });

  it('audit: checks the zero sum and says which currency is off', async () => {
    const ok = await cli(['audit']);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toContain('Books balance: every currency and every ledger transaction sums to zero');
    expect(ok.out).toContain('Exposure OK');
    // Skew a house balance (house_balances is not append-only): both checks report it.
    await s.server.ctx.db.updateTable('house_balances').set((eb) => ({ amount: eb('amount', '+', 1) })).where('account', '=', 'house:trading').where('currency', '=', 'USD').execute();
    try {
      const bad = await cli(['audit']);
      expect(bad.code).toBe(1);
      expect(bad.err).toContain('house USD house:trading: balance');
      expect(bad.err).toContain('Books UNBALANCED');
      expect(bad.err).toContain('USD: all accounts sum to 1, not 0');
      const books = await cli(['books', '--json']);
      expect(books.code).toBe(1);
      expect(JSON.parse(books.out).currencies.USD.sum).toBe(1);
    } finally {
      await s.server.ctx.db.updateTable('house_balances').set((eb) => ({ amount: eb('amount', '-', 1) })).where('account', '=', 'house:trading').where('currency', '=', 'USD').execute();
    }
  });

  it('audit: reports a per-pair exposure that no longer matches the open orders', async () => {
    const db = s.server.ctx.db;
    const row = await db.selectFrom('pair_exposure').selectAll().where('open_count', '>', 0).executeTakeFirstOrThrow();
    const where = (q: any) => q.where('pair_code', '=', row.pair_code).where('direction', '=', row.direction).where('currency', '=', row.currency);
    await where(db.updateTable('pair_exposure').set({ stakes: Number(row.stakes) + 5 })).execute();
    try {
      const bad = await cli(['audit']);
      expect(bad.code).toBe(1);
      expect(bad.err).toContain(`Exposure MISMATCH: pair_exposure differs from the open orders\n  ${row.pair_code} ${row.direction} ${row.currency}: kept ${row.open_count} orders, stakes ${Number(row.stakes) + 5}`);
    } finally {
      await where(db.updateTable('pair_exposure').set({ stakes: Number(row.stakes) })).execute();
    }
    expect((await cli(['audit'])).code).toBe(0);
  });

  it('books --json as an operator runs it (npm run admin, its own process)', async () => {
    const r = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        path.resolve('node_modules/.bin/tsx'),
        ['server/cli/admin.ts', 'books', '--json'],
        { env: { ...process.env, ...databaseEnv(s.server.dataDir), LOG_LEVEL: 'silent', NODE_ENV: 'test' }, timeout: 60_000 },
        (err, stdout) => resolve({ code: err ? 1 : 0, stdout: String(stdout) }),
      );
    });
    expect(r.code).toBe(0);
    const books = JSON.parse(r.stdout);
    expect(Object.keys(books)).toEqual(['currencies']);
    expect(books.currencies.USD.sum).toBe(0);
    expect(Object.values(books.currencies.USD.accounts).reduce((a: number, b) => a + (b as number), 0)).toBe(0);
  });
});

describe('migrate', () => {
  it('applies nothing more on an up-to-date database and lists the migrations, naming the dialect', async () => {
    const r = await cli(['migrate']);
    expect(r.code, r.err).toBe(0);
    const dialect = testDialect() === 'postgres' ? 'PostgreSQL' : 'SQLite';
    const names = Object.keys(migrationsFor('sqlite'));
    expect(r.out).toContain(`Database (${dialect}) is up to date: ${names.length} migrations applied, the last ${names[names.length - 1]}.`);
    expect(r.out).toContain('  001_core');
    expect((await cli(['migrate', 'now'])).code).toBe(2);
  });
});

describe('the configured default limit', () => {
  let t: OrdersServer;
  afterAll(async () => {
    await t?.server.close();
  });
  it('RISK_MAX_PAIR_LOSS_USD is the limit of a pair without its own', async () => {
    t = await startOrdersServer({ env: { RISK_MAX_PAIR_LOSS_USD: '50' } });
    const u = await makeUser(t, { USD: 100_000 });
    t.feed.push('EURUSD', 1.16, t.clock!.advance(10));
    const order = (amount: number) =>
      t.server.api('POST', '/api/v2/orders', { pair_code: 'EURUSD', amount, currency: 'USD', trading_account: 'RealAccount', expiry: 60, direction: 'up' }, u.token);
    // 50 USD up risks 46.00 (<= 50.00); another 10 would make it 55.20.
    expect((await order(50)).status).toBe(201);
    const refused = await order(10);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(OrderErrorText.riskLimit);
    await expectLedgerClean(t);
  });
});
