/**
 * The small cryptographic helpers every area uses (authentication, two-factor, Telegram links,
 * payment webhooks): opaque random tokens (base64url of 32
 * random bytes), their SHA-256 digests (what the database keeps), keyed HMACs for short codes
 * (a 6-digit code has too little entropy for a plain hash: anyone holding the table could try
 * all million), and constant-time comparison.
 */
import crypto from 'node:crypto';

/** A random opaque token: 32 bytes from the CSPRNG, base64url (43 characters). */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return crypto.createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Hex HMAC of `data` (a string is read as UTF-8) with `secret`: SHA-256 for our own keys and codes, SHA-512 where a provider asks for it. */
export function hmacHex(algorithm: 'sha256' | 'sha512', secret: string, data: Buffer | string): string {
  return crypto.createHmac(algorithm, secret).update(data).digest('hex');
}

/** Equal strings in time that depends only on their length (both are digests of the same size here). */
export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ab.length !== bb.length) {
    // Still spend a comparison so a length mismatch answers no faster than a content mismatch.
    crypto.timingSafeEqual(ab, ab);
    return false;
  }
  return crypto.timingSafeEqual(ab, bb);
}

/** A uniformly random numeric code of `digits` digits, leading zeros kept. */
export function randomDigits(digits: number): string {
  return String(crypto.randomInt(0, 10 ** digits)).padStart(digits, '0');
}
