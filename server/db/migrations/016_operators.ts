/**
 * The operator console (issue 27): operators and their sessions, the login attempts that lock
 * them, the append-only hash-chained audit log and the four-eyes approval requests; and the
 * block of a user (users.blocked_at / blocked_reason).
 *
 * - operators: one row per operator (never a user): argon2id password hash, the TOTP secret
 *   sealed with AES-256-GCM (SecretBox, bound to "operator-totp:<id>"), the last TOTP step used
 *   (a code works once), the role, disabled_at, and the lock (failed_logins, locked_until).
 * - operator_sessions: the server-side session behind the `op_session` cookie; the cookie holds a
 *   random token, the row its SHA-256. Idle and absolute expiry, revoked_at (logout, disable).
 * - operator_login_failures: one row per failed login, by subject (`op:<id>` or `ip:<address>`),
 *   counted over the lock window.
 * - audit_log: append-only (triggers refuse UPDATE and DELETE on both dialects, TRUNCATE too on
 *   PostgreSQL); each row's hash is SHA-256 over the previous row's hash and the row's canonical
 *   JSON (server/domain/audit/chain.ts), so an edit breaks the chain at that row.
 * - approval_requests: a change waiting for a second operator; executed at most once (the
 *   status moves pending -> executed in the transaction that applies it).
 */
import { sql, type Kysely } from 'kysely';
import { autoId, idType, type SqlDialect } from './dialect';
import { appendOnlyPostgres } from './007_ledger_guards';

export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('operators')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text')
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('totp_secret', 'text', (c) => c.notNull())
    .addColumn('totp_last_step', 'bigint')
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('support', 'compliance', 'finance', 'risk', 'admin')`))
    .addColumn('disabled_at', 'bigint')
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint')
    .addColumn('last_login_at', 'bigint')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('operator_sessions')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('operator_id', idType(dialect), (c) => c.notNull().references('operators.id'))
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoked_reason', 'text')
    .execute();
  await db.schema.createIndex('operator_sessions_operator').on('operator_sessions').columns(['operator_id', 'revoked_at']).execute();

  await db.schema
    .createTable('operator_login_failures')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('operator_login_failures_subject').on('operator_login_failures').columns(['subject', 'created_at']).execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('operator_id', idType(dialect))
    .addColumn('operator_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('reason', 'text')
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('ip', 'text')
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('console', 'cli')`))
    .addColumn('os_user', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target_type', 'target_id']).execute();
  await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'id']).execute();
  if (dialect === 'postgres') {
    await appendOnlyPostgres(db, 'audit_log');
  } else {
    for (const op of ['update', 'delete']) {
      await sql.raw(`create trigger audit_log_no_${op} before ${op} on audit_log begin select raise(abort, 'audit_log is append-only: ${op} refused'); end`).execute(db);
    }
  }

  await db.schema
    .createTable('approval_requests')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('withdrawal', 'risk_limit_raise', 'balance_adjustment', 'pair_enable')`))
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'rejected', 'executed')`))
    .addColumn('requested_by', idType(dialect), (c) => c.notNull().references('operators.id'))
    .addColumn('request_reason', 'text', (c) => c.notNull())
    .addColumn('decided_by', idType(dialect), (c) => c.references('operators.id'))
    .addColumn('decision_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .execute();
  await db.schema.createIndex('approval_requests_status').on('approval_requests').columns(['status', 'id']).execute();
  // One pending request per target and kind: a second click asks nothing new.
  await sql
    .raw(`create unique index approval_requests_one_pending on approval_requests (kind, target_type, target_id) where status = 'pending'`)
    .execute(db);

  await db.schema.alterTable('users').addColumn('blocked_at', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('blocked_reason', 'text').execute();
}

export async function down(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema.alterTable('users').dropColumn('blocked_reason').execute();
  await db.schema.alterTable('users').dropColumn('blocked_at').execute();
  await db.schema.dropTable('approval_requests').execute();
  if (dialect === 'sqlite') {
    for (const op of ['update', 'delete']) await sql.raw(`drop trigger if exists audit_log_no_${op}`).execute(db);
  }
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropTable('operator_login_failures').execute();
  await db.schema.dropTable('operator_sessions').execute();
  await db.schema.dropTable('operators').execute();
}
