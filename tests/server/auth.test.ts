/**
 * Authentication over real HTTP: registration, login by username and by email, /me, token
 * refresh with rotation and reuse detection, logout, the admin-session exchange, email
 * verification and front settings. Rate limits are off here (auth-limits.test.ts covers them).
 */
import { withForeignKeysOff } from '../support/test-database';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server-fixture';
import { lastMailTo, linkTokenFrom, register, validRegistration } from '../support/auth';
import { createAdminToken } from '../../server/domain/auth/admin';
import { getBalanceMinor, postLedger, withCounterparty, HOUSE_DEMO_ISSUER } from '../../server/domain/ledger';

const server = useTestServer({ RATE_LIMIT: 'false' });

describe('registration', () => {
  it('creates the user, opens real 0 and demo 10,000 in the chosen currency, and logs in right away', async () => {
    const payload = validRegistration({ currency: 'eur', language: 'es', utm_source: 'newsletter', sub2: 'x2', click_id: 'c-1' });
    const r = await server.api('POST', '/api/platform/auth/register', payload, undefined, { 'user-agent': 'TestAgent/1.0' });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const data = r.body.data;
    expect(typeof data.token).toBe('string');
    expect(data.access_token).toBe(data.token);
    expect(data.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.expires_in).toBe(server.ctx.config.accessTokenTtl);
    expect(data.session_type).toBe('user');
    expect(data.user).toMatchObject({
      username: payload.username,
      email: payload.email,
      email_verified: false,
      two_factor_enabled: false,
      balances: { EUR: { RealBalance: 0, DemoBalance: 10000 } },
      front_settings: { current_currency: 'EUR', balance_type: 'DemoBalance', language: 'es', theme: null, currentPair: null },
    });

    const row = await server.ctx.db.selectFrom('users').selectAll().where('id', '=', data.user.user_id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.phone).toBe('+15550102030');
    expect(row.currency).toBe('EUR');
    expect(JSON.parse(row.tracking)).toEqual({ utm_source: 'newsletter', sub2: 'x2', click_id: 'c-1', user_agent: 'TestAgent/1.0' });
    expect(await getBalanceMinor(server.ctx.db, row.id, 'EUR', 'real')).toBe(0);
    expect(await getBalanceMinor(server.ctx.db, row.id, 'EUR', 'demo')).toBe(1_000_000);
    const demoOpen = await server.ctx.db
      .selectFrom('ledger_transactions')
      .select(['kind'])
      .where('idempotency_key', '=', `demo-open:${row.id}:EUR`)
      .executeTakeFirst();
    expect(demoOpen?.kind).toBe('demo_open');

    // The token works at once, and the verification mail (in Spanish) went to the outbox.
    const me = await server.api('GET', '/api/platform/auth/me', undefined, data.token);
    expect(me.status).toBe(200);
    expect(me.body.data.user_id).toBe(row.id);
    const mail = await lastMailTo(server, String(payload.email));
    expect(mail?.channel).toBe('email');
    expect(mail?.subject).toBe('Confirma tu dirección de correo electrónico');
    expect(mail?.body).toContain(`${server.ctx.publicUrl()}/verify-email?token=`);
  });

  it('refuses a taken username or email, case-insensitively, with 409 and changes nothing', async () => {
    const first = await register(server);
    const users = await server.ctx.db.selectFrom('users').select('id').execute();

    const sameName = await server.api('POST', '/api/platform/auth/register', validRegistration({ username: first.username.toUpperCase() }));
    expect(sameName.status).toBe(409);
    expect(sameName.body).toMatchObject({ success: false, data: null, error: 'Username is already taken', error_message: 'Username is already taken' });

    const sameEmail = await server.api('POST', '/api/platform/auth/register', validRegistration({ email: first.email.toUpperCase() }));
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.error_message).toBe('Email is already registered');

    expect(await server.ctx.db.selectFrom('users').select('id').execute()).toHaveLength(users.length);
  });

  it('two racing registrations of one name: exactly one wins', async () => {
    const payload = validRegistration();
    const results = await Promise.all([
      server.api('POST', '/api/platform/auth/register', payload),
      server.api('POST', '/api/platform/auth/register', { ...payload, email: `other.${payload.email}` }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});

describe('login', () => {
  it('logs in by username, by email (as username, email or login key), case-insensitively', async () => {
    const u = await register(server);
    for (const body of [
      { username: u.username, password: u.password },
      { username: u.email.toUpperCase(), password: u.password },
      { email: u.email, password: u.password },
      { login: ` ${u.username.toLowerCase()} `, password: u.password },
    ]) {
      const r = await server.api('POST', '/api/platform/auth/login', body);
      expect(r.status, JSON.stringify(body)).toBe(200);
      expect(r.body.data.user.user_id).toBe(u.userId);
      expect(r.body.data.access_token).toBe(r.body.data.token);
      expect(r.body.data.refresh_token).toBeTruthy();
      const me = await server.api('GET', '/api/platform/auth/me', undefined, r.body.data.token);
      expect(me.body.data.username).toBe(u.username);
    }
  });

  it('answers "Missing credentials" (400) and "Invalid credentials" (401)', async () => {
    const u = await register(server);
    for (const body of [{}, { username: u.username }, { password: 'x' }, { username: '', password: '' }, { username: '   ', password: 'x' }]) {
      const r = await server.api('POST', '/api/platform/auth/login', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toMatchObject({ success: false, data: null, error_message: 'Missing credentials' });
    }
    const wrongPassword = await server.api('POST', '/api/platform/auth/login', { username: u.username, password: 'Wrong!Pass1' });
    const noUser = await server.api('POST', '/api/platform/auth/login', { username: 'nobody' + u.username, password: u.password });
    for (const r of [wrongPassword, noUser]) {
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ success: false, data: null, error: 'Invalid credentials', error_message: 'Invalid credentials' });
    }
  });
});

describe('refresh tokens', () => {
  it('rotates: each refresh token works once and yields a new working pair', async () => {
    const u = await register(server);
    const r1 = await server.api('POST', '/api/platform/auth/refresh', { refresh_token: u.refreshToken });
    expect(r1.status).toBe(200);
    expect(r1.body.data.refresh_token).not.toBe(u.refreshToken);
    expect(r1.body.data.user.user_id).toBe(u.userId);
    const me = await server.api('GET', '/api/platform/auth/me', undefined, r1.body.data.token);
    expect(me.status).toBe(200);
    // The camelCase key works too.
    const r2 = await server.api('POST', '/api/platform/auth/refresh', { refreshToken: r1.body.data.refresh_token });
    expect(r2.status).toBe(200);
  });

  it('a reused refresh token revokes the whole family, old access tokens included', async () => {
    const u = await register(server);
    const r1 = await server.api('POST', '/api/platform/auth/refresh', { refresh_token: u.refreshToken });
    expect(r1.status).toBe(200);
    const newAccess = r1.body.data.token;
    const newRefresh = r1.body.data.refresh_token;

    const reuse = await server.api('POST', '/api/platform/auth/refresh', { refresh_token: u.refreshToken });
    expect(reuse.status).toBe(401);
    expect(reuse.body).toMatchObject({ success: false, error_message: 'Token refresh failed' });

    for (const token of [u.token, newAccess]) {
      const me = await server.api('GET', '/api/platform/auth/me', undefined, token);
      expect(me.status).toBe(401);
      expect(me.body.error_message).toBe('Unauthorized');
    }
    const next = await server.api('POST', '/api/platform/auth/refresh', { refresh_token: newRefresh });
    expect(next.status).toBe(401);
    const family = await server.ctx.db.selectFrom('auth_sessions').select(['revoked_reason']).where('user_id', '=', u.userId).execute();
    expect(family.map((f) => f.revoked_reason)).toEqual(['reuse']);

    // Another session of the same user is untouched.
    const other = await server.api('POST', '/api/platform/auth/login', { username: u.username, password: u.password });
    expect((await server.api('GET', '/api/platform/auth/me', undefined, other.body.data.token)).status).toBe(200);
  });

  it('two racing refreshes with one token: at most one succeeds', async () => {
    const u = await register(server);
    const results = await Promise.all([1, 2].map(() => server.api('POST', '/api/platform/auth/refresh', { refresh_token: u.refreshToken })));
    expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    expect(results.some((r) => r.status === 401)).toBe(true);
  });

  it('refuses unknown, missing and malformed refresh tokens', async () => {
    expect((await server.api('POST', '/api/platform/auth/refresh', { refresh_token: 'x'.repeat(43) })).status).toBe(401);
    const missing = await server.api('POST', '/api/platform/auth/refresh', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error_message).toBe('Refresh token is required');
    expect((await server.api('POST', '/api/platform/auth/refresh', { refresh_token: 42 })).status).toBe(400);
    expect((await server.api('POST', '/api/platform/auth/refresh', { refresh_token: 'x'.repeat(10_000) })).status).toBe(400);
  });
});

describe('logout', () => {
  it('revokes the caller session: its access and refresh tokens stop working; other sessions live', async () => {
    const u = await register(server);
    const other = await server.api('POST', '/api/platform/auth/login', { username: u.username, password: u.password });
    const out = await server.api('POST', '/api/platform/auth/logout', undefined, u.token);
    expect(out.status).toBe(200);
    expect(out.body.success).toBe(true);
    expect((await server.api('GET', '/api/platform/auth/me', undefined, u.token)).status).toBe(401);
    expect((await server.api('POST', '/api/platform/auth/refresh', { refresh_token: u.refreshToken })).status).toBe(401);
    expect((await server.api('GET', '/api/platform/auth/me', undefined, other.body.data.token)).status).toBe(200);
  });

  it('always succeeds: without a token, with a bad token, twice', async () => {
    const u = await register(server);
    expect((await server.api('POST', '/api/platform/auth/logout')).body.success).toBe(true);
    expect((await server.api('POST', '/api/platform/auth/logout', undefined, 'not-a-token')).status).toBe(200);
    expect((await server.api('POST', '/api/platform/auth/logout', undefined, u.token)).status).toBe(200);
    expect((await server.api('POST', '/api/platform/auth/logout', undefined, u.token)).status).toBe(200);
  });

  it('ends the session of a refresh token given in the body (an expired access token cannot say which)', async () => {
    const u = await register(server);
    const out = await server.api('POST', '/api/platform/auth/logout', { refresh_token: u.refreshToken });
    expect(out.status).toBe(200);
    expect((await server.api('GET', '/api/platform/auth/me', undefined, u.token)).status).toBe(401);
  });
});

describe('/me and the bearer guard', () => {
  it('refuses a missing, malformed or forged token with 401 and the envelope', async () => {
    const u = await register(server);
    const forged = await server.ctx.tokens.sign({ userId: u.userId, sessionType: 'user', family: 'not-a-family' });
    for (const token of [undefined, 'abc', u.token.slice(0, -2) + 'xx', forged]) {
      const r = await server.api('GET', '/api/platform/auth/me', undefined, token);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ success: false, data: null, error: 'Unauthorized', error_message: 'Unauthorized' });
    }
  });

  it('a session of a deleted user is dead', async () => {
    const u = await register(server);
    // The ledger is append-only (its rows can never be deleted), so the user row goes alone,
    // with foreign keys off for that one statement, as a direct database edit would.
    await withForeignKeysOff(server.ctx.db, async (conn) => {
      await conn.deleteFrom('users').where('id', '=', u.userId).execute();
    });
    expect((await server.api('GET', '/api/platform/auth/me', undefined, u.token)).status).toBe(401);
  });
});

describe('admin sessions', () => {
  it('exchanges a one-time admin token once for an admin session; refresh keeps the type', async () => {
    const u = await register(server);
    const token = await server.ctx.tx((trx) => createAdminToken(trx, u.userId, 300, server.ctx.now()));
    const r = await server.api('POST', '/api/admin/session', { token });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ session_type: 'admin', user: { user_id: u.userId } });
    expect(r.body.data.access_token).toBe(r.body.data.token);
    const claims = await server.ctx.tokens.verify(r.body.data.token);
    expect(claims?.sessionType).toBe('admin');

    const again = await server.api('POST', '/api/admin/session', { token });
    expect(again.status).toBe(401);
    expect(again.body.error_message).toBe('Invalid or expired admin link');

    const refreshed = await server.api('POST', '/api/platform/auth/refresh', { refresh_token: r.body.data.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data.session_type).toBe('admin');
    expect((await server.ctx.tokens.verify(refreshed.body.data.token))?.sessionType).toBe('admin');

    const logout = await server.api('POST', '/api/admin/logout', undefined, refreshed.body.data.token);
    expect(logout.status).toBe(200);
    expect((await server.api('GET', '/api/platform/auth/me', undefined, refreshed.body.data.token)).status).toBe(401);
    // The user's own session was not touched by the admin logout.
    expect((await server.api('GET', '/api/platform/auth/me', undefined, u.token)).status).toBe(200);
  });

  it('admin logout refuses a user session with 403 and a missing token with 401', async () => {
    const u = await register(server);
    const r = await server.api('POST', '/api/admin/logout', undefined, u.token);
    expect(r.status).toBe(403);
    expect(r.body.error_message).toBe('Forbidden');
    expect((await server.api('GET', '/api/platform/auth/me', undefined, u.token)).status).toBe(200);
    expect((await server.api('POST', '/api/admin/logout')).status).toBe(401);
  });

  it('refuses unknown and expired admin tokens', async () => {
    const u = await register(server);
    expect((await server.api('POST', '/api/admin/session', { token: 'y'.repeat(43) })).status).toBe(401);
    const expired = await server.ctx.tx((trx) => createAdminToken(trx, u.userId, 10, server.ctx.now() - 11_000));
    expect((await server.api('POST', '/api/admin/session', { token: expired })).status).toBe(401);
    expect((await server.api('POST', '/api/admin/session', {})).status).toBe(400);
  });
});

