/**
 * Property test of the books (issue 13 item 7, docs/money.md): fast-check model-based commands
 * against the real server (HTTP API, the payments service the operator's commands call, the
 * settlement scheduler) and its real SQLite database. Commands: real and demo orders (each
 * sent twice at once), their replays (same client_request_id, again twice at once), early
 * closes (two requests at once) and their replays, expiries (the test clock and the price feed
 * move; the scheduler settles; settling again pays nothing), deposits, withdrawals, operator
 * approvals and rejections (two at once) and their replays, demo resets.
 *
 * After every command: every user's real / demo / hold balance equals the model's (the model
 * adds what the order rows and payment rows say was paid, so the ledger must agree with them);
 * every currency and every ledger transaction sums to zero, every transaction is sealed, every
 * balance equals its entries, no user balance is negative, the per-pair exposure the risk limit
 * reads equals the open orders; and a replay changes nothing at all in the books.
 *
 * Bounded for CI: at most RUNS runs of at most MAX_COMMANDS commands, interrupted after
 * TIME_LIMIT_MS (what ran must have passed).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../contract/orders';
import { auditLedger, checkZeroSum, getBalanceMinor, readBooks } from '../../server/domain/ledger';
import { applySettlement } from '../../server/domain/orders/settle-order';
import { exposureDrift } from '../../server/domain/orders/exposure';
import { openFamily } from '../../server/domain/auth/sessions';
import { makeUser, startOrdersServer, type OrdersServer } from '../support/orders-harness';

const RUNS = 100;
const MAX_COMMANDS = 25;
const TIME_LIMIT_MS = 40_000;
const PAIR = 'EURUSD';
const DEMO_START = 1_000_000;

interface MUser {
  id: number;
  /** The session family the access tokens are signed for (a fresh token per request: the test clock jumps). */
  family: string;
  real: number;
  demo: number;
  hold: number;
}
interface MOrder {
  id: number;
  user: number;
  account: 'real' | 'demo';
  stake: number;
  expiresAt: number;
  body: Record<string, unknown>;
  open: boolean;
}
interface MPayment {
  id: number;
  user: number;
  kind: 'deposit' | 'withdrawal';
  amount: number;
  open: boolean;
}
interface Model {
  users: MUser[];
  orders: MOrder[];
  payments: MPayment[];
  /** Closed orders (by id) whose payout the model has taken in. */
  closedSeen: Set<number>;
  requestSeq: number;
}

let s: OrdersServer;
beforeAll(async () => {
  s = await startOrdersServer({ env: { RATE_LIMIT: 'false' } });
});
afterAll(async () => {
  await s?.server.close();
});

async function api<T = any>(method: string, url: string, body: unknown, u: MUser) {
  const ctx = s.server.ctx;
  const token = await ctx.tokens.sign({ userId: u.id, sessionType: 'user', family: u.family }, ctx.now());
  return s.server.api<T>(method, url, body, token);
}
const payments = () => s.server.ctx.services.payments;

/** A fresh tick at the clock's time (prices stay around 1.16 so orders win, lose and tie). */
function tick(price: number): void {
  s.feed.push(PAIR, price, s.clock!.advance(1000));
}

/** Take in the payouts of every model order the server has closed (expiry, early close, timers). */
async function syncClosed(m: Model): Promise<void> {
  const open = m.orders.filter((o) => o.open);
  if (open.length === 0) return;
  const rows = await s.server.ctx.db
    .selectFrom('orders')
    .select(['id', 'status', 'payout', 'stake', 'result'])
    .where(
      'id',
      'in',
      open.map((o) => o.id),
    )
    .execute();
  for (const r of rows) {
    if (r.status !== 'closed' || m.closedSeen.has(r.id)) continue;
    const o = open.find((x) => x.id === r.id)!;
    const payout = Number(r.payout ?? 0);
    // Never more than the order can pay: stake x (1 + rate) at most, never negative.
    expect(payout).toBeGreaterThanOrEqual(0);
    expect(payout).toBeLessThanOrEqual(o.stake * 2);
    if (r.result === 'tie' || r.result === 'refunded') expect(payout).toBe(o.stake);
    if (r.result === 'lost') expect(payout).toBe(0);
    const u = m.users[o.user];
    if (o.account === 'real') u.real += payout;
    else u.demo += payout;
    o.open = false;
    m.closedSeen.add(r.id);
  }
}

/**
 * Wait until the server has settled every model order whose expiry the test clock has passed, and
 * take in their payouts: the scheduler settles on its own, so a command that moves the clock must
 * not race it (an order refunded a moment later would make the model's balance stale).
 */
