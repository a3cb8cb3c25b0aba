/**
 * `shared_secrets`: on PostgreSQL the secrets a node generates when the environment does not set
 * them (server/secrets.ts: the access-token key, which also seals two-factor secrets, and the
 * webhook secrets) are kept in the database, so every node of a cluster generates them once and
 * reads the same values: a token signed by one node is accepted by the others, a webhook may
 * reach any node. SQLite (one node) keeps them in DATA_DIR/secrets.json as before and never
 * reads this table; it is created on both so the schema stays one.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shared_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('shared_secrets').execute();
}
