/**
 * Two-factor authentication over real HTTP with a clock the test moves: enrolment (secret,
 * otpauth URL, QR code; nothing changes until a code is verified), wrong and reused codes,
 * clock drift, disabling, the login's second step end to end (challenge + code; single use;
 * 5 wrong codes; 5 minutes), the secret sealed at rest, and the per-account limit on wrong codes.
 */
import { HOTP, Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server-fixture';
import { startTestServer } from '../support/server';
import { FakeClock, lastMailTo, register, type Registered } from '../support/auth';
import { ProfileText } from '../../contract/profile';
import { SecretBox } from '../../server/domain/profile/secret-box';

const STEP = 30_000;
// Start a little after a step boundary so "the next step" is always 30 s away.
const clock = new FakeClock(Math.floor(Date.now() / STEP) * STEP + 1_000);
const server = useTestServer({ RATE_LIMIT: 'false' }, { now: clock.now });

const codeAt = (secret: string, t: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: t });
const codeOfStep = (secret: string, step: number) => HOTP.generate({ secret: Secret.fromBase32(secret), counter: step });
const stepNow = () => Math.floor(clock.t / STEP);

const enable = (u: Registered, body?: unknown) => server.api('POST', '/api/v2/user/2fa/enable', body, u.token);
const verify = (u: Registered, code: unknown) => server.api('POST', '/api/v2/user/2fa/verify', { code }, u.token);
const disable = (u: Registered, code: string) => server.api('DELETE', '/api/v2/user/2fa/disable', { code }, u.token);
const login = (u: Registered) => server.api('POST', '/api/platform/auth/login', { username: u.username, password: u.password });
const second = (challenge: unknown, code: unknown) => server.api('POST', '/api/platform/auth/login/2fa', { challenge, code });

async function enabledUser(): Promise<{ u: Registered; secret: string }> {
  const u = await register(server);
  const setup = await enable(u);
  expect(setup.status).toBe(200);
  const secret: string = setup.body.data.secret;
  const r = await verify(u, codeAt(secret, clock.t));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { u, secret };
}

