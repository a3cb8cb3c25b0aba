/**
 * The ledger is append-only in the database too, not only by convention in the code: triggers
 * abort any UPDATE or DELETE of a ledger entry or of a ledger transaction (the entries' header,
 * holding the idempotency key). A correction is a new posting, never an edit.
 *
 * SQLite trigger syntax. PostgreSQL needs its own form: a plpgsql function that raises an
 * exception, attached with `create trigger ... before update or delete on ledger_entries for each
 * row execute function ...` (see docs/money.md).
 */
import { sql, type Kysely } from 'kysely';

const GUARDED = ['ledger_entries', 'ledger_transactions'] as const;
const OPERATIONS = ['update', 'delete'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of GUARDED) {
    for (const op of OPERATIONS) {
      await sql
        .raw(`create trigger ${table}_no_${op} before ${op} on ${table} begin select raise(abort, '${table} is append-only: ${op} refused'); end`)
        .execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of GUARDED) {
    for (const op of OPERATIONS) await sql.raw(`drop trigger if exists ${table}_no_${op}`).execute(db);
  }
}