async function settleDue(m: Model): Promise<void> {
  const due = m.orders.filter((o) => o.open && o.expiresAt <= s.clock!.t);
  const deadline = Date.now() + 5000;
  while (due.length > 0) {
    const rows = await s.server.ctx.db.selectFrom('orders').select('status').where('id', 'in', due.map((o) => o.id)).execute();
    if (rows.every((r) => r.status === 'closed')) break;
    if (Date.now() > deadline) throw new Error('orders did not settle at expiry');
    await new Promise((r) => setTimeout(r, 10));
  }
  await syncClosed(m);
}

let checks = 0;
/** Every invariant of the books, and the model's balances. */
async function checkAll(m: Model): Promise<void> {
  checks++;
  await syncClosed(m);
  const db = s.server.ctx.db;
  for (const u of m.users) {
    expect({ real: await getBalanceMinor(db, u.id, 'USD', 'real'), demo: await getBalanceMinor(db, u.id, 'USD', 'demo'), hold: await getBalanceMinor(db, u.id, 'USD', 'real_hold') }).toEqual({
      real: u.real,
      demo: u.demo,
      hold: u.hold,
    });
  }
  expect(await checkZeroSum(db)).toEqual({ currencies: [], transactions: [], unsealed: [] });
  expect(await auditLedger(db)).toEqual([]);
  // What the risk limit reads (kept by triggers) is what the open orders say.
  expect(await exposureDrift(db)).toEqual([]);
  const min = await db.selectFrom('balances').select((eb) => eb.fn.min<number>('amount').as('min')).executeTakeFirstOrThrow();
  expect(Number(min.min ?? 0)).toBeGreaterThanOrEqual(0);
}

/** Run `act` and check that the books did not move at all (a replay pays nothing). */
async function unchanged(act: () => Promise<void>): Promise<void> {
  const before = await readBooks(s.server.ctx.db);
  await act();
  expect(await readBooks(s.server.ctx.db)).toEqual(before);
}

type Cmd = fc.AsyncCommand<Model, OrdersServer>;

class PlaceOrder implements Cmd {
  constructor(
    readonly user: number,
    readonly account: 'real' | 'demo',
    readonly direction: 'up' | 'down',
    readonly dollars: number,
    readonly expiry: number,
    readonly price: number,
  ) {}
  check = () => true;
  async run(m: Model): Promise<void> {
    const u = m.users[this.user];
    tick(this.price);
    await settleDue(m);
    const stake = this.dollars * 100;
    const body = {
      pair_code: PAIR,
      direction: this.direction,
      amount: this.dollars,
      currency: 'USD',
      trading_account: this.account === 'real' ? 'RealAccount' : 'DemoAccount',
      expiry: this.expiry,
      client_request_id: `prop-${u.id}-${++m.requestSeq}`,
    };
    // Sent twice at once (a client retrying over a flaky network): one order, one stake.
    const [r, twin] = await Promise.all([0, 1].map(() => api<{ order: Order }>('POST', '/api/v2/orders', body, u)));
    const available = this.account === 'real' ? u.real : u.demo;
    if (stake > available) {
      expect([r.status, twin.status], JSON.stringify(r.body)).toEqual([400, 400]);
      expect(r.body.error).toBe('Insufficient balance');
    } else {
      expect([r.status, twin.status].sort(), JSON.stringify([r.body, twin.body])).toEqual([200, 201]);
      expect(twin.body.data!.order.order_id).toBe(r.body.data!.order.order_id);
      const order = r.body.data!.order;
      if (this.account === 'real') u.real -= stake;
      else u.demo -= stake;
      m.orders.push({ id: order.order_id, user: this.user, account: this.account, stake, expiresAt: order.expires_at_ms, body, open: true });
    }
    await checkAll(m);
  }
  toString = () => `place(u${this.user} ${this.account} ${this.direction} $${this.dollars} ${this.expiry}s @${this.price})`;
}

class ReplayPlace implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.orders.length > 0;
  async run(m: Model): Promise<void> {
    const o = m.orders[this.pick % m.orders.length];
    await unchanged(async () => {
      // The same request sent again, twice at once: the first order each time, no second stake.
      const rs = await Promise.all([0, 1].map(() => api<{ order: Order }>('POST', '/api/v2/orders', o.body, m.users[o.user])));
      for (const r of rs) {
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.data!.order.order_id).toBe(o.id);
      }
    });
    await checkAll(m);
  }
  toString = () => `replayPlace(${this.pick})`;
}

