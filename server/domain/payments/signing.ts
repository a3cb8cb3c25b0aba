/**
 * Webhook signatures: hex HMAC of the raw request body, compared in constant time.
 * The payment-link provider signs with HMAC-SHA512 in header `hmac` (as OxaPay does) using
 * ctx.secrets.oxapayWebhookSecret; the crypto-address provider signs with HMAC-SHA256 in
 * header `x-signature` using a key derived from that secret (see cryptoWebhookSecret), so the
 * two providers never share a key while the deployment keeps one secret to configure.
 */
import crypto from 'node:crypto';
import type { RequestHeaders } from './providers/types';
import { hmacHex } from '../../infra/crypto';

/** True when `header` is the hex HMAC of `body` (case-insensitive hex, constant-time compare). */
export function verifyHmac(algorithm: 'sha256' | 'sha512', secret: string, body: Buffer, header: string | undefined): boolean {
  if (typeof header !== 'string') return false;
  const given = header.trim().toLowerCase();
  const expected = hmacHex(algorithm, secret, body);
  if (!/^[0-9a-f]+$/.test(given) || given.length !== expected.length) return false;
  return crypto.timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'));
}

/** The crypto-address webhook key: HMAC-SHA256(oxapayWebhookSecret, "crypto-address-webhook:v1"). */
export function cryptoWebhookSecret(baseSecret: string): string {
  return crypto.createHmac('sha256', baseSecret).update('crypto-address-webhook:v1').digest('hex');
}

/** One header value (a repeated header counts as missing: a signature is sent once). */
export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return typeof v === 'string' ? v : undefined;
}
