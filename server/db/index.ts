/**
 * The database behind Kysely, one of two dialects (docs/database.md):
 *
 * - SQLite through better-sqlite3 (WAL), the file DATA_DIR/tradeterminal.db: the default, one
 *   process, nothing to install;
 * - PostgreSQL through a `pg` pool (server/db/postgres.ts) when DATABASE_URL is set: several
 *   server processes on one database.
 *
 * `openDatabase` opens the one the configuration names, applies every migration (built for that
 * dialect) and returns the Kysely instance; `dialectOf` tells code that must differ which one it
 * runs on. `transaction` runs a write transaction: BEGIN IMMEDIATE on SQLite, so a second
 * process (the operator CLI) can never interleave a read-then-write with the server; BEGIN (read
 * committed) on PostgreSQL, where every read-then-write locks what it reads (`forUpdate`) and
 * the whole transaction runs again after a serialization failure, a deadlock or a raced unique
 * key.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from './schema';
import { migrationsFor } from './migrations';
import type { SqlDialect } from './migrations/dialect';
import { withStatementCache } from './statement-cache';
import {
  AUTOCHECKPOINT_BYTES,
  autocheckpointPages,
  CHECKPOINT_INTERVAL_MS,
  FALLBACK_AUTOCHECKPOINT_BYTES,
  RESTART_BYTES,
  startCheckpointer,
  type Checkpointer,
} from './checkpointer';
import { createPool, isRetryable } from './postgres';

export type DB = Kysely<Database>;
/** A handle bound to the one connection of a running transaction (or the db itself for reads). */
export type Trx = Kysely<Database>;
/** Runs `fn` in one write transaction (BEGIN IMMEDIATE on SQLite); inside it use only the handed `trx`. */
export type RunTx = <T>(fn: (trx: Trx) => Promise<T>) => Promise<T>;

/** The two SQL dialects the server runs on (defined beside the migrations, which take it too). */
export type { SqlDialect };

/** Page size of a SQLite database created by the server (an existing file keeps its own). */
export const SQLITE_PAGE_SIZE = 1024;

/** The SQLite file inside DATA_DIR (used when no DATABASE_URL is set). */
export const SQLITE_FILE = 'tradeterminal.db';

/** What `openDatabase` needs from the configuration (server/config.ts). */
export interface DatabaseConfig {
  dataDir: string;
  /** postgres://... : PostgreSQL; undefined: SQLite in dataDir. */
  databaseUrl?: string | undefined;
  databasePoolSize?: number;
  /** SQLite only: this file instead of DATA_DIR/tradeterminal.db. */
  sqliteFile?: string;
  /**
   * SQLite only: checkpoint the WAL from a worker thread instead of inside commits
   * (checkpointer.ts). The server turns it on; one-shot tools (the admin CLI) do not need it.
   */
  backgroundCheckpoints?: boolean;
  /** Where a failed background checkpoint is reported (the server's log). */
  onCheckpointError?: (message: string) => void;
  /** SQLite only: the worker's interval and finish mark (checkpointer.ts); tests make them small. */
  checkpointTuning?: CheckpointTuning;
}

/** The background checkpointer's interval (ms) and the WAL size (bytes) past which it finishes a checkpoint. */
export interface CheckpointTuning {
  intervalMs?: number;
  restartBytes?: number;
}

/** The dialect the configuration selects. */
export function configuredDialect(config: Pick<DatabaseConfig, 'databaseUrl'>): SqlDialect {
  return config.databaseUrl ? 'postgres' : 'sqlite';
}

/**
 * Open the configured database and bring its schema up to date. The server and the CLI both open
 * it here, with their configuration; a string is a SQLite file of its own (tools and tests).
 */
export async function openDatabase(config: DatabaseConfig | string): Promise<DB> {
  if (typeof config === 'string') config = { dataDir: path.dirname(config), sqliteFile: config };
  const dialect = configuredDialect(config);
  const db =
    dialect === 'postgres'
      ? openPostgres(config.databaseUrl!, config.databasePoolSize ?? 10)
      : openSqliteFile(config.sqliteFile ?? path.join(config.dataDir, SQLITE_FILE), {
          backgroundCheckpoints: config.backgroundCheckpoints ?? false,
          onCheckpointError: config.onCheckpointError,
          checkpointTuning: config.checkpointTuning,
        });
  try {
    await migrate(db, dialect);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return db;
}

function openPostgres(url: string, poolSize: number): DB {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: createPool(url, poolSize) }) });
}

