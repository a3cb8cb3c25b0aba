/**
 * Price alerts (issue 16): a trader's "tell me when EUR/USD goes above 1.16". The price is kept
 * as the pair's scaled integer (price x 10^precision, with the precision stored next to it), so
 * the crossing test compares integers, never floats. `fired_at` is set once, in the same
 * transaction as the alert.fired domain event; a fired alert never fires again. See
 * docs/trader-tools.md.
 */
import { sql, type Kysely } from 'kysely';
import { autoId, idType, type SqlDialect } from './dialect';

export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('price_alerts')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('pair_code', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull().check(sql`direction in ('above', 'below')`))
    .addColumn('price_scaled', 'bigint', (c) => c.notNull().check(sql`price_scaled > 0`))
    .addColumn('price_precision', 'integer', (c) => c.notNull().check(sql`price_precision >= 0 and price_precision <= 12`))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('fired_at', 'bigint')
    .addColumn('fired_price_scaled', 'bigint')
    .execute();
  await db.schema.createIndex('price_alerts_user').on('price_alerts').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('price_alerts_pending').on('price_alerts').columns(['pair_code', 'fired_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('price_alerts').execute();
}
