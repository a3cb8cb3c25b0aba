/**
 * Two-factor recovery codes (issue 26) over real HTTP with a clock the test moves: ten codes
 * when two-factor is turned on, stored only as keyed hashes; each logs in once in place of the
 * TOTP code and never again; a wrong one counts toward the challenge's 5 and the account's
 * 10-per-15-minutes limit like a wrong TOTP code; a fresh set needs a current TOTP code and
 * kills the old set; turning two-factor off deletes them.
 */
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server-fixture';
import { startTestServer, type TestServer } from '../support/server';
import { FakeClock, register, type Registered } from '../support/auth';
import { ProfileText, RECOVERY_CODE_ALPHABET, formatRecoveryCode } from '../../contract/profile';
import { SecretBox } from '../../server/domain/profile/secret-box';

const STEP = 30_000;
const clock = new FakeClock(Math.floor(Date.now() / STEP) * STEP + 1_000);
const server = useTestServer({ RATE_LIMIT: 'false' }, { now: clock.now });

const codeAt = (secret: string, t: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: t });
const login = (s: TestServer, u: Registered) => s.api('POST', '/api/platform/auth/login', { username: u.username, password: u.password });
const second = (s: TestServer, body: unknown) => s.api('POST', '/api/platform/auth/login/2fa', body);
const remaining = async (s: TestServer, u: Registered) => (await s.api('GET', '/api/v2/user/2fa/recovery-codes', undefined, u.token)).body.data;

