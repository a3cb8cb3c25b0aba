/**
 * Housekeeping of the authentication tables, run hourly by AuthService.start(): forget attempt
 * counters past every window, refresh tokens long expired, and closed or expired reset,
 * verification and admin tokens. Revoked sessions stay (a small audit trail of logins).
 */
import type { DB } from '../../db';

const DAY = 24 * 60 * 60 * 1000;

export async function pruneAuthData(db: DB, now: number): Promise<void> {
  await db.deleteFrom('auth_attempts').where('created_at', '<', now - DAY).execute();
  // Kept a while past expiry so a late replay of a used token is still seen as reuse.
  await db.deleteFrom('refresh_tokens').where('expires_at', '<', now - 7 * DAY).execute();
  await db.deleteFrom('password_resets').where('expires_at', '<', now - 7 * DAY).execute();
  await db.deleteFrom('email_verifications').where('expires_at', '<', now - 7 * DAY).execute();
  await db.deleteFrom('admin_tokens').where('expires_at', '<', now - 7 * DAY).execute();
}
