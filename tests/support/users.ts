/** A user row inserted straight into the database (tests whose subject is not registration). */
import type { DB } from '../../server/db';

export async function insertUserRow(db: DB, name: string, now: number): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      username: name,
      email: `${name}@example.com`,
      password_hash: 'not-a-login',
      first_name: 'Test',
      last_name: 'Trader',
      phone: '+10000000000',
      currency: 'USD',
      front_settings: '{}',
      tracking: '{}',
      password_changed_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
