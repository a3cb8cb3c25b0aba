/**
 * Secrets at rest: AES-256-GCM with a key derived from the server secret (JWT_SECRET or the
 * generated one in DATA_DIR/secrets.json) through HKDF-SHA256, so the key is never the signing
 * secret itself. Each value is bound to its purpose and owner through the additional
 * authenticated data (e.g. "totp:42"), so a sealed value copied onto another user's row or
 * into another column does not open. Format: v1.<iv>.<ciphertext>.<tag>,
 * base64url parts, 12-byte random IV per seal.
 *
 * `digest` is the keyed hash of short secrets kept only for comparison (2FA recovery codes).
 *
 * Rotating the server secret makes sealed values unreadable (and recovery codes unusable): two-factor users then cannot pass
 * the second step until an operator turns their two-factor off (docs/profile.md).
 */
import crypto from 'node:crypto';

const VERSION = 'v1';

export class SecretBox {
  private readonly key: Buffer;
  /** A separate key for digests (never the sealing key), derived the same way. */
  private readonly macKey: Buffer;

  constructor(serverSecret: string) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', serverSecret, 'tradeterminal-secret-box', 'profile-secrets-v1', 32));
    this.macKey = Buffer.from(crypto.hkdfSync('sha256', serverSecret, 'tradeterminal-secret-box', 'profile-digests-v1', 32));
  }

  /**
   * A keyed digest (hex HMAC-SHA256) of a short secret bound to its purpose and owner (e.g.
   * "recovery:42"): what the database keeps of a recovery code. A plain hash of a short code
   * could be reversed by trying every code; without the server secret this cannot.
   */
  digest(value: string, context: string): string {
    return crypto.createHmac('sha256', this.macKey).update(`${context}:${value}`, 'utf8').digest('hex');
  }

  seal(plain: string, context: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv.toString('base64url'), body.toString('base64url'), tag.toString('base64url')].join('.');
  }

  /** The plain value, or null when the value is malformed, tampered with, or sealed for another context or key. */
  open(sealed: string, context: string): string | null {
    const parts = sealed.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION) return null;
    try {
      const iv = Buffer.from(parts[1], 'base64url');
      const body = Buffer.from(parts[2], 'base64url');
      const tag = Buffer.from(parts[3], 'base64url');
      if (iv.length !== 12 || tag.length !== 16) return null;
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
