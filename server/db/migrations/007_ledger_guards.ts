/**
 * The ledger is append-only in the database too, not only by convention in the code: triggers
 * abort any UPDATE or DELETE of a ledger entry or of a ledger transaction (the entries' header,
 * holding the idempotency key). A correction is a new posting, never an edit.
 *
 * SQLite: one trigger per table and operation that raises. PostgreSQL: one plpgsql function
 * (`refuse_append_only_change`, also used by 008 and 009) attached by a `before update or delete
 * ... for each row` trigger per table; the error message is the same on both.
 */
import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from './dialect';

const GUARDED = ['ledger_entries', 'ledger_transactions'] as const;
const OPERATIONS = ['update', 'delete'] as const;

export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql
      .raw(
        `create function refuse_append_only_change() returns trigger language plpgsql as $$
         begin
           raise exception '% is append-only: % refused', tg_table_name, lower(tg_op) using errcode = 'P0001';
         end $$`,
      )
      .execute(db);
    for (const table of GUARDED) await appendOnlyPostgres(db, table);
    return;
  }
  for (const table of GUARDED) {
    for (const op of OPERATIONS) {
      await sql
        .raw(`create trigger ${table}_no_${op} before ${op} on ${table} begin select raise(abort, '${table} is append-only: ${op} refused'); end`)
        .execute(db);
    }
  }
}

/** PostgreSQL: refuse every UPDATE and DELETE on `table` (the function is created above). */
export async function appendOnlyPostgres(db: Kysely<any>, table: string): Promise<void> {
  await sql
    .raw(`create trigger ${table}_append_only before update or delete on ${table} for each row execute function refuse_append_only_change()`)
    .execute(db);
  // TRUNCATE skips row triggers: refused by a statement trigger.
  await sql
    .raw(`create trigger ${table}_no_truncate before truncate on ${table} for each statement execute function refuse_append_only_change()`)
    .execute(db);
}

export async function down(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  if (dialect === 'postgres') {
    for (const table of GUARDED) {
      await sql.raw(`drop trigger if exists ${table}_append_only on ${table}`).execute(db);
      await sql.raw(`drop trigger if exists ${table}_no_truncate on ${table}`).execute(db);
    }
    await sql`drop function if exists refuse_append_only_change()`.execute(db);
    return;
  }
  for (const table of GUARDED) {
    for (const op of OPERATIONS) await sql.raw(`drop trigger if exists ${table}_no_${op}`).execute(db);
  }
}
