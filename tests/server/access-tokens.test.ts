/**
 * Access token verification (server/infra/tokens.ts): the HS256 signature is checked with
 * node:crypto's HMAC, synchronously, not through WebCrypto (an async thread-pool job per token,
 * a visible cost of every socket connect: docs/performance.md "Fifth pass"); the header and claim
 * rules stay jose's. A token that verified is remembered, and its time checks still hold on
 * every use.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignJWT, UnsecuredJWT, base64url } from 'jose';
import { AccessTokens, CLOCK_SKEW_SECONDS } from '../../server/infra/tokens';

const SECRET = 'a-test-secret-of-some-length-0123456789';
const TTL = 900;
const tokens = new AccessTokens(SECRET, TTL);
const key = new TextEncoder().encode(SECRET);
const NOW = Date.UTC(2026, 0, 1, 12);
const iat = Math.floor(NOW / 1000);

/** A token signed with `key` (or another) over the given header and claims. */
function handmade(header: Record<string, unknown>, claims: Record<string, unknown>, secret: Uint8Array = key): string {
  const h = base64url.encode(JSON.stringify(header));
  const p = base64url.encode(JSON.stringify(claims));
  return `${h}.${p}.${createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url')}`;
}

const good = { sub: '7', st: 'user', fam: 'fam1', iss: 'tradeterminal', aud: 'tradeterminal-api', iat, exp: iat + TTL };

afterEach(() => vi.restoreAllMocks());

describe('AccessTokens.verify', () => {
  it('checks the signature without WebCrypto', async () => {
    const token = await tokens.sign({ userId: 7, sessionType: 'user', family: 'fam1' }, NOW);
    const subtle = vi.spyOn(globalThis.crypto.subtle, 'verify');
    expect(await tokens.verify(token, NOW + 1000)).toEqual({ userId: 7, sessionType: 'user', family: 'fam1', expiresAt: (iat + TTL) * 1000 });
    expect(subtle).not.toHaveBeenCalled();
  });

  it('accepts what it signed and what is signed the same way', async () => {
    expect(await tokens.verify(handmade({ alg: 'HS256', typ: 'JWT' }, good), NOW)).toMatchObject({ userId: 7, family: 'fam1' });
    const jose = await new SignJWT({ st: 'admin', fam: 'f2' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('9')
      .setIssuer('tradeterminal')
      .setAudience('tradeterminal-api')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(key);
    expect(await tokens.verify(jose, NOW)).toMatchObject({ userId: 9, sessionType: 'admin', family: 'f2' });
  });

  it('refuses a wrong or altered signature, another algorithm, alg none, crit and b64 headers', async () => {
    const token = handmade({ alg: 'HS256' }, good);
    const [h, p, s] = token.split('.');
    const other = handmade({ alg: 'HS256' }, good, new TextEncoder().encode('another-secret'));
    const altered = `${h}.${base64url.encode(JSON.stringify({ ...good, sub: '8' }))}.${s}`;
    const flipped = `${h}.${p}.${s.slice(0, -2)}${s.at(-2) === 'A' ? 'B' : 'A'}${s.at(-1)}`;
    const cases = [
      other,
      altered,
      flipped,
      `${h}.${p}.`,
      `${h}.${p}`,
      handmade({ alg: 'HS384' }, good),
      handmade({ alg: 'none' }, good),
      handmade({ alg: 'HS256', crit: ['exp'], exp: 1 }, good),
      handmade({ alg: 'HS256', crit: ['b64'], b64: false }, good),
      'not-a-token',
      '',
    ];
    for (const t of cases) expect(await tokens.verify(t, NOW), t).toBeNull();
  });

  it("refuses claims jose or this module refuses: issuer, audience, expiry, age, iat in the future, lifetime, subject", async () => {
    const bad: Array<Record<string, unknown>> = [
      { ...good, iss: 'someone' },
      { ...good, aud: 'other' },
      { ...good, exp: undefined },
      { ...good, iat: undefined },
      { ...good, sub: undefined },
      { ...good, exp: iat - 1 },
      { ...good, iat: iat + CLOCK_SKEW_SECONDS + 60, exp: iat + CLOCK_SKEW_SECONDS + 60 + TTL },
      { ...good, iat: iat - TTL - CLOCK_SKEW_SECONDS - 10, exp: iat + 10 },
      { ...good, exp: iat + TTL * 10 },
      { ...good, nbf: iat + 600 },
      { ...good, sub: 'x' },
      { ...good, st: 'root' },
      { ...good, fam: 3 },
    ];
    for (const claims of bad) expect(await tokens.verify(handmade({ alg: 'HS256' }, claims), NOW), JSON.stringify(claims)).toBeNull();
    // The expiry holds to the second, without the skew.
    expect(await tokens.verify(handmade({ alg: 'HS256' }, good), (iat + TTL) * 1000)).toBeNull();
  });

  it('remembers a token that verified; its expiry and age still hold on every use', async () => {
    const fresh = new AccessTokens(SECRET, TTL);
    const token = handmade({ alg: 'HS256' }, good);
    const decode = vi.spyOn(UnsecuredJWT, 'decode');
    expect(await fresh.verify(token, NOW)).toMatchObject({ userId: 7, family: 'fam1' });
    expect(await fresh.verify(token, NOW + 60_000)).toMatchObject({ userId: 7, family: 'fam1' });
    expect(decode).toHaveBeenCalledTimes(1);
    // The expiry to the second, and an iat further ahead of the clock than the skew, as before.
    expect(await fresh.verify(token, (iat + TTL) * 1000)).toBeNull();
    expect(await fresh.verify(token, (iat - CLOCK_SKEW_SECONDS - 1) * 1000)).toBeNull();
    expect(await fresh.verify(token, (iat - CLOCK_SKEW_SECONDS) * 1000)).toMatchObject({ userId: 7 });
    // The answer is a copy: what a caller does with it does not change the next one.
    const claims = await fresh.verify(token, NOW);
    claims!.userId = 99;
    expect((await fresh.verify(token, NOW))?.userId).toBe(7);
    // Another signature is another token (and a wrong one).
    expect(await fresh.verify(`${token.slice(0, -2)}AA`, NOW)).toBeNull();
  });
});
