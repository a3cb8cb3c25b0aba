/** Orders: the timed up/down orders (see docs/orders.md). Money columns are integer minor units. */
import { sql, type Kysely } from 'kysely';
import { autoId, idType, type SqlDialect } from './dialect';

export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('orders')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('client_request_id', 'text')
    .addColumn('pair_code', 'text', (c) => c.notNull())
    .addColumn('pair_human_code', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull().check(sql`direction in ('up', 'down')`))
    .addColumn('account', 'text', (c) => c.notNull().check(sql`account in ('real', 'demo')`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('stake', 'bigint', (c) => c.notNull().check(sql`stake > 0`))
    .addColumn('payout_rate_bp', 'integer', (c) => c.notNull().check(sql`payout_rate_bp >= 0`))
    .addColumn('price_precision', 'integer', (c) => c.notNull())
    .addColumn('expiry_seconds', 'integer', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('open_price', 'double precision', (c) => c.notNull())
    .addColumn('entry_tick_time', 'bigint', (c) => c.notNull())
    .addColumn('entry_tick_seq', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('open', 'closed')`))
    .addColumn('result', 'text', (c) => c.check(sql`result in ('won', 'lost', 'tie', 'closed_early', 'refunded')`))
    .addColumn('close_reason', 'text')
    .addColumn('close_price', 'double precision')
    .addColumn('exit_tick_time', 'bigint')
    .addColumn('exit_tick_seq', 'bigint')
    .addColumn('payout', 'bigint', (c) => c.check(sql`payout >= 0`))
    .addColumn('closed_at', 'bigint')
    .addColumn('is_manual', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // One order per (user, client_request_id); rows without a request id are not constrained
  // (NULLs are distinct in both SQLite and PostgreSQL).
  await db.schema
    .createIndex('orders_user_request')
    .on('orders')
    .columns(['user_id', 'client_request_id'])
    .unique()
    .execute();
  await db.schema.createIndex('orders_user_id').on('orders').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('orders_status_expiry').on('orders').columns(['status', 'expires_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('orders').execute();
}
