/**
 * Email verification: a random link token (kept as SHA-256) valid for 48 hours and good once,
 * tied to the address it was sent to so a link for a since-changed address verifies nothing.
 */
import { sql } from 'kysely';
import type { Trx } from '../../db';
import { randomToken, sha256Hex } from '../../infra/crypto';

export const VERIFICATION_TTL_HOURS = 48;
const VERIFICATION_TTL_MS = VERIFICATION_TTL_HOURS * 60 * 60 * 1000;

export async function createVerification(trx: Trx, userId: number, email: string, now: number): Promise<string> {
  const token = randomToken();
  await trx
    .insertInto('email_verifications')
    .values({ user_id: userId, email, token_hash: sha256Hex(token), created_at: now, expires_at: now + VERIFICATION_TTL_MS, used_at: null })
    .execute();
  return token;
}

/** Mark the address verified; false when the token is unknown, used, expired or for an old address. */
export async function verifyEmailToken(trx: Trx, token: string, now: number): Promise<boolean> {
  const row = await trx
    .selectFrom('email_verifications as v')
    .innerJoin('users as u', 'u.id', 'v.user_id')
    .select(['v.id', 'v.user_id', 'v.expires_at', 'v.used_at'])
    .where('v.token_hash', '=', sha256Hex(token))
    .where(sql<boolean>`lower(v.email) = lower(u.email)`)
    .executeTakeFirst();
  if (!row || row.used_at !== null || Number(row.expires_at) <= now) return false;
  const used = await trx
    .updateTable('email_verifications')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) return false;
  await trx
    .updateTable('users')
    .set({ email_verified_at: now, updated_at: now })
    .where('id', '=', row.user_id)
    .where('email_verified_at', 'is', null)
    .execute();
  return true;
}
