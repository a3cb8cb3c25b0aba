/**
 * The hash-chained tick log (docs/market.md, "Tick log chain"): every batch of ticks the market
 * writes gets one row in `market_tick_batches` carrying the hash of the previous batch and its
 * own; each tick row points at its batch. Append-only: triggers refuse any change or deletion of
 * a batch row and any change of a tick row except giving an unsealed tick its batch once
 * (retention may still delete old ticks; `admin ticks verify` tells pruned from tampered).
 * Ticks stored before this migration keep batch_id null (before the chain). The triggers are
 * SQLite's or the same rules as plpgsql functions on PostgreSQL.
 */
import { sql, type Kysely } from 'kysely';
import { idType, type SqlDialect } from './dialect';

export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('market_tick_batches')
    .addColumn('id', idType(dialect), (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('tick_count', 'integer', (c) => c.notNull().check(sql`tick_count > 0`))
    .addColumn('tick_digest', 'text', (c) => c.notNull())
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .execute();
  await db.schema.alterTable('market_ticks').addColumn('batch_id', idType(dialect)).execute();
  await db.schema.createIndex('market_ticks_batch').on('market_ticks').column('batch_id').execute();

  if (dialect === 'postgres') {
    await postgresTriggers(db);
    return;
  }
  await sql`create trigger market_tick_batches_no_update before update on market_tick_batches
    begin select raise(abort, 'market_tick_batches is append-only'); end`.execute(db);
  await sql`create trigger market_tick_batches_no_delete before delete on market_tick_batches
    begin select raise(abort, 'market_tick_batches is append-only'); end`.execute(db);
  await sql`create trigger market_ticks_sealed before update on market_ticks
    when old.batch_id is not null or new.batch_id is null or new.pair_code is not old.pair_code
      or new.seq is not old.seq or new.time_ms is not old.time_ms or new.price is not old.price
    begin select raise(abort, 'market_ticks rows do not change once written'); end`.execute(db);
}

async function postgresTriggers(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create function market_tick_batches_refuse() returns trigger language plpgsql as $$
       begin
         raise exception 'market_tick_batches is append-only' using errcode = 'P0001';
       end $$`,
    )
    .execute(db);
  await sql`create trigger market_tick_batches_append_only before update or delete on market_tick_batches
    for each row execute function market_tick_batches_refuse()`.execute(db);
  await sql`create trigger market_tick_batches_no_truncate before truncate on market_tick_batches
    for each statement execute function market_tick_batches_refuse()`.execute(db);
  await sql
    .raw(
      `create function market_ticks_sealed() returns trigger language plpgsql as $$
       begin
         if old.batch_id is not null or new.batch_id is null or new.pair_code is distinct from old.pair_code
           or new.seq is distinct from old.seq or new.time_ms is distinct from old.time_ms or new.price is distinct from old.price then
           raise exception 'market_ticks rows do not change once written' using errcode = 'P0001';
         end if;
         return new;
       end $$`,
    )
    .execute(db);
  await sql`create trigger market_ticks_sealed before update on market_ticks for each row execute function market_ticks_sealed()`.execute(db);
}

export async function down(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`drop trigger if exists market_ticks_sealed on market_ticks`.execute(db);
    await sql`drop function if exists market_ticks_sealed()`.execute(db);
    await db.schema.dropIndex('market_ticks_batch').execute();
    await db.schema.alterTable('market_ticks').dropColumn('batch_id').execute();
    await db.schema.dropTable('market_tick_batches').execute();
    await sql`drop function if exists market_tick_batches_refuse()`.execute(db);
    return;
  }
  await sql`drop trigger if exists market_ticks_sealed`.execute(db);
  await sql`drop trigger if exists market_tick_batches_no_delete`.execute(db);
  await sql`drop trigger if exists market_tick_batches_no_update`.execute(db);
  await db.schema.dropIndex('market_ticks_batch').execute();
  await db.schema.alterTable('market_ticks').dropColumn('batch_id').execute();
  await db.schema.dropTable('market_tick_batches').execute();
}
