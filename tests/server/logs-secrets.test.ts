/**
 * The log (issue 34 item 3, docs/operations.md "Logs"): JSON lines with a request id (echoed as
 * `x-request-id`) and the user's id once the token is checked, and none of the secrets a run
 * handled: passwords, access and refresh tokens, the 2FA secret and codes, the admin link's and
 * the reset link's tokens, the reset code, a card number. The server logs at `debug` into a
 * captured stream while the flows run, then the text is searched for each secret.
 */
import { TOTP, Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { lastMailTo, linkTokenFrom, register, resetCodeFrom } from '../support/auth';
import { createAdminToken } from '../../server/domain/auth/admin';
import { redactUrl } from '../../server/http/logging';

const lines: string[] = [];
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'debug' }, { logStream: { write: (line) => void lines.push(line) } });
});
afterAll(async () => {
  await server?.close();
});

describe('the log', () => {
  it('carries request and user ids and none of the secrets the requests held', async () => {
    const secrets: Record<string, string> = {};
    const u = await register(server, { password: 'Log!Secret9Pass', password_confirmation: 'Log!Secret9Pass' });
    secrets.password = u.password;
    secrets.accessToken = u.token;
    secrets.refreshToken = u.refreshToken;

    // A failed and a good login, a refresh.
    expect((await server.api('POST', '/api/platform/auth/login', { username: u.username, password: 'Wrong!Guess77' })).status).toBe(401);
    secrets.wrongPassword = 'Wrong!Guess77';
    const login = await server.api('POST', '/api/platform/auth/login', { username: u.username, password: u.password }, undefined, { 'x-request-id': 'lb-req-42' });
    expect(login.status).toBe(200);
    const refreshed = await server.api('POST', '/api/platform/auth/refresh', { refresh_token: login.body.data.refresh_token });
    secrets.loginToken = login.body.data.token;
    secrets.loginRefresh = login.body.data.refresh_token;
    if (refreshed.status === 200) secrets.refreshedToken = refreshed.body.data.token;

    // Two-factor: the secret and a code.
    const setup = await server.api('POST', '/api/v2/user/2fa/enable', undefined, u.token);
    expect(setup.status).toBe(200);
    secrets.totpSecret = setup.body.data.secret;
    const code = TOTP.generate({ secret: Secret.fromBase32(setup.body.data.secret), timestamp: server.ctx.now() });
    secrets.totpCode = code;
    expect((await server.api('POST', '/api/v2/user/2fa/verify', { code }, u.token)).status).toBe(200);

    // The operator's one-time admin link, opened as a page and exchanged.
    const adminToken = await server.ctx.tx((trx) => createAdminToken(trx, u.userId, 300, server.ctx.now()));
    secrets.adminToken = adminToken;
    await server.raw('GET', `/trading?token=${encodeURIComponent(adminToken)}`);
    expect((await server.api('POST', '/api/admin/session', { token: adminToken })).status).toBe(200);

    // A password reset: the code and the link's token.
    const other = await register(server);
    expect((await server.api('POST', '/api/platform/auth/forgot-password', { email: other.email })).status).toBe(200);
    const mail = await lastMailTo(server, other.email);
    secrets.resetCode = resetCodeFrom(mail!.body);
    secrets.resetLinkToken = linkTokenFrom(mail!.body, '/reset-password');
    await server.raw('GET', `/reset-password?token=${secrets.resetLinkToken}`);
    await server.api('POST', '/api/platform/password/confirm-reset-password', { email: other.email, code: secrets.resetCode });

    // A card number in a request body (refused or not, a body is never logged).
    secrets.cardNumber = '4111111111111111';
    await server.api('POST', '/api/v2/transactions/withdrawal', { payment_method_id: 'card', amount: 10, currency: 'USD', card_number: secrets.cardNumber }, u.token);

    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(20);
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThanOrEqual(6);
      expect(text.includes(value), `${name} is in the log`).toBe(false);
    }

    const entries = lines.map((l) => JSON.parse(l) as Record<string, any>);
    // The balancer's request id is taken, logged and echoed.
    expect(entries.some((e) => e.reqId === 'lb-req-42' && e.msg === 'request completed')).toBe(true);
    // An authenticated request's lines carry the user's id.
    expect(entries.some((e) => e.userId === u.userId && e.msg === 'request completed')).toBe(true);
    // Every request line has an id, and addresses keep their secret values out.
    for (const e of entries.filter((x) => x.req)) {
      expect(typeof e.reqId).toBe('string');
      expect(e.req.url).not.toMatch(/token=(?!\[redacted\])/);
    }
  });

  it('echoes the request id in the answer', async () => {
    const r = await server.raw('GET', '/api/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(r.headers.get('x-request-id')).toBe('abc-123');
    const own = await server.raw('GET', '/api/health', { headers: { 'x-request-id': 'not a valid id <script>' } });
    expect(own.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('redacts the values of secret query parameters only', () => {
    expect(redactUrl('/trading?token=abc&pair=EURUSD')).toBe('/trading?token=[redacted]&pair=EURUSD');
    expect(redactUrl('/x?Code=1&refresh_token=z&q=token')).toBe('/x?Code=[redacted]&refresh_token=[redacted]&q=token');
    expect(redactUrl('/api/platform/orders/12')).toBe('/api/platform/orders/12');
  });
});
