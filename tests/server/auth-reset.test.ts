/**
 * Password reset over real HTTP with a clock the test moves: the same answer for known and
 * unknown addresses, the code read from the outbox, confirm -> one-time token -> new password,
 * the emailed link token, five wrong codes killing the request, expiry after one hour, single
 * use of everything, superseding, and the end of every session after a reset.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server-fixture';
import { FakeClock, lastMailTo, linkTokenFrom, mailCount, register, resetCodeFrom, type Registered } from '../support/auth';

const INVALID = 'Invalid reset token or expired, try to send reset link again';
const clock = new FakeClock();
const server = useTestServer({ RATE_LIMIT: 'false' }, { now: clock.now });

async function requestReset(u: Registered): Promise<{ code: string; linkToken: string; body: string }> {
  const r = await server.api('POST', '/api/platform/auth/forgot-password', { email: u.email });
  expect(r.status).toBe(200);
  const mail = await lastMailTo(server, u.email);
  expect(mail?.subject).toBe('Your password reset code');
  return { code: resetCodeFrom(mail!.body), linkToken: linkTokenFrom(mail!.body, '/reset-password'), body: mail!.body };
}

const confirm = (email: string, code: string) => server.api('POST', '/api/platform/password/confirm-reset-password', { email, code });
const reset = (token: string, newPassword: string) => server.api('POST', '/api/platform/auth/reset-password', { token, newPassword });
const login = (username: string, password: string) => server.api('POST', '/api/platform/auth/login', { username, password });
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('forgot-password', () => {
  it('answers the same for a registered and an unknown address, and mails only the registered one', async () => {
    const u = await register(server);
    const mailsBefore = await mailCount(server, u.email);
    const known = await server.api('POST', '/api/platform/auth/forgot-password', { email: u.email.toUpperCase() });
    const unknown = await server.api('POST', '/api/platform/auth/forgot-password', { email: `ghost.${u.email}` });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual({ success: true, data: { message: 'If the email is registered, a reset code has been sent' }, error: null, error_message: null });
    expect(unknown.body).toEqual(known.body);
    expect(await mailCount(server, u.email)).toBe(mailsBefore + 1);
    expect(await mailCount(server, `ghost.${u.email}`)).toBe(0);
    const mail = await lastMailTo(server, u.email);
    expect(mail!.body).toMatch(/Your reset code: \d{6}/);
    expect(mail!.body).toContain(`${server.ctx.publicUrl()}/reset-password?token=`);
  });

  it('stores neither the code nor the link token in clear', async () => {
    const u = await register(server);
    const { code, linkToken } = await requestReset(u);
    const row = await server.ctx.db.selectFrom('password_resets').selectAll().where('user_id', '=', u.userId).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(code);
    expect(JSON.stringify(row)).not.toContain(linkToken);
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('mails in the user\'s language', async () => {
    const u = await register(server, { language: 'ru' });
    await server.api('POST', '/api/platform/auth/forgot-password', { email: u.email });
    const mail = await lastMailTo(server, u.email);
    expect(mail!.subject).toBe('Код для сброса пароля');
    expect(mail!.body).toMatch(/Ваш код для сброса: \d{6}/);
  });
});

describe('reset with the code', () => {
  it('code -> one-time token -> new password; every session ends; the old password stops working', async () => {
    const u = await register(server);
    const second = await login(u.username, u.password);
    const { code } = await requestReset(u);

    const c = await confirm(u.email, code);
    expect(c.status).toBe(200);
    expect(c.body.success).toBe(true);
    const token = c.body.data.token;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const done = await reset(token, 'N3w!Secret');
    expect(done.status).toBe(200);
    expect(done.body.success).toBe(true);
    expect(typeof done.body.data.message).toBe('string');

    for (const access of [u.token, second.body.data.token]) {
      expect((await server.api('GET', '/api/platform/auth/me', undefined, access)).status).toBe(401);
    }
    expect((await server.api('POST', '/api/platform/auth/refresh', { refresh_token: u.refreshToken })).status).toBe(401);
    expect((await login(u.username, u.password)).status).toBe(401);
    const fresh = await login(u.username, 'N3w!Secret');
    expect(fresh.status).toBe(200);
    // Reaching the inbox proved the address.
    expect(fresh.body.data.user.email_verified).toBe(true);

    // Everything was single use.
    const again = await reset(token, 'An0ther!Secret');
    expect(again.status).toBe(400);
    expect(again.body.error_message).toBe(INVALID);
    expect((await confirm(u.email, code)).status).toBe(400);
  });

  it('a confirmed code cannot be confirmed twice', async () => {
    const u = await register(server);
    const { code } = await requestReset(u);
    expect((await confirm(u.email, code)).status).toBe(200);
    const twice = await confirm(u.email, code);
    expect(twice.status).toBe(400);
    expect(twice.body.error_message).toBe(INVALID);
  });

  it('four wrong codes leave the request usable; the fifth kills it, even for the right code', async () => {
    const a = await register(server);
    const ra = await requestReset(a);
    for (let i = 0; i < 4; i++) {
      const r = await confirm(a.email, wrongCode(ra.code));
      expect(r.status).toBe(400);
      expect(r.body.error_message).toBe(INVALID);
    }
    expect((await confirm(a.email, ra.code)).status).toBe(200);

    const b = await register(server);
    const rb = await requestReset(b);
    for (let i = 0; i < 5; i++) expect((await confirm(b.email, wrongCode(rb.code))).status).toBe(400);
    const right = await confirm(b.email, rb.code);
    expect(right.status).toBe(400);
    expect(right.body.error_message).toBe(INVALID);
    // The link of the dead request is dead too.
    expect((await reset(rb.linkToken, 'N3w!Secret')).status).toBe(400);
    expect((await login(b.username, b.password)).status).toBe(200);
  });

  it('a code for an unknown address fails like a wrong one', async () => {
    const r = await confirm('nobody-at-all@example.com', '123456');
    expect(r.status).toBe(400);
    expect(r.body.error_message).toBe(INVALID);
  });

  it('a new request supersedes the older one', async () => {
    const u = await register(server);
    const first = await requestReset(u);
    const second = await requestReset(u);
    if (first.code !== second.code) expect((await confirm(u.email, first.code)).status).toBe(400);
    expect((await reset(first.linkToken, 'N3w!Secret')).status).toBe(400);
    expect((await confirm(u.email, second.code)).status).toBe(200);
  });

  it('refuses a weak new password without using up the token', async () => {
    const u = await register(server);
    const { code } = await requestReset(u);
    const token = (await confirm(u.email, code)).body.data.token;
    const weak = await reset(token, 'weakpass');
    expect(weak.status).toBe(400);
    expect(weak.body.error_message).toBe('Password must contain at least one uppercase letter');
    expect((await reset(token, 'N3w!Secret')).status).toBe(200);
  });

  it('a malformed code is a validation error', async () => {
    for (const code of ['12345', '1234567', 'abcdef', '12 456']) {
      const r = await confirm('someone@example.com', code);
      expect(r.status).toBe(400);
      expect(r.body.error_message).toBe('Reset code must be 6 digits');
    }
  });
});

describe('reset with the emailed link', () => {
  it('the link token resets once', async () => {
    const u = await register(server);
    const { linkToken } = await requestReset(u);
    expect((await reset(linkToken, 'L1nk!Secret')).status).toBe(200);
    expect((await login(u.username, 'L1nk!Secret')).status).toBe(200);
    const again = await reset(linkToken, 'L1nk!Other');
    expect(again.status).toBe(400);
    expect(again.body.error_message).toBe(INVALID);
    expect((await reset('q'.repeat(43), 'L1nk!Other')).status).toBe(400);
  });
});

describe('expiry after one hour', () => {
  it('the code, the confirmed token and the link work at 59 minutes and fail after 60', async () => {
    const a = await register(server);
    const ra = await requestReset(a);
    clock.advance(59 * 60_000);
    const token = (await confirm(a.email, ra.code)).body.data.token;
    expect(typeof token).toBe('string');
    clock.advance(60_001);
    const late = await reset(token, 'N3w!Secret');
    expect(late.status).toBe(400);
    expect(late.body.error_message).toBe(INVALID);

    const b = await register(server);
    const rb = await requestReset(b);
    clock.advance(60 * 60_000 + 1);
    expect((await confirm(b.email, rb.code)).status).toBe(400);
    expect((await reset(rb.linkToken, 'N3w!Secret')).status).toBe(400);
    // A new request works again.
    const rc = await requestReset(b);
    expect((await reset(rc.linkToken, 'N3w!Secret')).status).toBe(200);
  });

  it('access tokens expire with the clock; the refresh token still renews the session', async () => {
    const u = await register(server);
    clock.advance((server.ctx.config.accessTokenTtl + 1) * 1000);
    expect((await server.api('GET', '/api/platform/auth/me', undefined, u.token)).status).toBe(401);
    const r = await server.api('POST', '/api/platform/auth/refresh', { refresh_token: u.refreshToken });
    expect(r.status).toBe(200);
    expect((await server.api('GET', '/api/platform/auth/me', undefined, r.body.data.token)).status).toBe(200);
    clock.advance((server.ctx.config.refreshTokenTtl + 1) * 1000);
    expect((await server.api('POST', '/api/platform/auth/refresh', { refresh_token: r.body.data.refresh_token })).status).toBe(401);
  });

  it('a verification link expires after 48 hours', async () => {
    const u = await register(server);
    const token = linkTokenFrom((await lastMailTo(server, u.email))!.body, '/verify-email');
    clock.advance(48 * 3600_000 + 1);
    expect((await server.api('POST', '/api/platform/auth/verify-email', { token })).status).toBe(400);
  });
});
