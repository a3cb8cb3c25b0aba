/**
 * The database: SQLite through better-sqlite3 (WAL) behind Kysely, so the SQL stays portable
 * to PostgreSQL. `openDatabase` creates the file's folder, applies every migration and returns
 * the Kysely instance; `transaction` runs a write transaction with BEGIN IMMEDIATE so a second
 * process (the operator CLI) can never interleave a read-then-write with the server.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import type { Database } from './schema';
import { migrations } from './migrations';
import { withStatementCache } from './statement-cache';

export type DB = Kysely<Database>;
/** A handle bound to the one connection of a running transaction (or the db itself for reads). */
export type Trx = Kysely<Database>;

export async function openDatabase(file: string): Promise<DB> {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  // Checkpoint the WAL every ~40 MB instead of every ~4 MB: a write transaction (an order touches
  // some twenty pages) pays for far fewer checkpoints (docs/performance.md).
  sqlite.pragma('wal_autocheckpoint = 10000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Prepared statements are reused across queries (statement-cache.ts).
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  await migrate(db);
  return db;
}

export async function migrate(db: DB): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) {
    if (r.status === 'Error') throw new Error(`Migration ${r.migrationName} failed`, { cause: error });
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/**
 * Run `fn` inside one write transaction (BEGIN IMMEDIATE ... COMMIT, ROLLBACK on throw).
 * Kysely's SQLite driver holds one connection behind a mutex, so transactions in this
 * process run one after another; BEGIN IMMEDIATE takes the write lock up front against
 * other processes. Inside `fn` use only the `trx` handle: a query on the outer `db` would wait
 * for this very transaction to finish and never run.
 */
export async function transaction<T>(db: DB, fn: (trx: Trx) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw err;
    }
  });
}

/** Milliseconds since the epoch; every timestamp column stores this. */
export const nowMs = () => Date.now();