const checkpointers = new WeakMap<DB, Checkpointer>();

/** The background checkpointer of a SQLite database opened with `backgroundCheckpoints` (tests, operators). */
export function checkpointerOf(db: DB): Checkpointer | undefined {
  return checkpointers.get(db);
}

/** A SQLite file (or ':memory:'), without running the migrations. */
export function openSqliteFile(
  file: string,
  options: { backgroundCheckpoints?: boolean; onCheckpointError?: ((message: string) => void) | undefined; checkpointTuning?: CheckpointTuning | undefined } = {},
): DB {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // A new database gets 1 KiB pages (an existing one keeps its own): a commit writes every page
  // it changed to the WAL, and an order changes some twenty (its rows and their indexes), each a
  // few dozen bytes; with 4 KiB pages the median commit took ~120 us against ~75 us with 1 KiB
  // (docs/performance.md, "Fifth pass: placement and settlement"). Must come before anything is written.
  sqlite.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  const background = options.backgroundCheckpoints === true && file !== ':memory:';
  // Checkpoints: from a worker thread (checkpointer.ts), this connection's own only as a
  // backstop (at 200 MB of WAL); without the worker, every 40 MB instead of SQLite's 1,000
  // pages: a write transaction (an order touches some twenty pages) pays for far fewer of them
  // (docs/performance.md). The marks are bytes: an existing database keeps its own page size.
  const pageSize = Number(sqlite.pragma('page_size', { simple: true }));
  sqlite.pragma(`wal_autocheckpoint = ${autocheckpointPages(background ? FALLBACK_AUTOCHECKPOINT_BYTES : AUTOCHECKPOINT_BYTES, pageSize)}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Prepared statements are reused across queries (statement-cache.ts).
  let database = withStatementCache(sqlite);
  // Past RESTART_BYTES of WAL the worker asks for a complete checkpoint: the writes are held (the
  // driver's one connection taken, so they queue as promises and the event loop runs on) while
  // it copies the rest and the WAL may start over (checkpointer.ts).
  let finishing = false;
  let closed = false;
  const finish = async (): Promise<void> => {
    if (finishing || closed || !checkpointer) return;
    finishing = true;
    try {
      await db.connection().execute(async () => {
        heldForCheckpoint.add(database);
        try {
          await checkpointer.finish();
        } finally {
          heldForCheckpoint.delete(database);
        }
      });
    } catch (err) {
      if (!closed) options.onCheckpointError?.(err instanceof Error ? err.message : String(err));
    } finally {
      finishing = false;
    }
  };
  const tuning = options.checkpointTuning ?? {};
  const checkpointer = background
    ? startCheckpointer(file, options.onCheckpointError, tuning.intervalMs ?? CHECKPOINT_INTERVAL_MS, {
        restartBytes: tuning.restartBytes ?? RESTART_BYTES,
        onWanted: () => void finish(),
      })
    : null;
  if (checkpointer) {
    const close = database.close.bind(database);
    database = new Proxy(database, {
      get: (target, prop) => (prop === 'close' ? () => ((closed = true), void checkpointer.stop(), close()) : Reflect.get(target, prop, target)),
    });
  }
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  if (checkpointer) checkpointers.set(db, checkpointer);
  sqliteDatabases.set(db, database);
  return db;
}

/** Apply every migration not applied yet, in the form written for `dialect`. */
export async function migrate(db: DB, dialect: SqlDialect = dialectOf(db)): Promise<void> {
  const migrations = migrationsFor(dialect);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) {
    if (r.status === 'Error') throw new Error(`Migration ${r.migrationName} failed`, { cause: error });
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** The dialect of an open database (or of a transaction's handle). */
export function dialectOf(db: Kysely<any>): SqlDialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * `query ... FOR UPDATE` on PostgreSQL, `query` unchanged on SQLite (where BEGIN IMMEDIATE
 * already holds the only write lock). Every read inside a transaction whose result decides a
 * write (a balance, an order's or a payment's status, a token, a code) goes through this, so two
 * transactions on a pool never both act on the same old value.
 */
export function forUpdate<DBT, TB extends keyof DBT, O>(trx: Kysely<any>, query: SelectQueryBuilder<DBT, TB, O>): SelectQueryBuilder<DBT, TB, O> {
  return dialectOf(trx) === 'postgres' ? query.forUpdate() : query;
}

/** Attempts of one transaction on PostgreSQL before its retryable error reaches the caller. */
export const MAX_TRANSACTION_ATTEMPTS = 5;

/**
 * Run `fn` inside one write transaction (COMMIT at the end, ROLLBACK on throw). Inside `fn` use
 * only the `trx` handle: on SQLite a query on the outer `db` would wait for this very
 * transaction to finish and never run (Kysely's SQLite driver holds one connection behind a
 * mutex, so transactions in this process run one after another); on PostgreSQL it would run
 * outside the transaction.
 *
 * On PostgreSQL transactions run concurrently on the pool; `fn` runs again (from the start, on a
 * fresh transaction) after a serialization failure (40001), a deadlock (40P01) or a unique
 * violation (23505), up to MAX_TRANSACTION_ATTEMPTS times with a short jittered pause. So `fn`
 * must only write to the database: anything it changes in memory would be done twice.
 */
export async function transaction<T>(db: DB, fn: (trx: Trx) => Promise<T>): Promise<T> {
  if (dialectOf(db) === 'sqlite') return runOnce(db, 'begin immediate', fn);
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(db, 'begin', fn);
    } catch (err) {
      if (attempt >= MAX_TRANSACTION_ATTEMPTS || !isRetryable(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

async function runOnce<T>(db: DB, begin: 'begin' | 'begin immediate', fn: (trx: Trx) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    // SQLite: while this transaction runs it holds the only connection (Kysely's driver lets one
    // user at a time have it), so its handle may also run statements on the database directly,
    // its own begin and commit included (one per order placed: no query to build for them).
    const raw = sqliteDatabases.get(db);
    const run = async (statement: string): Promise<void> => {
      if (raw) raw.prepare(statement).run();
      else await sql.raw(statement).execute(conn);
    };
    await run(begin);
    if (raw) heldSqlite.set(conn, raw);
    try {
      const result = await fn(conn);
      await run('commit');
      return result;
    } catch (err) {
      await run('rollback').catch(() => undefined);
      throw err;
    } finally {
      heldSqlite.delete(conn);
    }
  });
}

/** The better-sqlite3 database behind each SQLite Kysely instance (with the statement cache). */
const sqliteDatabases = new WeakMap<DB, SQLite.Database>();
/** SQLite databases whose writes are held while the checkpointer finishes (openSqliteFile). */
const heldForCheckpoint = new WeakSet<SQLite.Database>();
/** Handles of running SQLite write transactions, and their database. */
const heldSqlite = new WeakMap<Trx, SQLite.Database>();

/**
 * The SQLite database when `trx` is the handle of a running write transaction (`transaction`):
 * a statement may then run on it synchronously, skipping the driver's queue, because the
 * transaction already holds the one connection. Undefined anywhere else (PostgreSQL, the outer
 * `db`): there the driver must be used. server/db/prepared.ts uses it.
 */
export function heldSqliteOf(trx: Trx): SQLite.Database | undefined {
  return heldSqlite.get(trx);
}

/**
 * The SQLite database when `db` is a SQLite database's own handle (the one `openSqliteFile`
 * returned, not a `withPlugin` copy) and no transaction is open on its one connection: a
 * statement may then run on it synchronously, in a transaction of its own as the driver would
 * run it, skipping the driver's queue and its promises (every authenticated request's session
 * read goes this way). While a write transaction is open, from its BEGIN to its COMMIT and across
 * every await in between, this is undefined: the statement waits in the driver's queue as
 * before, so it never runs inside, or sees, another caller's transaction. Nor while the
 * checkpointer finishes (its worker holds the write lock): a write would sleep in SQLite's busy
 * handler on the event loop, so the statement waits in the driver's queue instead.
 */
export function idleSqliteOf(db: Trx): SQLite.Database | undefined {
  const raw = sqliteDatabases.get(db);
  return raw !== undefined && !raw.inTransaction && !heldForCheckpoint.has(raw) ? raw : undefined;
}

/** Milliseconds since the epoch; every timestamp column stores this. */
export const nowMs = () => Date.now();