describe('email verification', () => {
  it('verifies with the emailed token once; resend sends a new link; no existence leak', async () => {
    const u = await register(server);
    const mail = await lastMailTo(server, u.email);
    const token = linkTokenFrom(mail!.body, '/verify-email');

    const bad = await server.api('POST', '/api/platform/auth/verify-email', { token: 'z'.repeat(43) });
    expect(bad.status).toBe(400);
    expect(bad.body.error_message).toBe('Invalid or expired verification link');

    const ok = await server.api('POST', '/api/platform/auth/verify-email', { token });
    expect(ok.status).toBe(200);
    expect(ok.body.success).toBe(true);
    const me = await server.api('GET', '/api/platform/auth/me', undefined, u.token);
    expect(me.body.data.email_verified).toBe(true);
    expect((await server.api('POST', '/api/platform/auth/verify-email', { token })).status).toBe(400);

    const v2 = await register(server);
    const before = await lastMailTo(server, v2.email);
    const resend = await server.api('POST', '/api/platform/auth/resend-verification', { email: v2.email.toUpperCase() });
    const unknown = await server.api('POST', '/api/platform/auth/resend-verification', { email: `ghost.${v2.email}` });
    expect(resend.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(resend.body);
    const after = await lastMailTo(server, v2.email);
    expect(after!.id).toBeGreaterThan(before!.id);
    const second = linkTokenFrom(after!.body, '/verify-email');
    expect((await server.api('POST', '/api/platform/auth/verify-email', { token: second })).status).toBe(200);

    // A verified address gets no more verification mail.
    const count = await server.ctx.db.selectFrom('outbox').select('id').where('recipient', '=', v2.email).execute();
    await server.api('POST', '/api/platform/auth/resend-verification', { email: v2.email });
    expect(await server.ctx.db.selectFrom('outbox').select('id').where('recipient', '=', v2.email).execute()).toHaveLength(count.length);
  });
});

describe('front settings', () => {
  it('merges the given keys (PATCH and POST) and answers the full settings', async () => {
    const u = await register(server);
    const r = await server.api('PATCH', '/api/v2/profile/front-settings', { currentPair: 'EURUSD', currentTimeframe: '1m', theme: 'light' }, u.token);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      avatar_url: null,
      currentPair: 'EURUSD',
      currentTimeframe: '1m',
      balance_type: 'DemoBalance',
      current_currency: 'USD',
      language: null,
      theme: 'light',
    });
    const p = await server.api('POST', '/api/v2/profile/front-settings', { balance_type: 'RealBalance', language: 'ru' }, u.token);
    expect(p.status).toBe(200);
    expect(p.body.data).toMatchObject({ currentPair: 'EURUSD', balance_type: 'RealBalance', language: 'ru', theme: 'light' });
    const me = await server.api('GET', '/api/platform/auth/me', undefined, u.token);
    expect(me.body.data.front_settings).toEqual(p.body.data);
  });

  it('choosing a new currency opens its accounts once (real 0, demo 10,000)', async () => {
    const u = await register(server);
    const r = await server.api('PATCH', '/api/v2/profile/front-settings', { current_currency: 'btc' }, u.token);
    expect(r.status).toBe(200);
    expect(r.body.data.current_currency).toBe('BTC');
    const me = await server.api('GET', '/api/platform/auth/me', undefined, u.token);
    expect(me.body.data.balances.BTC).toEqual({ RealBalance: 0, DemoBalance: 10000 });
    // Spend some demo money, switch away and back: the balance is not reopened.
    await server.ctx.tx((trx) =>
      postLedger(trx, { key: `test-stake:${u.userId}`, kind: 'order_stake', userId: u.userId, entries: withCounterparty(HOUSE_DEMO_ISSUER, [{ currency: 'BTC', account: 'demo', amount: -500 }]) }),
    );
    await server.api('PATCH', '/api/v2/profile/front-settings', { current_currency: 'USD' }, u.token);
    await server.api('PATCH', '/api/v2/profile/front-settings', { current_currency: 'BTC' }, u.token);
    expect(await getBalanceMinor(server.ctx.db, u.userId, 'BTC', 'demo')).toBe(10_000 * 1e8 - 500);
    const keys = await server.ctx.db.selectFrom('ledger_transactions').select('idempotency_key').where('user_id', '=', u.userId).execute();
    expect(keys.map((k) => k.idempotency_key).sort()).toEqual([`demo-open:${u.userId}:BTC`, `demo-open:${u.userId}:USD`, `test-stake:${u.userId}`]);
  });

  it('refuses bad settings with 400 and needs a session', async () => {
    const u = await register(server);
    for (const body of [{}, { theme: 'pink' }, { currentPair: 'EUR USD' }, { currentPair: 'x'.repeat(10_000) }, { current_currency: 'XXX' }, { foo: 1 }, [1]]) {
      const r = await server.api('PATCH', '/api/v2/profile/front-settings', body, u.token);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.success).toBe(false);
    }
    expect((await server.api('PATCH', '/api/v2/profile/front-settings', { theme: 'dark' })).status).toBe(401);
  });

  it('keeps the favourite pairs (issue 26) and refuses a list that is not one of pair codes', async () => {
    const u = await register(server);
    const r = await server.api('PATCH', '/api/v2/profile/front-settings', { favourite_pairs: ['BTCUSD', 'EURUSD'] }, u.token);
    expect(r.status).toBe(200);
    expect(r.body.data.favourite_pairs).toEqual(['BTCUSD', 'EURUSD']);
    const me = await server.api('GET', '/api/platform/auth/me', undefined, u.token);
    expect(me.body.data.front_settings.favourite_pairs).toEqual(['BTCUSD', 'EURUSD']);
    for (const favourite_pairs of ['EURUSD', [1], [''], ['x'.repeat(33)], Array.from({ length: 101 }, (_, i) => `P${i}`)]) {
      const bad = await server.api('PATCH', '/api/v2/profile/front-settings', { favourite_pairs }, u.token);
      expect(bad.status, JSON.stringify(favourite_pairs).slice(0, 40)).toBe(400);
    }
    expect((await server.api('PATCH', '/api/v2/profile/front-settings', { favourite_pairs: [] }, u.token)).body.data.favourite_pairs).toEqual([]);
  });
});
