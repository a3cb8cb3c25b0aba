/**
 * The operator console's login and guard against a real server: password + TOTP (both required,
 * one text for every failure), the lock after 5 failures per operator and per IP, the session
 * cookie's attributes, logout and disable ending a session at once, the CSRF header, and the two
 * planes never accepting each other's credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSRF_HEADER, ConsoleText, OPERATOR_COOKIE } from '../../contract/console';
import { startTestServer, type TestServer } from '../support/server';
import { consoleClient, consoleLogin, createOperator, sessionCookieOf, type TestOperator } from '../support/operators';
import { register } from '../support/auth';

let server: TestServer;
beforeAll(async () => {
  // Behind a "proxy" on 127.0.0.1, so a test can send its failures from an address of its own.
  server = await startTestServer({ RATE_LIMIT: 'false', TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => {
  await server.close();
});

function login(body: unknown, headers: Record<string, string> = { [CONSOLE_CSRF_HEADER]: '1' }, ip?: string) {
  return fetch(`${server.baseUrl}/api/console/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers, ...(ip ? { 'x-forwarded-for': ip } : {}) },
    body: JSON.stringify(body),
  });
}

async function auditRows(action: string) {
  return server.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();
}

describe('operator login', () => {
  it('needs the password and a TOTP code; sets an HttpOnly SameSite=Strict cookie scoped to /api/console', async () => {
    const op = await createOperator(server, 'support');
    const res = await login({ username: op.username, password: op.password, totp: op.code() });
    expect(res.status).toBe(200);
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith(`${OPERATOR_COOKIE}=`))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\/api\/console/);
    const client = consoleClient(server, sessionCookieOf(res)!);
    const me = await client.api('GET', '/api/console/me');
    expect(me.status).toBe(200);
    expect(me.body.data.operator.username).toBe(op.username);
    expect(me.body.data.permissions).toContain('users.read');
    expect(me.body.data.permissions).not.toContain('payments.decide');
  });

  it('refuses a missing code, a wrong code, a wrong password and an unknown name with the same text', async () => {
    const op = await createOperator(server, 'finance');
    const missing = await login({ username: op.username, password: op.password });
    expect(missing.status).toBe(400);
    const answers = [
      await login({ username: op.username, password: op.password, totp: '000000' }, undefined, '10.1.0.1'),
      await login({ username: op.username, password: 'wrong-password-123', totp: op.code() }, undefined, '10.1.0.2'),
      await login({ username: 'nobody-here', password: op.password, totp: '123456' }, undefined, '10.1.0.3'),
    ];
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe(ConsoleText.loginFailed);
    }
  });

  it('a used code does not work twice', async () => {
    const op = await createOperator(server, 'risk');
    const code = op.code();
    expect((await login({ username: op.username, password: op.password, totp: code })).status).toBe(200);
    expect((await login({ username: op.username, password: op.password, totp: code }, undefined, '10.2.0.1')).status).toBe(401);
  });

  it('locks the operator after 5 failures for 15 minutes, even with the right password and code', async () => {
    const op = await createOperator(server, 'compliance');
    for (let i = 0; i < 5; i++) expect((await login({ username: op.username, password: 'wrong-password-123', totp: '111111' }, undefined, `10.0.0.${i + 1}`)).status).toBe(401);
    const locked = await login({ username: op.username, password: op.password, totp: op.code() });
    expect(locked.status).toBe(429);
    expect((await locked.json()).error).toBe(ConsoleText.locked);
    expect((await auditRows('operator.login_failed')).filter((r) => Number(r.operator_id) === op.id)).toHaveLength(5);
  });

  it('locks an address after 5 failures, whichever operators it tried', async () => {
    const ip = '10.3.0.1';
    for (let i = 0; i < 5; i++) expect((await login({ username: `guess${i}`, password: 'wrong-password-123', totp: '111111' }, undefined, ip)).status).toBe(401);
    const op = await createOperator(server, 'support');
    expect((await login({ username: op.username, password: op.password, totp: op.code() }, undefined, ip)).status).toBe(429);
    expect((await login({ username: op.username, password: op.password, totp: op.code() }, undefined, '10.3.0.2')).status).toBe(200);
  });

  it('requires the x-console header on state-changing requests', async () => {
    const op = await createOperator(server, 'support');
    const res = await login({ username: op.username, password: op.password, totp: op.code() }, {});
    expect(res.status).toBe(403);
    const client = await consoleLogin(server, op);
    const out = await fetch(`${server.baseUrl}/api/console/logout`, { method: 'POST', headers: { cookie: `${OPERATOR_COOKIE}=${client.cookie}` } });
    expect(out.status).toBe(403);
    expect((await client.api('GET', '/api/console/me')).status).toBe(200);
  });

  it('logout and disable end the session at once', async () => {
    const admin = await createOperator(server, 'admin');
    const op = await createOperator(server, 'support');
    const a = await consoleLogin(server, op);
    expect((await a.api('POST', '/api/console/logout')).status).toBe(200);
    expect((await a.api('GET', '/api/console/me')).status).toBe(401);
    const b = await consoleLogin(server, op);
    const adminClient = await consoleLogin(server, admin);
    expect((await adminClient.api('POST', `/api/console/operators/${op.id}/disable`, { reason: 'left the company' })).status).toBe(200);
    expect((await b.api('GET', '/api/console/me')).status).toBe(401);
    expect((await login({ username: op.username, password: op.password, totp: op.code() }, undefined, '10.4.0.1')).status).toBe(401);
  });
});

describe('two planes, two kinds of credentials', () => {
  let op: TestOperator;
  beforeAll(async () => {
    op = await createOperator(server, 'admin');
  });

  it('a trader token on the console API is a 401', async () => {
    const trader = await register(server);
    const res = await server.api('GET', '/api/console/me', undefined, trader.token);
    expect(res.status).toBe(401);
    // Even beside a valid operator cookie, a bearer token is refused.
    const client = await consoleLogin(server, op);
    expect((await client.api('GET', '/api/console/me', undefined, { authorization: `Bearer ${trader.token}` })).status).toBe(401);
  });

  it('an operator session on the trader API is a 401', async () => {
    const client = await consoleLogin(server, op);
    for (const url of ['/api/platform/auth/me', '/api/v2/alerts']) {
      const res = await fetch(server.baseUrl + url, { headers: { cookie: `${OPERATOR_COOKIE}=${client.cookie}` } });
      expect(res.status).toBe(401);
      const bearer = await server.api('GET', url, undefined, client.cookie);
      expect(bearer.status).toBe(401);
    }
  });
});
