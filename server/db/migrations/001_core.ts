import { sql, type Kysely } from 'kysely';
import { autoId, idType, type SqlDialect } from './dialect';

export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('front_settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('tracking', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('email_verified_at', 'bigint')
    .addColumn('two_factor_secret', 'text')
    .addColumn('two_factor_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_changed_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Case-insensitive uniqueness, written so PostgreSQL runs it too.
  await sql`create unique index users_username_lower on users (lower(username))`.execute(db);
  await sql`create unique index users_email_lower on users (lower(email))`.execute(db);

  await db.schema
    .createTable('balances')
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull().check(sql`account in ('real', 'demo', 'real_hold')`))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('balances_pk', ['user_id', 'currency', 'account'])
    .execute();

  await db.schema
    .createTable('ledger_transactions')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('ref_type', 'text')
    .addColumn('ref_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_tx_user').on('ledger_transactions').columns(['user_id', 'id']).execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('ledger_tx_id', idType(dialect), (c) => c.notNull().references('ledger_transactions.id'))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull().check(sql`balance_after >= 0`))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_entries_account')
    .on('ledger_entries')
    .columns(['user_id', 'currency', 'account'])
    .execute();

  await db.schema
    .createTable('domain_events')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('user_id', idType(dialect))
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['domain_events', 'ledger_entries', 'ledger_transactions', 'balances', 'users']) {
    await db.schema.dropTable(t).execute();
  }
}
