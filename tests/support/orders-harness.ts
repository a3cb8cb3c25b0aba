/**
 * Shared set-up of the order tests: a real server whose prices come from a ManualFeed and whose
 * clock the test moves, users with a token and real/demo money, and small readers of balances
 * and ledger rows. Money is put in the way production does: postLedger inside ctx.tx.
 */
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from './server';
import { ManualFeed } from './manual-feed';
import { clearingAccount, getBalanceMinor, postLedger, resetDemo, withCounterparty, type Account } from '../../server/domain/ledger';
import { assertLedgerAudit, auditOnClose } from './ledger-audit';
import { openFamily } from '../../server/domain/auth/sessions';
import type { MarketService } from '../../server/domain/market/types';
import { insertUserRow } from './users';

/** A clock the test moves by hand (ctx.now); starts at the real time so tokens stay valid. */
export class TestClock {
  constructor(public t: number = Date.now()) {}
  readonly now = () => this.t;
  advance(ms: number): number {
    this.t += ms;
    return this.t;
  }
  set(ms: number): number {
    this.t = ms;
    return this.t;
  }
}

export interface OrdersServer {
  server: TestServer;
  feed: ManualFeed;
  clock: TestClock | null;
  market: MarketService;
}

/** Anything holding a running test server (the helpers below need nothing else). */
export type WithServer = Pick<OrdersServer, 'server'>;

export interface StartOptions {
  dataDir?: string;
  /** Drive ctx.now by hand; omit for the real clock. */
  clock?: TestClock | null;
  /** More environment for the server's configuration (e.g. RISK_MAX_PAIR_LOSS_USD). */
  env?: Record<string, string>;
}

export async function startOrdersServer(options: StartOptions = {}): Promise<OrdersServer> {
  const clock = options.clock === undefined ? new TestClock() : options.clock;
  const feed = new ManualFeed(clock ? clock.now : undefined);
  const env: Record<string, string> = { ...options.env, ...(options.dataDir ? { DATA_DIR: options.dataDir } : {}) };
  const server = await startTestServer(env, { marketFeed: feed, ...(clock ? { now: clock.now } : {}) });
  // The real `audit` command runs on this server's database when it closes.
  auditOnClose(server);
  const market = server.ctx.services.market;
  if (!market) throw new Error('the market module is not registered');
  // listen() resolves before the modules' start hooks finish: wait for the feed to be taken
  // and for the orders start (overdue settlement, scheduling) to be done.
  const orders = server.ctx.services.orders;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the orders module did not start within 10 s')), 10_000);
  });
  try {
    await Promise.race([orders.started, timeout]);
  } finally {
    clearTimeout(timer);
  }
  while (!feed.started) await sleep(5);
  return { server, feed, clock, market };
}

/**
 * One orders server for a test file: started before its tests, closed after them, the ledger
 * audited after every test. Returns a stand-in that forwards to the running server (as
 * useTestServer does), so a test file reads `s.server`, `s.feed` as before.
 */
export function useOrdersServer(options: StartOptions = {}): OrdersServer {
  let s: OrdersServer | null = null;
  beforeAll(async () => {
    s = await startOrdersServer(options);
  });
  afterAll(async () => {
    await s?.server.close();
  });
  afterEach(async () => {
    if (s) await expectLedgerClean(s);
  });
  return new Proxy({} as OrdersServer, {
    get: (_, key) => {
      if (!s) throw new Error('useOrdersServer: the server is not running (used outside a test?)');
      return Reflect.get(s, key);
    },
  });
}

export interface TestUser {
  id: number;
  token: string;
}

let userCounter = 0;

/**
 * A user with a token; demo USD 10,000 and, when asked, real money (minor units per currency).
 * Inserted directly (the register route is another area's and not what these tests are about).
 */
export async function makeUser(s: WithServer, real: Record<string, number> = {}, demo: string[] = ['USD']): Promise<TestUser> {
  const ctx = s.server.ctx;
  const now = ctx.now();
  const name = `trader${process.pid}x${++userCounter}x${Math.floor(Math.random() * 1e6)}`;
  const id = await insertUserRow(ctx.db, name, now);
  for (const code of demo) await ctx.tx((trx) => resetDemo(trx, id, code, `test-demo-open:${id}:${code}`, 'demo_open', now));
  for (const [code, amount] of Object.entries(real)) await creditReal(s, id, code, amount);
  // A real session family, so the token stays valid (ctx.services.sessions checks families).
  const session = await ctx.tx((trx) => openFamily(trx, id, 'user', now, ctx.config.refreshTokenTtl));
  const token = await ctx.tokens.sign({ userId: id, sessionType: 'user', family: session.family }, now);
  return { id, token };
}

let creditCounter = 0;
export async function creditReal(s: WithServer, userId: number, currency: string, amountMinor: number): Promise<void> {
  const key = `test-deposit:${userId}:${currency}:${++creditCounter}`;
  await s.server.ctx.tx((trx) =>
    postLedger(trx, { key, kind: 'deposit_credit', userId, entries: withCounterparty(clearingAccount('test'), [{ currency, account: 'real', amount: amountMinor }]) }),
  );
}

export function balance(s: WithServer, userId: number, currency: string, account: Account): Promise<number> {
  return getBalanceMinor(s.server.ctx.db, userId, currency, account);
}

/** Ledger transactions of one order (by ref), oldest first. */
export async function orderLedger(s: WithServer, orderId: number) {
  return s.server.ctx.db
    .selectFrom('ledger_transactions')
    .select(['idempotency_key', 'kind'])
    .where('ref_type', '=', 'order')
    .where('ref_id', '=', String(orderId))
    .orderBy('id')
    .execute();
}

export function expectLedgerClean(s: WithServer): Promise<void> {
  return assertLedgerAudit(s.server);
}

/** Poll the stored order until it is closed (settlement runs off the request path). */
export async function waitClosed(s: WithServer, orderId: number, timeoutMs = 4000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await s.server.ctx.db.selectFrom('orders').select(['status']).where('id', '=', orderId).executeTakeFirst();
    if (row?.status === 'closed') return;
    if (Date.now() > deadline) throw new Error(`order ${orderId} did not close within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** What a win credits, in minor units: stake x (1 + payout rate) toward zero, in exact integers. */
export function winCredit(stakeMinor: number, payoutRate: number): number {
  return Math.floor((stakeMinor * (10_000 + Math.round(payoutRate * 10_000))) / 10_000);
}
