/**
 * Two-factor recovery codes (issue 26): ten single-use codes per user, made when two-factor is
 * turned on and again when the user regenerates them. Only a keyed hash of each code is kept
 * (HMAC-SHA256 with a key derived from the server secret, bound to the user: SecretBox.digest in
 * server/domain/profile/secret-box.ts). A used code keeps its row with `used_at` set; a new set
 * or turning two-factor off deletes the user's rows. See docs/security.md.
 */
import type { Kysely } from 'kysely';
import { autoId, idType, type SqlDialect } from './dialect';

export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('two_factor_recovery_codes')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('two_factor_recovery_codes_user').on('two_factor_recovery_codes').columns(['user_id', 'code_hash']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('two_factor_recovery_codes').execute();
}
