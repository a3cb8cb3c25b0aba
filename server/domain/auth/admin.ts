/**
 * Admin sessions. The operator CLI (`npm run admin -- session <username>`) writes a one-time
 * token (random, stored as SHA-256, valid config.adminTokenTtl seconds) and prints a link
 * `/trading?token=...`; the SPA exchanges it once at POST /api/admin/session for a session whose
 * access tokens say sessionType 'admin'.
 */
import type { Trx } from '../../db';
import { randomToken, sha256Hex } from '../../infra/crypto';

export async function createAdminToken(trx: Trx, userId: number, ttlSeconds: number, now: number): Promise<string> {
  const token = randomToken();
  await trx
    .insertInto('admin_tokens')
    .values({ user_id: userId, token_hash: sha256Hex(token), created_at: now, expires_at: now + ttlSeconds * 1000, used_at: null })
    .execute();
  return token;
}

/** Use a token once; the user id it opens a session for, or null when unknown, used or expired. */
export async function consumeAdminToken(trx: Trx, token: string, now: number): Promise<number | null> {
  const row = await trx
    .selectFrom('admin_tokens as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.id', 'a.user_id', 'a.expires_at', 'a.used_at'])
    .where('a.token_hash', '=', sha256Hex(token))
    .executeTakeFirst();
  if (!row || row.used_at !== null || Number(row.expires_at) <= now) return null;
  const used = await trx
    .updateTable('admin_tokens')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1 ? row.user_id : null;
}

/** The address the operator opens: the SPA's trading screen with the token in the query. */
export function adminLink(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/$/, '')}/trading?token=${encodeURIComponent(token)}`;
}
