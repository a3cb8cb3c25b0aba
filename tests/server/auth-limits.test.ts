/**
 * Rate limits with RATE_LIMIT=true: the per-IP limits of @fastify/rate-limit on login and
 * forgot-password, the per-account limits (failed logins, reset mails per address), and that
 * RATE_LIMIT=false turns all of it off. Also the demo-user seed (SEED_DEMO_USER=true).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { FakeClock, expectLedgerClean, mailCount, register } from '../support/auth';
import { getBalanceMinor } from '../../server/domain/ledger';
import { IP_LIMITS } from '../../server/routes/auth';
import { ACCOUNT_RULES } from '../../server/domain/auth/limits';

const TOO_MANY = 'Too many requests, please try again later';
const servers: TestServer[] = [];
async function start(env: Record<string, string>, clock?: FakeClock): Promise<TestServer> {
  const s = await startTestServer(env, clock ? { now: clock.now } : {});
  servers.push(s);
  return s;
}
afterEach(async () => {
  for (const s of servers.splice(0)) {
    await expectLedgerClean(s);
    await s.close();
  }
});

describe('per-IP limits', () => {
  it(`login: ${IP_LIMITS.login.max} a minute per IP, then 429 with the envelope`, async () => {
    const server = await start({ RATE_LIMIT: 'true' });
    for (let i = 0; i < IP_LIMITS.login.max; i++) {
      // A different unknown user each time, so the per-account limit is not what answers.
      const r = await server.api('POST', '/api/platform/auth/login', { username: `ghost${i}`, password: 'Wrong!Pass1' });
      expect(r.status).toBe(401);
    }
    const limited = await server.api('POST', '/api/platform/auth/login', { username: 'ghostlast', password: 'Wrong!Pass1' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, data: null, error: TOO_MANY, error_message: TOO_MANY });
  });

  it(`forgot-password: ${IP_LIMITS.sensitive.max} per 15 minutes per IP`, async () => {
    const server = await start({ RATE_LIMIT: 'true' });
    for (let i = 0; i < IP_LIMITS.sensitive.max; i++) {
      expect((await server.api('POST', '/api/platform/auth/forgot-password', { email: `someone${i}@example.com` })).status).toBe(200);
    }
    const limited = await server.api('POST', '/api/platform/auth/forgot-password', { email: 'another@example.com' });
    expect(limited.status).toBe(429);
    expect(limited.body.error_message).toBe(TOO_MANY);
  });

  it('RATE_LIMIT=false turns the limits off', async () => {
    const server = await start({ RATE_LIMIT: 'false' });
    const u = await register(server);
    for (let i = 0; i < IP_LIMITS.login.max + ACCOUNT_RULES.loginFailures.max + 2; i++) {
      expect((await server.api('POST', '/api/platform/auth/login', { username: u.username, password: 'Wrong!Pass1' })).status).toBe(401);
    }
    expect((await server.api('POST', '/api/platform/auth/login', { username: u.username, password: u.password })).status).toBe(200);
  });
});

describe('per-account limits', () => {
  it('after 10 failed logins in 15 minutes the account answers 429 (by username or email), for 15 minutes', async () => {
    const clock = new FakeClock();
    const server = await start({ RATE_LIMIT: 'true' }, clock);
    const u = await register(server);
    const other = await register(server);
    for (let i = 0; i < ACCOUNT_RULES.loginFailures.max; i++) {
      expect((await server.api('POST', '/api/platform/auth/login', { username: u.username, password: 'Wrong!Pass1' })).status).toBe(401);
    }
    const right = await server.api('POST', '/api/platform/auth/login', { username: u.username, password: u.password });
    expect(right.status).toBe(429);
    expect(right.body.error_message).toBe(TOO_MANY);
    expect((await server.api('POST', '/api/platform/auth/login', { email: u.email, password: u.password })).status).toBe(429);
    // Another account from the same IP is not affected.
    expect((await server.api('POST', '/api/platform/auth/login', { username: other.username, password: other.password })).status).toBe(200);

    clock.advance(ACCOUNT_RULES.loginFailures.windowMs + 1);
    expect((await server.api('POST', '/api/platform/auth/login', { username: u.username, password: u.password })).status).toBe(200);
  });

  it('a successful login clears the failures', async () => {
    const server = await start({ RATE_LIMIT: 'true' });
    const u = await register(server);
    const fail = () => server.api('POST', '/api/platform/auth/login', { username: u.username, password: 'Wrong!Pass1' });
    for (let i = 0; i < ACCOUNT_RULES.loginFailures.max - 1; i++) expect((await fail()).status).toBe(401);
    expect((await server.api('POST', '/api/platform/auth/login', { username: u.username, password: u.password })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await fail()).status).toBe(401);
  });

  it('forgot-password sends at most 5 mails an hour per address and still answers success', async () => {
    const server = await start({ RATE_LIMIT: 'true' });
    const u = await register(server);
    const before = await mailCount(server, u.email);
    const answers = [];
    for (let i = 0; i < ACCOUNT_RULES.resetRequests.max + 2; i++) {
      answers.push(await server.api('POST', '/api/platform/auth/forgot-password', { email: u.email }));
    }
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body).toEqual(answers[0].body);
    }
    expect(await mailCount(server, u.email)).toBe(before + ACCOUNT_RULES.resetRequests.max);
  });
});

describe('demo user seed', () => {
  it('creates demo / Demo#Trade2026 with 10,000 demo and 1,000 real USD, once', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-demo-'));
    try {
      const first = await start({ SEED_DEMO_USER: 'true', RATE_LIMIT: 'false', DATA_DIR: dataDir });
      expect(first.ctx.services.demoLogin).toEqual({ username: 'demo', password: 'Demo#Trade2026' });
      const login = await first.api('POST', '/api/platform/auth/login', { username: 'demo', password: 'Demo#Trade2026' });
      expect(login.status).toBe(200);
      expect(login.body.data.user).toMatchObject({
        username: 'demo',
        email: 'demo@tradeterminal.local',
        email_verified: true,
        balances: { USD: { RealBalance: 1000, DemoBalance: 10000 } },
        front_settings: { current_currency: 'USD', balance_type: 'DemoBalance' },
      });
      const id = login.body.data.user.user_id;
      const seed = await first.ctx.db.selectFrom('ledger_transactions').selectAll().where('idempotency_key', '=', 'seed:demo-real').execute();
      expect(seed).toHaveLength(1);
      expect(seed[0].kind).toBe('deposit_credit');
      await expectLedgerClean(first);
      await first.close();
      servers.splice(servers.indexOf(first), 1);

      // A restart on the same data seeds nothing twice and still offers the login.
      const second = await start({ SEED_DEMO_USER: 'true', RATE_LIMIT: 'false', DATA_DIR: dataDir });
      expect(second.ctx.services.demoLogin).toEqual({ username: 'demo', password: 'Demo#Trade2026' });
      expect(await second.ctx.db.selectFrom('users').select('id').where('username', '=', 'demo').execute()).toHaveLength(1);
      expect(await getBalanceMinor(second.ctx.db, id, 'USD', 'real')).toBe(100_000);
      expect(await getBalanceMinor(second.ctx.db, id, 'USD', 'demo')).toBe(1_000_000);
    } finally {
      for (const s of servers.splice(0)) await s.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is not created when SEED_DEMO_USER is false', async () => {
    const server = await start({ SEED_DEMO_USER: 'false' });
    expect(server.ctx.services.demoLogin).toBeNull();
    expect(await server.ctx.db.selectFrom('users').select('id').execute()).toHaveLength(0);
  });
});