class CloseEarly implements Cmd {
  constructor(
    readonly pick: number,
    readonly price: number,
    readonly replay: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.orders.some((o) => o.open);
  async run(m: Model): Promise<void> {
    await syncClosed(m);
    const open = m.orders.filter((o) => o.open && o.expiresAt > s.clock!.t + 2000);
    if (open.length === 0) return;
    const o = open[this.pick % open.length];
    tick(this.price);
    await settleDue(m);
    const owner = m.users[o.user];
    // Two close requests at once (a double tap): both answer the closed order, one payout.
    const [r, twin] = await Promise.all([0, 1].map(() => api<{ order: Order }>('POST', `/api/platform/orders/${o.id}/close`, {}, owner)));
    expect([r.status, twin.status], JSON.stringify([r.body, twin.body])).toEqual([200, 200]);
    expect(r.body.data!.order.result).toBe('closed_early');
    expect(twin.body.data!.order.payout).toBe(r.body.data!.order.payout);
    await checkAll(m);
    if (this.replay) {
      await unchanged(async () => {
        const again = await api<{ order: Order }>('POST', `/api/platform/orders/${o.id}/close`, {}, owner);
        expect(again.status).toBe(200);
        expect(again.body.data!.order.payout).toBe(r.body.data!.order.payout);
      });
      await checkAll(m);
    }
  }
  toString = () => `closeEarly(${this.pick} @${this.price}${this.replay ? ' +replay' : ''})`;
}

class Expire implements Cmd {
  constructor(readonly price: number) {}
  check = (m: Readonly<Model>) => m.orders.some((o) => o.open);
  async run(m: Model): Promise<void> {
    await syncClosed(m);
    const open = m.orders.filter((o) => o.open);
    if (open.length === 0) return;
    const clock = s.clock!;
    const at = Math.max(clock.t + 1, Math.min(...open.map((o) => o.expiresAt)));
    clock.set(at);
    s.feed.push(PAIR, this.price, at);
    s.feed.push(PAIR, this.price, clock.advance(1));
    // Every order the clock has now passed (an order 1 ms younger than the first too).
    const due = open.filter((o) => o.expiresAt <= clock.t);
    await settleDue(m);
    await checkAll(m);
    // Settling again (a second settler, a restart) pays nothing.
    await unchanged(async () => {
      for (const o of due) expect(await s.server.ctx.tx((trx) => applySettlement(trx, o.id, undefined, clock.t))).toBeNull();
    });
  }
  toString = () => `expire(@${this.price})`;
}

class Deposit implements Cmd {
  constructor(
    readonly user: number,
    readonly dollars: number,
  ) {}
  check = () => true;
  async run(m: Model): Promise<void> {
    const u = m.users[this.user];
    const r = await api(
      'POST',
      '/api/v2/transactions/deposit',
      { account_type: 'real', amount: this.dollars, currency: 'USD', payment_method_id: 'card_visa_mastercard', payment_system: 'cards' },
      u,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    m.payments.push({ id: r.body.data.transaction_id, user: this.user, kind: 'deposit', amount: this.dollars * 100, open: true });
    await checkAll(m);
  }
  toString = () => `deposit(u${this.user} $${this.dollars})`;
}

class Withdraw implements Cmd {
  constructor(
    readonly user: number,
    readonly dollars: number,
  ) {}
  check = () => true;
  async run(m: Model): Promise<void> {
    const u = m.users[this.user];
    const r = await api(
      'POST',
      '/api/v2/transactions/withdrawal',
      {
        amount: this.dollars,
        currency: 'USD',
        payment_method_id: 'card_visa_mastercard',
        account_type: 'real',
        payment_system: 'cards',
        payment_details: { requisites: '4111 1111 1111 1111', payment_method: 'card' },
      },
      u,
    );
    const amount = this.dollars * 100;
    if (amount > u.real) {
      expect(r.status, JSON.stringify(r.body)).toBe(400);
    } else {
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      u.real -= amount;
      u.hold += amount;
      m.payments.push({ id: r.body.data.transaction_id, user: this.user, kind: 'withdrawal', amount, open: true });
    }
    await checkAll(m);
  }
  toString = () => `withdraw(u${this.user} $${this.dollars})`;
}

/** The operator approves or rejects a payment (the function `npm run admin -- tx approve|reject` calls), then maybe again. */
class Review implements Cmd {
  constructor(
    readonly pick: number,
    readonly approve: boolean,
    readonly replay: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.payments.some((p) => p.open);
  async run(m: Model): Promise<void> {
    const open = m.payments.filter((p) => p.open);
    const p = open[this.pick % open.length];
    const u = m.users[p.user];
    // Two operators (or the CLI and a callback) deciding at once: exactly one decision applies.
    const decide = () => (this.approve ? payments().approve(p.id) : payments().reject(p.id, 'Rejected in the property test'));
    const outcomes = await Promise.all([decide(), decide()]);
    expect(outcomes.map((o) => o.changed).sort()).toEqual([false, true]);
    p.open = false;
    if (p.kind === 'deposit' && this.approve) u.real += p.amount;
    if (p.kind === 'withdrawal') {
      u.hold -= p.amount;
      if (!this.approve) u.real += p.amount;
    }
    await checkAll(m);
    if (this.replay) {
      await unchanged(async () => {
        // The same decision again changes nothing; the opposite one is refused (a final status).
        const same = this.approve ? await payments().approve(p.id) : await payments().reject(p.id, 'again');
        expect(same.changed).toBe(false);
        await expect(this.approve ? payments().reject(p.id, 'again') : payments().approve(p.id)).rejects.toThrow(/cannot be/);
      });
      await checkAll(m);
    }
  }
  toString = () => `${this.approve ? 'approve' : 'reject'}(${this.pick}${this.replay ? ' +replay' : ''})`;
}

class DemoReset implements Cmd {
  constructor(readonly user: number) {}
  check = () => true;
  async run(m: Model): Promise<void> {
    const u = m.users[this.user];
    const r = await api('POST', '/api/v2/payments/reset-demo-balance', { currency: 'USD' }, u);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    u.demo = DEMO_START;
    await checkAll(m);
  }
  toString = () => `demoReset(u${this.user})`;
}

const USERS = 2;
const user = fc.nat({ max: USERS - 1 });
const price = fc.constantFrom(1.1598, 1.16, 1.1602);
const place = fc
  .tuple(user, fc.constantFrom<'real' | 'demo'>('real', 'demo'), fc.constantFrom<'up' | 'down'>('up', 'down'), fc.integer({ min: 1, max: 400 }), fc.constantFrom(60, 300, 3600), price)
  .map(([u, a, d, amount, expiry, p]) => new PlaceOrder(u, a, d, amount, expiry, p));
const commands = [
  // Orders twice as often as the rest.
  place,
  place,
  fc.nat().map((n) => new ReplayPlace(n)),
  fc.tuple(fc.nat(), price, fc.boolean()).map(([n, p, replay]) => new CloseEarly(n, p, replay)),
  price.map((p) => new Expire(p)),
  fc.tuple(user, fc.integer({ min: 10, max: 600 })).map(([u, d]) => new Deposit(u, d)),
  fc.tuple(user, fc.integer({ min: 10, max: 300 })).map(([u, d]) => new Withdraw(u, d)),
  fc.tuple(fc.nat(), fc.boolean(), fc.boolean()).map(([n, approve, replay]) => new Review(n, approve, replay)),
  user.map((u) => new DemoReset(u)),
];

describe('the books under any sequence of money operations', () => {
  it('sum to zero, never leave a user balance negative, and pay nothing on a replay', async () => {
    let runs = 0;
    const ran: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: MAX_COMMANDS, size: 'max' }), async (cmds) => {
        runs++;
        const users: MUser[] = [];
        for (let i = 0; i < USERS; i++) {
          const u = await makeUser(s, {}, ['USD']);
          const ctx = s.server.ctx;
          const { family } = await ctx.tx((trx) => openFamily(trx, u.id, 'user', ctx.now(), ctx.config.refreshTokenTtl));
          users.push({ id: u.id, family, real: 0, demo: DEMO_START, hold: 0 });
        }
        // The first user starts with 500 USD of real money, deposited and approved the real way.
        const first = await api('POST', '/api/v2/transactions/deposit', { account_type: 'real', amount: 500, currency: 'USD', payment_method_id: 'card_visa_mastercard', payment_system: 'cards' }, users[0]);
        expect(first.status).toBe(201);
        expect((await payments().approve(first.body.data.transaction_id)).changed).toBe(true);
        users[0].real = 50_000;
        const setup = async () => ({ model: { users, orders: [], payments: [], closedSeen: new Set<number>(), requestSeq: 0 } as Model, real: s });
        await fc.asyncModelRun(setup, cmds);
        for (const c of cmds) {
          const name = String(c).replace(/\(.*$/, '');
          ran[name] = (ran[name] ?? 0) + 1;
        }
      }),
      { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS },
    );
    // The bound must not hide that nothing ran.
    expect(runs).toBeGreaterThanOrEqual(3);
    const results = await s.server.ctx.db.selectFrom('orders').select(['result', 'account']).select((eb) => eb.fn.countAll<number>().as('n')).groupBy(['result', 'account']).execute();
    console.log(`books property: ${runs} runs, ${checks} checks, commands generated ${JSON.stringify(ran)}, orders ${JSON.stringify(results)}`);
    // And the house's accounts really moved: trading, the demo issuer and the card clearing.
    const books = await readBooks(s.server.ctx.db);
    expect(Object.keys(books.currencies.USD.accounts)).toEqual(expect.arrayContaining(['house:trading', 'house:demo_issuer', 'house:clearing:manual']));
    expect(books.currencies.USD.sum).toBe(0);
  }, 90_000);
});
