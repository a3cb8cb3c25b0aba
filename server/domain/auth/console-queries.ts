/**
 * The users table as the operator console reads and changes it (issue 27): the searchable,
 * sortable list, one user's row, and the block (users.blocked_at / blocked_reason) with the end
 * of every session of the blocked user. Auth owns the users table's credentials and sessions,
 * so these live here; the console area calls them.
 */
import type { Selectable } from 'kysely';
import type { Trx } from '../../db';
import type { UsersTable } from '../../db/tables/core';
import { revokeAllFamilies } from './sessions';

export type ConsoleUserRow = Pick<
  Selectable<UsersTable>,
  'id' | 'username' | 'email' | 'first_name' | 'last_name' | 'currency' | 'created_at' | 'email_verified_at' | 'two_factor_enabled' | 'blocked_at' | 'blocked_reason'
>;

const COLUMNS = ['id', 'username', 'email', 'first_name', 'last_name', 'currency', 'created_at', 'email_verified_at', 'two_factor_enabled', 'blocked_at', 'blocked_reason'] as const;

export interface UserSearch {
  /** Matches the id exactly, or a part of the email or username (case-insensitive) ... */
  q: string;
  /** ... or one of these ids (the profile's nickname matches). */
  alsoIds: number[];
  status: 'all' | 'active' | 'blocked';
  sort: 'id' | 'created_at' | 'email' | 'username';
  dir: 'asc' | 'desc';
  offset: number;
  limit: number;
}


function searched(db: Trx, s: Pick<UserSearch, 'q' | 'alsoIds' | 'status'>) {
  let query = db.selectFrom('users');
  if (s.status === 'blocked') query = query.where('blocked_at', 'is not', null);
  if (s.status === 'active') query = query.where('blocked_at', 'is', null);
  const q = s.q.trim().toLowerCase();
  if (q) {
    const like = `%${q}%`;
    query = query.where((eb) =>
      eb.or([
        ...(/^\d{1,15}$/.test(q) ? [eb('id', '=', Number(q))] : []),
        eb(eb.fn('lower', ['email']), 'like', like),
        eb(eb.fn('lower', ['username']), 'like', like),
        ...(s.alsoIds.length ? [eb('id', 'in', s.alsoIds)] : []),
      ]),
    );
  }
  return query;
}

export async function searchUsers(db: Trx, s: UserSearch): Promise<{ rows: ConsoleUserRow[]; total: number }> {
  const total = await searched(db, s).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await searched(db, s).select(COLUMNS).orderBy(s.sort, s.dir).orderBy('id', s.dir).offset(s.offset).limit(s.limit).execute();
  return { rows, total: Number(total.n) };
}

export function consoleUserRow(db: Trx, userId: number): Promise<ConsoleUserRow | undefined> {
  return db.selectFrom('users').select(COLUMNS).where('id', '=', userId).executeTakeFirst();
}

/** Block (with a reason) or unblock; blocking ends every session of the user at once. */
export async function setUserBlocked(trx: Trx, userId: number, block: { reason: string } | null, now: number): Promise<void> {
  await trx
    .updateTable('users')
    .set({ blocked_at: block ? now : null, blocked_reason: block ? block.reason : null, updated_at: now })
    .where('id', '=', userId)
    .execute();
  if (block) await revokeAllFamilies(trx, userId, 'admin', now);
}

/** Whether the user is blocked (login refuses a blocked user). */
export async function isUserBlocked(db: Trx, userId: number): Promise<boolean> {
  const row = await db.selectFrom('users').select('blocked_at').where('id', '=', userId).executeTakeFirst();
  return row?.blocked_at !== null && row?.blocked_at !== undefined;
}

export async function countUsers(db: Trx): Promise<number> {
  const r = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}
