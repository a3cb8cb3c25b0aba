/**
 * The small cryptographic helpers of authentication: opaque random tokens (base64url of 32
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

export function hmacHex(secret: string, value: string): string {
  return crypto.createHmac('sha256', secret).update(value, 'utf8').digest('hex');
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