/** A user with two-factor on: their TOTP secret and the recovery codes the verify answer carried. */
async function enabledUser(s: TestServer = server): Promise<{ u: Registered; secret: string; codes: string[] }> {
  const u = await register(s);
  const secret: string = (await s.api('POST', '/api/v2/user/2fa/enable', undefined, u.token)).body.data.secret;
  const r = await s.api('POST', '/api/v2/user/2fa/verify', { code: codeAt(secret, clock.t) }, u.token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { u, secret, codes: r.body.data.recovery_codes };
}

/** A recovery code that is none of `codes` (same shape). */
function otherCode(codes: string[]): string {
  for (let i = 0; ; i++) {
    const candidate = RECOVERY_CODE_ALPHABET[i % RECOVERY_CODE_ALPHABET.length].repeat(10);
    if (!codes.includes(candidate)) return candidate;
  }
}

describe('recovery codes', () => {
  it('turning two-factor on answers ten distinct random codes; only keyed hashes are stored', async () => {
    const { u, codes } = await enabledUser();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(new RegExp(`^[${RECOVERY_CODE_ALPHABET}]{10}$`));
    expect(await remaining(server, u)).toEqual({ remaining: 10, total: 10 });

    const rows = await server.ctx.db.selectFrom('two_factor_recovery_codes').selectAll().where('user_id', '=', u.userId).execute();
    expect(rows).toHaveLength(10);
    const dump = JSON.stringify(rows);
    for (const c of codes) {
      expect(dump).not.toContain(c);
      expect(dump).not.toContain(formatRecoveryCode(c));
    }
    // Keyed: neither a plain SHA-256 nor the digest under another server secret matches.
    const crypto = await import('node:crypto');
    const plain = crypto.createHash('sha256').update(codes[0]).digest('hex');
    expect(rows.map((r) => r.code_hash)).not.toContain(plain);
    const stranger = new SecretBox('some-other-server-secret-0123456789abcdef');
    expect(rows.map((r) => r.code_hash)).not.toContain(stranger.digest(codes[0], `recovery:${u.userId}`));
    for (const r of rows) expect(r.code_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a code logs in once in place of the TOTP code (any case, with its dash), and never again', async () => {
    const { u, codes } = await enabledUser();
    const challenge = (await login(server, u)).body.data.challenge;
    const ok = await second(server, { challenge, recovery_code: formatRecoveryCode(codes[3]).toUpperCase() });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ session_type: 'user', user: { user_id: u.userId } });
    expect(await remaining(server, u)).toEqual({ remaining: 9, total: 10 });

    const next = (await login(server, u)).body.data.challenge;
    const again = await second(server, { challenge: next, recovery_code: codes[3] });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, error: ProfileText.invalidRecoveryCode });
    // Another unused code still works.
    const other = await second(server, { challenge: next, recovery_code: codes[4] });
    expect(other.status).toBe(200);
    expect(await remaining(server, u)).toEqual({ remaining: 8, total: 10 });
  });

  it("one user's code does not open another's account", async () => {
    const a = await enabledUser();
    const b = await enabledUser();
    const challenge = (await login(server, b.u)).body.data.challenge;
    expect((await second(server, { challenge, recovery_code: a.codes[0] })).body.error).toBe(ProfileText.invalidRecoveryCode);
    expect(await remaining(server, a.u)).toEqual({ remaining: 10, total: 10 });
  });

  it('validates the second step: a code or a recovery code, not both, not neither, of the right shape', async () => {
    const { u, codes, secret } = await enabledUser();
    const challenge = (await login(server, u)).body.data.challenge;
    expect((await second(server, { challenge })).body.error).toBe('Code is required');
    expect((await second(server, { challenge, code: codeAt(secret, clock.t + STEP), recovery_code: codes[0] })).body.error).toBe(ProfileText.oneSecondFactor);
    for (const bad of ['abc', 'abcde-fghjk-m', 'abcde-fghj0', 'x'.repeat(40)]) {
      const r = await second(server, { challenge, recovery_code: bad });
      expect(r.status, bad).toBe(400);
      expect(r.body.error).toBe(ProfileText.invalidRecoveryCode);
    }
    // Shape errors do not spend the challenge: a right code still opens it.
    expect((await second(server, { challenge, recovery_code: codes[0] })).status).toBe(200);
  });

  it('a wrong code counts toward the challenge limit: 5 kill the challenge, even for a right code after', async () => {
    const { u, codes } = await enabledUser();
    const challenge = (await login(server, u)).body.data.challenge;
    const wrong = otherCode(codes);
    for (let i = 0; i < 5; i++) expect((await second(server, { challenge, recovery_code: wrong })).body.error).toBe(ProfileText.invalidRecoveryCode);
    const dead = await second(server, { challenge, recovery_code: codes[0] });
    expect(dead.status).toBe(401);
    expect(dead.body.error).toBe(ProfileText.invalidChallenge);
    // The right code was not spent by the dead challenge.
    expect(await remaining(server, u)).toEqual({ remaining: 10, total: 10 });
  });

  it('a fresh set needs a valid TOTP code and kills the old set; disabling deletes them', async () => {
    const { u, secret, codes } = await enabledUser();
    const regen = (code: unknown) => server.api('POST', '/api/v2/user/2fa/recovery-codes', { code }, u.token);
    clock.advance(STEP);
    const right = codeAt(secret, clock.t);
    const wrong = right === '000000' ? '111111' : '000000';
    const bad = await regen(wrong);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid code');
    expect((await regen(undefined)).body.error).toBe('Code is required');
    expect(await remaining(server, u)).toEqual({ remaining: 10, total: 10 });

    const r = await regen(right);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toEqual({ two_factor_enabled: true, message: ProfileText.recoveryCodesRegenerated, recovery_codes: expect.any(Array) });
    const fresh: string[] = r.body.data.recovery_codes;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => codes.includes(c))).toEqual([]);
    // The TOTP code that confirmed it is spent, like any other.
    expect((await regen(right)).body.error).toBe('Invalid code');

    const challenge = (await login(server, u)).body.data.challenge;
    expect((await second(server, { challenge, recovery_code: codes[0] })).body.error).toBe(ProfileText.invalidRecoveryCode);
    expect((await second(server, { challenge, recovery_code: fresh[0] })).status).toBe(200);

    clock.advance(STEP);
    expect((await server.api('DELETE', '/api/v2/user/2fa/disable', { code: codeAt(secret, clock.t) }, u.token)).status).toBe(200);
    expect(await server.ctx.db.selectFrom('two_factor_recovery_codes').select('id').where('user_id', '=', u.userId).execute()).toEqual([]);
    expect(await remaining(server, u)).toEqual({ remaining: 0, total: 10 });
    expect((await regen(codeAt(secret, clock.t + STEP))).body.error).toBe(ProfileText.twoFactorNotEnabled);
  });

  it('the status and the regeneration need a session', async () => {
    expect((await server.api('GET', '/api/v2/user/2fa/recovery-codes')).status).toBe(401);
    expect((await server.api('POST', '/api/v2/user/2fa/recovery-codes', { code: '123456' })).status).toBe(401);
  });
});

describe('wrong recovery codes and the account limit', () => {
  it('count with wrong TOTP codes toward the 10 per 15 minutes: the 11th try is 429, even a right code', async () => {
    const limited = await startTestServer({}, { now: clock.now });
    try {
      const { u, codes } = await enabledUser(limited);
      const wrong = otherCode(codes);
      // Two challenges (each dies at 5): 10 wrong recovery codes on the account.
      for (let round = 0; round < 2; round++) {
        const challenge = (await login(limited, u)).body.data.challenge;
        for (let i = 0; i < 5; i++) expect((await second(limited, { challenge, recovery_code: wrong })).status).toBe(400);
      }
      const challenge = (await login(limited, u)).body.data.challenge;
      const blocked = await second(limited, { challenge, recovery_code: codes[0] });
      expect(blocked.status).toBe(429);
      expect(await remaining(limited, u)).toEqual({ remaining: 10, total: 10 });
    } finally {
      await limited.close();
    }
  });
});