describe('enrolment', () => {
  it('enable answers a base32 secret, an otpauth URL and a QR code, and turns nothing on yet', async () => {
    const u = await register(server);
    const r = await enable(u);
    expect(r.status).toBe(200);
    const { secret, otpauth_url, qr_code, expires_at } = r.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/TradeTerminal:${u.username}`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ secret, issuer: 'TradeTerminal', algorithm: 'SHA1', digits: '6', period: '30' });
    expect(qr_code).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]{100,}$/);
    expect(expires_at).toBe(Math.floor((clock.t + 15 * 60_000) / 1000));

    const profile = await server.api('GET', '/api/v2/user/profile', undefined, u.token);
    expect(profile.body.data.two_factor_enabled).toBe(false);
    const state = await server.ctx.db.selectFrom('two_factor_state').selectAll().where('user_id', '=', u.userId).executeTakeFirstOrThrow();
    expect(state.pending_secret).toMatch(/^v1\./);
    expect(state.pending_secret).not.toContain(secret);
    // The password alone still logs in.
    expect((await login(u)).body.data.token).toEqual(expect.any(String));
  });

  it('refuses a body with keys on enable and codes of the wrong shape on verify', async () => {
    const u = await register(server);
    expect((await enable(u, { force: true })).status).toBe(400);
    await enable(u);
    for (const [code, message] of [
      [123456, 'Code must be text'],
      ['12345', 'Code must be 6 digits'],
      ['abcdef', 'Code must be 6 digits'],
      [undefined, 'Code is required'],
    ] as const) {
      const r = await verify(u, code);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe(message);
    }
  });

  it('verify: a wrong code is 400 "Invalid code"; the right one turns two-factor on (secret sealed, email sent)', async () => {
    const u = await register(server);
    const { secret } = (await enable(u)).body.data;
    const right = codeAt(secret, clock.t);
    const wrong = right === '000000' ? '111111' : '000000';
    const bad = await verify(u, wrong);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, data: null, error: 'Invalid code', error_message: 'Invalid code' });
    expect((await server.api('GET', '/api/v2/user/profile', undefined, u.token)).body.data.two_factor_enabled).toBe(false);

    const ok = await verify(u, `${right.slice(0, 3)} ${right.slice(3)}`);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ two_factor_enabled: true, message: ProfileText.twoFactorEnabled, recovery_codes: expect.any(Array) });
    expect((await server.api('GET', '/api/v2/user/profile', undefined, u.token)).body.data.two_factor_enabled).toBe(true);
    const row = await server.ctx.db.selectFrom('users').select(['two_factor_secret', 'two_factor_enabled']).where('id', '=', u.userId).executeTakeFirstOrThrow();
    expect(row.two_factor_enabled).toBe(1);
    expect(row.two_factor_secret).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(row.two_factor_secret).not.toContain(secret);
    expect((await lastMailTo(server, u.email))?.subject).toBe('Two-factor authentication is on');

    // Already on: enabling again or verifying again is refused.
    expect((await enable(u)).body.error).toBe(ProfileText.twoFactorAlreadyEnabled);
    clock.advance(STEP);
    expect((await verify(u, codeAt(secret, clock.t))).body.error).toBe(ProfileText.twoFactorAlreadyEnabled);
  });

  it('verify without a setup, or after the setup expired, asks to start again', async () => {
    const u = await register(server);
    expect((await verify(u, '123456')).body.error).toBe(ProfileText.twoFactorSetupMissing);
    const { secret } = (await enable(u)).body.data;
    clock.advance(15 * 60_000);
    // The access token expired with the same 15 minutes: sign in again.
    const token: string = (await login(u)).body.data.token;
    const r = await server.api('POST', '/api/v2/user/2fa/verify', { code: codeAt(secret, clock.t) }, token);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(ProfileText.twoFactorSetupMissing);
  });
});

describe('codes', () => {
  it('accept the neighbouring step (clock drift) but not two steps away', async () => {
    const u = await register(server);
    const { secret } = (await enable(u)).body.data;
    expect((await verify(u, codeOfStep(secret, stepNow() + 2))).body.error).toBe('Invalid code');
    expect((await verify(u, codeOfStep(secret, stepNow() - 2))).body.error).toBe('Invalid code');
    expect((await verify(u, codeOfStep(secret, stepNow() + 1))).status).toBe(200);
  });

  it('accept the step behind (a phone clock running late) but not two steps behind', async () => {
    const u = await register(server);
    const { secret } = (await enable(u)).body.data;
    expect((await verify(u, codeOfStep(secret, stepNow() - 2))).body.error).toBe('Invalid code');
    expect((await verify(u, codeOfStep(secret, stepNow() + 2))).body.error).toBe('Invalid code');
    expect((await server.api('GET', '/api/v2/user/profile', undefined, u.token)).body.data.two_factor_enabled).toBe(false);
    const behind = await verify(u, codeOfStep(secret, stepNow() - 1));
    expect(behind.status, JSON.stringify(behind.body)).toBe(200);
    expect((await server.api('GET', '/api/v2/user/profile', undefined, u.token)).body.data.two_factor_enabled).toBe(true);

    // Once on, the login's second step allows the same drift: one step behind yes, two no.
    clock.advance(2 * STEP);
    const first = await login(u);
    const challenge: string = first.body.data.challenge;
    expect((await second(challenge, codeOfStep(secret, stepNow() - 2))).body.error).toBe('Invalid code');
    const late = await second(challenge, codeOfStep(secret, stepNow() - 1));
    expect(late.status, JSON.stringify(late.body)).toBe(200);
    expect(late.body.data.token).toEqual(expect.any(String));
  });

  it('work once: a reused code and an older one are refused; a later step works', async () => {
    const { u, secret } = await enabledUser();
    const used = codeAt(secret, clock.t);
    const reuse = await disable(u, used);
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('Invalid code');
    // The step before the one used is older still: refused too.
    const older = codeOfStep(secret, stepNow() - 1);
    if (older !== used) expect((await disable(u, older)).body.error).toBe('Invalid code');
    expect((await server.api('GET', '/api/v2/user/profile', undefined, u.token)).body.data.two_factor_enabled).toBe(true);

    clock.advance(STEP);
    const r = await disable(u, codeAt(secret, clock.t));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toEqual({ two_factor_enabled: false, message: ProfileText.twoFactorDisabled });
    const row = await server.ctx.db.selectFrom('users').select(['two_factor_secret', 'two_factor_enabled']).where('id', '=', u.userId).executeTakeFirstOrThrow();
    expect(row).toEqual({ two_factor_secret: null, two_factor_enabled: 0 });
    expect((await lastMailTo(server, u.email))?.subject).toBe('Two-factor authentication is off');
    expect((await disable(u, codeAt(secret, clock.t + STEP))).body.error).toBe(ProfileText.twoFactorNotEnabled);
  });

  it('disable takes the code from the query string too, and needs a right one', async () => {
    const { u, secret } = await enabledUser();
    clock.advance(STEP);
    const right = codeAt(secret, clock.t);
    const wrong = right === '999999' ? '888888' : '999999';
    expect((await server.api('DELETE', `/api/v2/user/2fa/disable?code=${wrong}`, undefined, u.token)).body.error).toBe('Invalid code');
    expect((await server.api('DELETE', '/api/v2/user/2fa/disable', undefined, u.token)).body.error).toBe('Code is required');
    const r = await server.api('DELETE', `/api/v2/user/2fa/disable?code=${right}`, undefined, u.token);
    expect(r.status).toBe(200);
    expect(r.body.data.two_factor_enabled).toBe(false);
  });
});

describe('login with two-factor on', () => {
  it('answers a challenge instead of a session, then opens the session with a current code', async () => {
    const { u, secret } = await enabledUser();
    const first = await login(u);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ two_factor_required: true, challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const challenge: string = first.body.data.challenge;
    const stored = await server.ctx.db.selectFrom('two_factor_challenges').selectAll().where('user_id', '=', u.userId).execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(challenge);

    clock.advance(STEP);
    const code = codeAt(secret, clock.t);
    const wrong = code === '000000' ? '111111' : '000000';
    const bad = await second(challenge, wrong);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid code');

    const ok = await second(challenge, code);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ session_type: 'user', user: { user_id: u.userId, two_factor_enabled: true } });
    expect(ok.body.data.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await server.api('GET', '/api/platform/auth/me', undefined, ok.body.data.token)).status).toBe(200);

    // The challenge is spent, and the code it used does not open another login.
    const again = await second(challenge, code);
    expect(again.status).toBe(401);
    expect(again.body.error).toBe(ProfileText.invalidChallenge);
    const next = await login(u);
    const replay = await second(next.body.data.challenge, code);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('Invalid code');
  });

  it('a challenge dies after 5 wrong codes and after 5 minutes; a made-up one is refused', async () => {
    const { u, secret } = await enabledUser();
    clock.advance(STEP);
    const right = codeAt(secret, clock.t);
    const wrong = right === '000000' ? '111111' : '000000';
    const { challenge } = (await login(u)).body.data;
    for (let i = 0; i < 5; i++) expect((await second(challenge, wrong)).body.error).toBe('Invalid code');
    expect((await second(challenge, right)).status).toBe(401);

    const late = (await login(u)).body.data.challenge;
    clock.advance(5 * 60_000);
    expect((await second(late, codeAt(secret, clock.t))).status).toBe(401);

    expect((await second('x'.repeat(43), '123456')).status).toBe(401);
    expect((await second('', '123456')).status).toBe(400);
    expect((await second(late, 'abc')).status).toBe(400);

    // A fresh login still works with a fresh code.
    clock.advance(STEP);
    const fresh = (await login(u)).body.data.challenge;
    expect((await second(fresh, codeAt(secret, clock.t))).status).toBe(200);
  });
});

describe('wrong-code limit per account', () => {
  it('answers 429 from the 11th wrong code within 15 minutes, even for a right one', async () => {
    const limited = await startTestServer({}, { now: clock.now });
    try {
      const u = await register(limited);
      const setup = await limited.api('POST', '/api/v2/user/2fa/enable', undefined, u.token);
      const secret: string = setup.body.data.secret;
      const right = codeAt(secret, clock.t);
      const wrong = right === '000000' ? '111111' : '000000';
      for (let i = 0; i < 10; i++) {
        expect((await limited.api('POST', '/api/v2/user/2fa/verify', { code: wrong }, u.token)).status).toBe(400);
      }
      const blocked = await limited.api('POST', '/api/v2/user/2fa/verify', { code: right }, u.token);
      expect(blocked.status).toBe(429);
      expect(blocked.body.error).toBe('Too many requests, please try again later');
      clock.advance(15 * 60_000 + STEP);
      // The setup expired meanwhile; a new one verifies.
      const again = await limited.api('POST', '/api/v2/user/2fa/enable', undefined, (await limited.api('POST', '/api/platform/auth/login', { username: u.username, password: u.password })).body.data.token);
      expect(again.status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('secrets at rest (units)', () => {
  it('SecretBox opens only what it sealed, for the same context and key', () => {
    const box = new SecretBox('a'.repeat(43));
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'totp:1');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'totp:1')).toBe('JBSWY3DPEHPK3PXP');
    // A fresh IV each time: the same secret never seals to the same text.
    expect(box.seal('JBSWY3DPEHPK3PXP', 'totp:1')).not.toBe(sealed);
    expect(box.open(sealed, 'totp:2')).toBeNull();
    expect(new SecretBox('b'.repeat(43)).open(sealed, 'totp:1')).toBeNull();
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[2], 'base64url');
    flipped[0] ^= 1;
    expect(box.open([parts[0], parts[1], flipped.toString('base64url'), parts[3]].join('.'), 'totp:1')).toBeNull();
    expect(box.open('garbage', 'totp:1')).toBeNull();
  });

  it('a sealed secret moved onto another user does not open: that login fails closed (503)', async () => {
    const { u: a } = await enabledUser();
    const b = (await enabledUser()).u;
    const rowA = await server.ctx.db.selectFrom('users').select('two_factor_secret').where('id', '=', a.userId).executeTakeFirstOrThrow();
    await server.ctx.db.updateTable('users').set({ two_factor_secret: rowA.two_factor_secret }).where('id', '=', b.userId).execute();
    const { challenge } = (await login(b)).body.data;
    const r = await second(challenge, '123456');
    expect(r.status).toBe(503);
    expect(r.body.error).toBe('Two-factor sign-in is temporarily unavailable');
  });
});
