/**
 * Drops three indexes no query uses, each written on every ledger posting (placement and
 * settlement both post): `ledger_tx_user` (ledger_transactions: user_id, id),
 * `ledger_entries_account` (ledger_entries: user_id, currency, account) and
 * `house_entries_account` (house_entries: account, currency). Postings are found by their
 * idempotency key (its unique index) and their legs by `ledger_tx_id` (the seal trigger's
 * indexes); the audit, `books` and `pnl` read whole tables or the balance rows. Every order
 * placed wrote three B-tree entries, and three WAL pages, for nothing (docs/performance.md,
 * "Seventh pass: placement and settlement"). A future per-user or per-account statement adds the
 * index it needs with its query.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists ledger_tx_user`.execute(db);
  await sql`drop index if exists ledger_entries_account`.execute(db);
  await sql`drop index if exists house_entries_account`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists ledger_tx_user on ledger_transactions (user_id, id)`.execute(db);
  await sql`create index if not exists ledger_entries_account on ledger_entries (user_id, currency, account)`.execute(db);
  await sql`create index if not exists house_entries_account on house_entries (account, currency)`.execute(db);
}
