/**
 * Several nodes on one PostgreSQL database (issue 15, docs/cluster.md):
 * - `cluster_leases`: one row per leadership (today only `feed`). Its `epoch` is bumped each time
 *   a node takes the feed's advisory lock; the tick log's batched writes check it in their own
 *   transaction (the fencing token), so a leader that lost its lock can never write again.
 * - `domain_events.delivered_at`: on PostgreSQL the outbox is delivered by claiming undelivered
 *   rows (FOR UPDATE SKIP LOCKED) and marking them, so each event is delivered once cluster-wide
 *   even when ids commit out of order. Rows from before this migration count as delivered.
 *   SQLite keeps the in-memory cursor and never reads the column (nor gets its index).
 */
import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from './dialect';

export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('cluster_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('epoch', 'bigint', (c) => c.notNull().check(sql`epoch >= 1`))
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('taken_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('domain_events').addColumn('delivered_at', 'bigint').execute();
  if (dialect !== 'postgres') return;
  await db.updateTable('domain_events').set({ delivered_at: sql`created_at` }).execute();
  // Only the undelivered rows are indexed: the claim reads them in id order.
  await db.schema.createIndex('domain_events_undelivered').on('domain_events').column('id').where(sql.ref('delivered_at'), 'is', null).execute();
}

export async function down(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  if (dialect === 'postgres') await db.schema.dropIndex('domain_events_undelivered').execute();
  await db.schema.alterTable('domain_events').dropColumn('delivered_at').execute();
  await db.schema.dropTable('cluster_leases').execute();
}
