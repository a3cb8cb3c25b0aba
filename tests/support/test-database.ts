/**
 * Which database a test server uses. On the `node` project: SQLite in the server's DATA_DIR, as
 * always. On the `server-pg` project (vitest.config.ts): a fresh PostgreSQL database per data
 * folder, copied from the migrated template of the run's throwaway server
 * (tests/support/postgres.ts). Its address is kept in the data folder (`test-database-url`), so
 * whatever works on a DATA_DIR finds the same database: a server restarted on it, the operator
 * CLI run as a child process (`databaseEnv`), the ledger audit command.
 */
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, inject } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { dialectOf, openDatabase, type DB } from '../../server/db';
import { createDatabase, dropDatabase } from './postgres';

const URL_FILE = 'test-database-url';

/** The throwaway PostgreSQL's maintenance address on the server-pg project; undefined on SQLite. */
export function testPostgresUrl(): string | undefined {
  return inject('pgAdminUrl') || undefined;
}

/** Which database the tests of this project run on. */
export const testDialect = (): 'sqlite' | 'postgres' => (testPostgresUrl() ? 'postgres' : 'sqlite');

/** The database address already given to `dataDir`, if any. */
export function databaseUrlOf(dataDir: string): string | undefined {
  const file = path.join(dataDir, URL_FILE);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : undefined;
}

/**
 * On PostgreSQL: the database of `dataDir`, created on first use. Undefined on SQLite (the
 * server opens DATA_DIR/tradeterminal.db).
 */
export async function prepareDatabase(dataDir: string): Promise<string | undefined> {
  const admin = testPostgresUrl();
  if (!admin) return undefined;
  const existing = databaseUrlOf(dataDir);
  if (existing) return existing;
  const url = await createDatabase(admin);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, URL_FILE), url);
  return url;
}

/**
 * A fresh project database (SQLite, or a PostgreSQL database of its own on `server-pg`) for the
 * tests of one file: opened with the migrations before they run, closed and dropped after.
 * Read `.db` inside a test or a hook.
 */
export function useTestDatabase(prefix: string): { readonly db: DB } {
  let db: DB | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `tt-${prefix}-`));
    db = await openDatabase({ dataDir: dir, databaseUrl: await prepareDatabase(dir) });
  });
  afterAll(async () => {
    await db?.destroy();
    if (dir) await releaseDatabase(dir);
  });
  return {
    get db() {
      if (!db) throw new Error('useTestDatabase: the database is open only inside tests and hooks');
      return db;
    },
  };
}

/** Drop the PostgreSQL database of `dataDir` (nothing on SQLite). */
export async function releaseDatabase(dataDir: string): Promise<void> {
  const admin = testPostgresUrl();
  const url = databaseUrlOf(dataDir);
  if (admin && url) await dropDatabase(admin, url);
}

/**
 * The environment a child process (the operator CLI, a server started with tsx) needs to work on
 * the database of `dataDir`: DATA_DIR, plus DATABASE_URL on PostgreSQL.
 */
export function databaseEnv(dataDir: string): Record<string, string> {
  const url = databaseUrlOf(dataDir);
  return { DATA_DIR: dataDir, ...(url ? { DATABASE_URL: url } : {}) };
}

/**
 * Run `fn` with foreign keys not enforced, as a direct database edit by an operator would (e.g.
 * deleting a user row whose ledger rows can never go): `pragma foreign_keys` on SQLite,
 * `session_replication_role = replica` on PostgreSQL (on one connection, the test role is a
 * superuser).
 */
export async function withForeignKeysOff(db: Kysely<any>, fn: (conn: Kysely<any>) => Promise<void>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.connection().execute(async (conn) => {
    await (postgres ? sql`set session_replication_role = replica` : sql`pragma foreign_keys = off`).execute(conn);
    try {
      await fn(conn);
    } finally {
      await (postgres ? sql`set session_replication_role = default` : sql`pragma foreign_keys = on`).execute(conn);
    }
  });
}

/** Open the database of the test server on `dataDir` (its SQLite file, or its PostgreSQL database). */
export function openTestDatabase(dataDir: string): Promise<DB> {
  return openDatabase({ dataDir, databaseUrl: databaseUrlOf(dataDir), databasePoolSize: 2 });
}

/** Drop a trigger, as someone with direct database access going around a guard would. */
export async function dropTrigger(db: Kysely<any>, name: string, table: string): Promise<void> {
  await sql.raw(dialectOf(db) === 'postgres' ? `drop trigger ${name} on ${table}` : `drop trigger ${name}`).execute(db);
}
