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
import { inject } from 'vitest';
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
