/**
 * Access tokens: short-lived HS256 JWTs (jose). Claims: sub = user id, st = session type
 * (user | admin), fam = the refresh-token family the session belongs to (so logout and reuse
 * detection can end it). Refresh tokens are opaque random strings kept hashed in the database
 * (see sessions.ts), never JWTs.
 *
 * verify() trusts a token only with every claim this module signs: exp, iat, iss, aud and sub
 * present, iss/aud ours, iat not in the future, and a lifetime (exp - iat) and age (now - iat)
 * no longer than the configured TTL (plus CLOCK_SKEW_SECONDS), so a token signed with the key but
 * without an expiry, or with a far one, is refused. The expiry itself has no tolerance.
 *
 * The HS256 signature is checked with node:crypto's HMAC, synchronously (a few microseconds);
 * jose's jwtVerify checks it through WebCrypto, an asynchronous job on the thread pool per token
 * (~0.3 ms of the server's CPU per socket connect under load, docs/performance.md "Fifth pass").
 * Everything else is jose's, with the same options: the header's crit/b64 rules and the claims
 * (UnsecuredJWT.decode runs the same validateClaimsSet as jwtVerify).
 *
 * A trader's client sends the same token with every request until it is refreshed, so a token
 * that verified is remembered (by its whole text, signature included: VERIFIED_CACHE_MAX at
 * most, the oldest forgotten first). A remembered token skips the HMAC, the decoding and jose's
 * checks (~20 us of an order's placement); what depends on the time (the expiry, the age, an iat
 * not in the future) is checked again on every use, the same way. Whether its session is still
 * live is not a property of the token and is asked on every request (http/auth.ts).
 */
import { createHmac, createSecretKey, timingSafeEqual, webcrypto, type KeyObject } from 'node:crypto';
import { SignJWT, UnsecuredJWT, base64url } from 'jose';

export type SessionType = 'user' | 'admin';

export interface AccessClaims {
  userId: number;
  sessionType: SessionType;
  family: string;
  /** When the token stops being valid (ms since the epoch); set by verify(). */
  expiresAt?: number;
}

const ISSUER = 'tradeterminal';
const AUDIENCE = 'tradeterminal-api';
/** Clock difference tolerated on iat and exp (seconds). */
export const CLOCK_SKEW_SECONDS = 5;
/** Verified tokens remembered at most (a few MB). */
export const VERIFIED_CACHE_MAX = 10_000;

interface Verified {
  claims: AccessClaims & { expiresAt: number };
  /** The token's iat (seconds). */
  iat: number;
}

export class AccessTokens {
  private readonly key: Uint8Array;
  /**
   * The HMAC key imported once: jose imports a raw key anew on every call, about a third of a
   * verify's cost (~70 us per verify against ~45 us with the key imported once; the socket
   * connect path verifies on every provide_token).
   */
  private cryptoKey: Promise<webcrypto.CryptoKey> | null = null;
  /** The same key for node:crypto's HMAC (verify). */
  private readonly hmacSecret: KeyObject;
  /** Tokens that verified, by their text (oldest first). */
  private readonly verified = new Map<string, Verified>();

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
    this.hmacSecret = createSecretKey(this.key);
  }

  /**
   * The token's header when it is a compact JWS whose HS256 signature is ours, else null. The
   * signature is compared as the canonical base64url of the HMAC, in constant time.
   */
  private signedHeader(token: string): { header: Record<string, unknown>; payload: string } | null {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [head, payload, signature] = parts;
    const expected = Buffer.from(createHmac('sha256', this.hmacSecret).update(`${head}.${payload}`).digest('base64url'));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const header: unknown = JSON.parse(new TextDecoder().decode(base64url.decode(head)));
    if (!header || typeof header !== 'object' || Array.isArray(header)) return null;
    if ((header as { alg?: unknown }).alg !== 'HS256') return null;
    return { header: header as Record<string, unknown>, payload };
  }

  private hmacKey(): Promise<webcrypto.CryptoKey> {
    return (this.cryptoKey ??= webcrypto.subtle.importKey('raw', this.key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']));
  }

  async sign(claims: AccessClaims, now = Date.now()): Promise<string> {
    const iat = Math.floor(now / 1000);
    return new SignJWT({ st: claims.sessionType, fam: claims.family })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .sign(await this.hmacKey());
  }

  /** The claims of a valid, unexpired token, or null for anything else. */
  async verify(token: string, now = Date.now()): Promise<AccessClaims | null> {
    const known = this.verified.get(token);
    if (known) return this.stillValid(known, now) ? { ...known.claims } : null;
    const fresh = this.verifyAnew(token, now);
    if (!fresh) return null;
    if (this.verified.size >= VERIFIED_CACHE_MAX) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, fresh);
    return { ...fresh.claims };
  }

  /** The time-dependent checks of verifyAnew, for a token that verified before (the same bounds, the same tolerance). */
  private stillValid(known: Verified, now: number): boolean {
    const age = Math.floor(now / 1000) - known.iat;
    return known.claims.expiresAt > now && age <= this.ttlSeconds + CLOCK_SKEW_SECONDS && age >= -CLOCK_SKEW_SECONDS;
  }

  private verifyAnew(token: string, now: number): Verified | null {
    if (!token || token.length > 4096) return null;
    try {
      const signed = this.signedHeader(token);
      if (!signed) return null;
      // jose's own header (crit, b64) and claim checks on the signed header and payload.
      const unsigned = `${base64url.encode(JSON.stringify({ ...signed.header, alg: 'none' }))}.${signed.payload}.`;
      const { payload } = UnsecuredJWT.decode(unsigned, {
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: new Date(now),
        requiredClaims: ['exp', 'iat', 'iss', 'aud', 'sub'],
        maxTokenAge: this.ttlSeconds + CLOCK_SKEW_SECONDS,
        clockTolerance: CLOCK_SKEW_SECONDS,
      });
      // jose checked presence, expiry and age; the lifetime the token claims is ours to bound.
      if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number') return null;
      if (payload.exp - payload.iat > this.ttlSeconds + CLOCK_SKEW_SECONDS) return null;
      // The skew tolerates another clock's iat; the expiry is ours and holds to the second.
      if (payload.exp * 1000 <= now) return null;
      const userId = Number(payload.sub);
      const st = payload.st;
      const fam = payload.fam;
      if (!Number.isSafeInteger(userId) || userId <= 0) return null;
      if (st !== 'user' && st !== 'admin') return null;
      if (typeof fam !== 'string') return null;
      return { claims: { userId, sessionType: st, family: fam, expiresAt: payload.exp * 1000 }, iat: payload.iat };
    } catch {
      return null;
    }
  }

  get ttl(): number {
    return this.ttlSeconds;
  }
}
