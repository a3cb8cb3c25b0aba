/**
 * Authentication: sessions as refresh-token families, the refresh tokens themselves (hashed),
 * password-reset requests, email verifications, one-time admin tokens, the per-account attempt
 * counters behind the account rate limits, and the generic message outbox (email now,
 * Telegram later) used when no real transport is configured.
 */
import { sql, type Kysely } from 'kysely';
import { autoId, idType, type SqlDialect } from './dialect';

export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('auth_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('session_type', 'text', (c) => c.notNull().check(sql`session_type in ('user', 'admin')`))
    .addColumn('auth_time', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoked_reason', 'text')
    .execute();
  await db.schema.createIndex('auth_sessions_user').on('auth_sessions').columns(['user_id', 'revoked_at']).execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('family_id', 'text', (c) => c.notNull().references('auth_sessions.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('code_used_at', 'bigint')
    .addColumn('link_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('confirm_token_hash', 'text', (c) => c.unique())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('open', 'used', 'superseded', 'locked')`))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('closed_at', 'bigint')
    .execute();
  await db.schema.createIndex('password_resets_user').on('password_resets').columns(['user_id', 'status']).execute();

  await db.schema
    .createTable('email_verifications')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();

  await db.schema
    .createTable('admin_tokens')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();

  await db.schema
    .createTable('auth_attempts')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_attempts_subject').on('auth_attempts').columns(['scope', 'subject', 'created_at']).execute();
  await db.schema.createIndex('auth_attempts_time').on('auth_attempts').column('created_at').execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outbox_recipient').on('outbox').columns(['channel', 'recipient', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['outbox', 'auth_attempts', 'admin_tokens', 'email_verifications', 'password_resets', 'refresh_tokens', 'auth_sessions']) {
    await db.schema.dropTable(t).execute();
  }
}
