/**
 * A throwaway PostgreSQL server for the tests (the `server-pg` vitest project,
 * docs/database.md): Debian's initdb and postgres (/usr/lib/postgresql/<newest>/bin, or
 * PG_BIN), a data folder in a temp dir, a free TCP port on 127.0.0.1, trust authentication, no
 * fsync. When the tests run as root the server runs as the unprivileged `postgres` user
 * (runuser), since PostgreSQL refuses to run as root.
 *
 * `startPostgres` also builds the template database `tt_template` with every migration applied;
 * each test server then gets a fresh database copied from it (`createDatabase`), which is much
 * faster than migrating an empty one.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../server/db';
import { freePort } from './free-port';

export const TEMPLATE_DB = 'tt_template';
const USER = 'tt';

export interface PostgresServer {
  /** postgres://tt@127.0.0.1:<port>/postgres: the maintenance database (CREATE DATABASE runs there). */
  adminUrl: string;
  stop(): void;
}

function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('PostgreSQL is not installed: no /usr/lib/postgresql/*/bin/initdb (apt-get install postgresql, or set PG_BIN)');
  return path.join(root, versions[0], 'bin');
}

const asRoot = () => process.getuid?.() === 0;

/** Run a PostgreSQL program, as the `postgres` user when we are root. */
function run(bin: string, program: string, args: string[]): string {
  const exe = path.join(bin, program);
  const [cmd, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', exe, ...args]] : [exe, args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-pg-'));
  if (asRoot()) execFileSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  run(bin, 'initdb', ['-D', data, '-U', USER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    // A test database is thrown away: nothing needs to survive a crash.
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=400',
    '-c shared_buffers=64MB',
  ].join(' ');
  run(bin, 'pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', path.join(dir, 'server.log'), '-o', options]);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run(bin, 'pg_ctl', ['stop', '-m', 'immediate', '-D', data]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const adminUrl = `postgres://${USER}@127.0.0.1:${port}/postgres`;
  try {
    await adminQuery(adminUrl, `create database ${TEMPLATE_DB}`);
    const db = await openDatabase({ dataDir: dir, databaseUrl: databaseUrl(adminUrl, TEMPLATE_DB), databasePoolSize: 1 });
    await db.destroy();
  } catch (err) {
    stop();
    throw err;
  }
  return { adminUrl, stop };
}

/** The address of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

let counter = 0;

/** A fresh, fully migrated database (a copy of the template); returns its address. */
export async function createDatabase(adminUrl: string): Promise<string> {
  const name = `tt_${process.pid}_${Date.now().toString(36)}_${++counter}`;
  // file_copy: about three times faster than the default WAL_LOG copy for a small template
  // (its checkpoint costs nothing with fsync off).
  await adminQuery(adminUrl, `create database ${name} template ${TEMPLATE_DB} strategy file_copy`);
  return databaseUrl(adminUrl, name);
}

/** An empty database (no migrations: from template0), e.g. for a pg_restore; drop it with dropDatabase. */
export async function createEmptyDatabase(adminUrl: string): Promise<string> {
  const name = `tt_${process.pid}_${Date.now().toString(36)}_${++counter}`;
  await adminQuery(adminUrl, `create database ${name} template template0`);
  return databaseUrl(adminUrl, name);
}

/** Drop a database made by createDatabase (its connections are closed by then). */
export async function dropDatabase(adminUrl: string, url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^tt_[a-z0-9_]+$/.test(name)) throw new Error(`not a test database: ${name}`);
  await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
}
