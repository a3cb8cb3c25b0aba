/**
 * Checking credentials. The identifier is a username or an email (an '@' decides which; a
 * username may not contain one). A missing user costs the same argon2 work as a wrong password
 * and gets the same answer. Failures count toward the per-account limit, keyed by the user when
 * one was found (so username and email share it) and by the identifier otherwise.
 */
import type { Trx } from '../../db';
import type { UsersTable } from '../../db/tables/core';
import type { Selectable } from 'kysely';
import { burnPasswordCheck, verifyPassword } from './passwords';

export type UserRow = Selectable<UsersTable>;

export async function findUserByIdentifier(db: Trx, identifier: string): Promise<UserRow | undefined> {
  const key = identifier.trim().toLowerCase();
  const column = key.includes('@') ? 'email' : 'username';
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', [column]), '=', key))
    .executeTakeFirst();
}

export function loginSubject(identifier: string, user: UserRow | undefined): string {
  return user ? `user:${user.id}` : `login:${identifier.trim().toLowerCase()}`;
}

/** The user whose password this is, or null; always spends one argon2 verification. */
export async function checkCredentials(user: UserRow | undefined, password: string): Promise<UserRow | null> {
  if (!user) {
    await burnPasswordCheck(password);
    return null;
  }
  return (await verifyPassword(user.password_hash, password)) ? user : null;
}
