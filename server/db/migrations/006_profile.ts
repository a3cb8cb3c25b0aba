/**
 * Profile: the personal data that registration does not ask for, the two-factor state (pending
 * enrolment, replay counter) and the login challenges, identity documents and their files,
 * Telegram links and their one-time link codes. See docs/profile.md. Times are milliseconds
 * since the epoch.
 */
import { sql, type Kysely } from 'kysely';
import { autoId, idType, type SqlDialect } from './dialect';

export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('user_profiles')
    .addColumn('user_id', idType(dialect), (c) => c.primaryKey().references('users.id'))
    .addColumn('second_email', 'text')
    .addColumn('birthday', 'text')
    .addColumn('gender', 'text', (c) => c.check(sql`gender in ('male', 'female', 'other')`))
    .addColumn('timezone', 'text')
    .addColumn('citizenship', 'text')
    .addColumn('nickname', 'text')
    .addColumn('notify_email', 'integer', (c) => c.notNull().defaultTo(1).check(sql`notify_email in (0, 1)`))
    .addColumn('notify_push', 'integer', (c) => c.notNull().defaultTo(1).check(sql`notify_push in (0, 1)`))
    .addColumn('notify_sms', 'integer', (c) => c.notNull().defaultTo(0).check(sql`notify_sms in (0, 1)`))
    .addColumn('passport_number', 'text')
    .addColumn('passport_issued_by', 'text')
    .addColumn('passport_issue_date', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Case-insensitive uniqueness; NULLs are distinct in SQLite and PostgreSQL alike.
  await sql`create unique index user_profiles_nickname_lower on user_profiles (lower(nickname))`.execute(db);

  await db.schema
    .createTable('two_factor_state')
    .addColumn('user_id', idType(dialect), (c) => c.primaryKey().references('users.id'))
    .addColumn('pending_secret', 'text')
    .addColumn('pending_created_at', 'bigint')
    .addColumn('last_used_step', 'bigint')
    .addColumn('enabled_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('two_factor_challenges')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('challenge_hash', 'text', (c) => c.notNull().unique())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('two_factor_challenges_time').on('two_factor_challenges').column('expires_at').execute();

  await db.schema
    .createTable('documents')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('type', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`type in ('passport', 'id_card', 'utility_bill', 'bank_statement', 'driver_license', 'selfie', 'address_proof', 'tax_document', 'income_proof', 'other')`,
        ),
    )
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('uploaded', 'pending', 'approved', 'rejected')`))
    .addColumn('rejection_reason', 'text')
    .addColumn('reviewed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('documents_user').on('documents').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('documents_status').on('documents').columns(['status', 'id']).execute();

  await db.schema
    .createTable('document_files')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('document_id', idType(dialect), (c) => c.notNull().references('documents.id'))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('storage_name', 'text', (c) => c.notNull().unique())
    .addColumn('size', 'bigint', (c) => c.notNull().check(sql`size > 0`))
    .addColumn('mime', 'text', (c) => c.notNull().check(sql`mime in ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')`))
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('document_files_document').on('document_files').column('document_id').execute();

  await db.schema
    .createTable('telegram_links')
    .addColumn('user_id', idType(dialect), (c) => c.primaryKey().references('users.id'))
    .addColumn('telegram_id', 'bigint', (c) => c.notNull().unique())
    .addColumn('chat_id', 'bigint', (c) => c.notNull())
    .addColumn('username', 'text')
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text')
    .addColumn('language_code', 'text')
    .addColumn('linked_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('telegram_link_codes')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('code_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('telegram_link_codes_user').on('telegram_link_codes').columns(['user_id', 'used_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'telegram_link_codes',
    'telegram_links',
    'document_files',
    'documents',
    'two_factor_challenges',
    'two_factor_state',
    'user_profiles',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
