/**
 * The auth area's reads and writes of the users row that are not part of one of its flows' own
 * query files: the wire User (auth/me, every session answer), the account currency and front
 * settings behind the socket's userdata, a password rehashed after a login, and the lock on a
 * user's row that other areas serialize a user's writes with (alerts). The flows keep
 * theirs beside their rules: login.ts and register.ts (users), sessions.ts (auth_sessions,
 * refresh_tokens, the password change), reset.ts (password_resets), verification.ts
 * (email_verifications), admin.ts (admin_tokens), limits.ts (auth_attempts), front-settings.ts
 * and maintenance.ts (the hourly prune). Every function takes the handle (db or trx) first.
 */
import { forUpdate, type Trx } from '../../db';
import type { User } from '../../../contract/user';
import { getBalances } from '../ledger';
import { wireUser } from '../users';

/** The wire User with the balances of its account currency (at least), or null when the user is gone. */
export async function loadUser(db: Trx, userId: number): Promise<User | null> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!row) return null;
  return wireUser(row, await getBalances(db, row.id, [row.currency]));
}

/** The account currency and the stored front settings (JSON) of a user, or undefined when the user is gone. */
export function currencyAndSettings(db: Trx, userId: number): Promise<{ currency: string; front_settings: string } | undefined> {
  return db.selectFrom('users').select(['currency', 'front_settings']).where('id', '=', userId).executeTakeFirst();
}

/** Store a password hash made with today's parameters (after a successful login with an older one). */
export async function storeRehash(trx: Trx, userId: number, passwordHash: string): Promise<void> {
  await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

/** Lock the user's row for the rest of the transaction (PostgreSQL; SQLite runs writes one by one). */
export function lockUserRow(trx: Trx, userId: number): Promise<unknown> {
  return forUpdate(trx, trx.selectFrom('users').select('id').where('id', '=', userId)).execute();
}

/** The usernames of the given users (the support inbox's trader column). */
export async function usernamesOf(db: Trx, userIds: readonly number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (userIds.length === 0) return out;
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', [...new Set(userIds)]).execute();
  for (const r of rows) out.set(Number(r.id), r.username);
  return out;
}
