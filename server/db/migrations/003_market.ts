/** Market: the pairs table, series state, the tick log and candles (see docs/market.md). */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pairs')
    .addColumn('pair_code', 'text', (c) => c.primaryKey())
    .addColumn('pair_human_code', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull().check(sql`category in ('forex', 'crypto', 'stocks', 'commodities')`))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1).check(sql`is_active in (0, 1)`))
    .addColumn('payout_rate', 'double precision', (c) => c.notNull().check(sql`payout_rate >= 0 and payout_rate <= 1`))
    .addColumn('precision', 'integer', (c) => c.notNull().check(sql`"precision" >= 0 and "precision" <= 10`))
    .addColumn('timeframes', 'text', (c) => c.notNull())
    .addColumn('logo', 'text', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('market_series')
    .addColumn('pair_code', 'text', (c) => c.primaryKey())
    .addColumn('anchor_time', 'bigint', (c) => c.notNull())
    .addColumn('anchor_price', 'double precision', (c) => c.notNull())
    .addColumn('backfilled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('market_ticks')
    .addColumn('pair_code', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('time_ms', 'bigint', (c) => c.notNull())
    .addColumn('price', 'double precision', (c) => c.notNull().check(sql`price > 0`))
    .addPrimaryKeyConstraint('market_ticks_pk', ['pair_code', 'seq'])
    .execute();
  await db.schema.createIndex('market_ticks_time').on('market_ticks').columns(['pair_code', 'time_ms']).execute();

  await db.schema
    .createTable('market_candles')
    .addColumn('pair_code', 'text', (c) => c.notNull())
    .addColumn('timeframe', 'text', (c) => c.notNull())
    .addColumn('bucket', 'bigint', (c) => c.notNull())
    .addColumn('open', 'double precision', (c) => c.notNull())
    .addColumn('high', 'double precision', (c) => c.notNull())
    .addColumn('low', 'double precision', (c) => c.notNull())
    .addColumn('close', 'double precision', (c) => c.notNull())
    .addColumn('volume', 'bigint', (c) => c.notNull())
    .addColumn('is_backfill', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('market_candles_pk', ['pair_code', 'timeframe', 'bucket'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['market_candles', 'market_ticks', 'market_series', 'pairs']) {
    await db.schema.dropTable(t).execute();
  }
}
