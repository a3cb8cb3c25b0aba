/**
 * Backups and restores of the database (docs/operations.md, "Backups").
 *
 * - SQLite: SQLite's online backup API (better-sqlite3 `backup`) from a worker thread with its
 *   own connection, copying every page in one step: a read transaction on a WAL database, so the
 *   server's writers never wait for it (a backup made in steps restarts whenever another
 *   connection writes, which under order load is always). The copy is then opened and checked
 *   with `PRAGMA integrity_check`; anything but "ok" fails the backup and removes the file.
 * - PostgreSQL: `pg_dump -Fc` (a consistent snapshot, the custom format pg_restore reads).
 *   Point-in-time recovery is WAL archiving (pgBackRest), outside this module.
 *
 * Every backup file gets a `<file>.sha256` beside it in the format `sha256sum -c` reads;
 * `restoreBackup` checks it before anything is restored. Restores go into a fresh place only
 * (an empty directory, or an empty PostgreSQL database): never over a live database.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { SQLITE_FILE } from './index';

export type BackupDialect = 'sqlite' | 'postgres';

export interface BackupSource {
  /** postgres://... when the platform runs on PostgreSQL; else the SQLite file. */
  databaseUrl?: string | undefined;
  sqliteFile: string;
}

export interface BackupResult {
  file: string;
  sha256: string;
  bytes: number;
  dialect: BackupDialect;
  tookMs: number;
}

const PREFIX = 'tradeterminal-';
const EXTENSION: Record<BackupDialect, string> = { sqlite: '.db', postgres: '.pgdump' };

/** The backup file name for a time: tradeterminal-20261128T013000123Z.db (sorts by time). */
export function backupFileName(dialect: BackupDialect, at: number): string {
  const stamp = new Date(at).toISOString().replace(/[-:]/g, '').replace('.', '');
  return `${PREFIX}${stamp}${EXTENSION[dialect]}`;
}

export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const sidecar = (file: string) => `${file}.sha256`;

// CommonJS run by the worker (eval): no TypeScript loader is needed inside it.
const SQLITE_BACKUP_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
(async () => {
  const source = new Database(workerData.file, { fileMustExist: true });
  source.pragma('busy_timeout = 5000');
  try {
    // One step copies every page: a step of N pages restarts when another connection writes.
    await source.backup(workerData.dest, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const copy = new Database(workerData.dest, { fileMustExist: true });
  let integrity;
  try {
    integrity = copy.pragma('integrity_check').map((r) => r.integrity_check);
    // The copy is one file: no WAL beside it.
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  parentPort.postMessage({ ok: true, integrity });
})().catch((err) => parentPort.postMessage({ ok: false, error: String((err && err.message) || err) }));
`;

function sqliteBackup(file: string, dest: string): Promise<void> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  return new Promise((resolve, reject) => {
    const worker = new Worker(SQLITE_BACKUP_WORKER, { eval: true, workerData: { file, dest, driver } });
    let settled = false;
    worker.once('message', (m: { ok: boolean; integrity?: string[]; error?: string }) => {
      settled = true;
      if (!m.ok) reject(new Error(`SQLite backup failed: ${m.error}`));
      else if (m.integrity?.length !== 1 || m.integrity[0] !== 'ok') reject(new Error(`the backup copy fails PRAGMA integrity_check: ${(m.integrity ?? []).slice(0, 5).join('; ')}`));
      else resolve();
    });
    worker.once('error', (err) => {
      if (!settled) reject(err);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the SQLite backup worker exited (${code}) without an answer`));
    });
  });
}

/** A PostgreSQL client program: on PATH, else Debian's newest /usr/lib/postgresql/<v>/bin (PG_BIN wins). */
export function postgresProgram(name: 'pg_dump' | 'pg_restore' | 'psql', env: Record<string, string | undefined> = process.env): string {
  if (env.PG_BIN) return path.join(env.PG_BIN, name);
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', name))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? path.join(root, versions[0], 'bin', name) : name;
}

/** The longest a pg_dump or pg_restore may run before it is killed and the backup or restore fails. */
export const PROGRAM_TIMEOUT_MS = 2 * 3_600_000;

function run(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    // A hung dump must not hold the scheduled backup (one runs at a time) forever.
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: PROGRAM_TIMEOUT_MS, killSignal: 'SIGKILL' });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.once('error', (err) => reject(new Error(`${path.basename(program)}: ${err.message}`)));
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(program)} ${signal ? `was stopped (${signal}; limit ${PROGRAM_TIMEOUT_MS / 60_000} min)` : `exited ${code}`}: ${stderr.trim().slice(0, 500)}`)),
    );
  });
}

/** Take one backup into `dir` (created when missing). The file is complete and checked when this resolves. */
export async function backupDatabase(source: BackupSource, dir: string, now: number): Promise<BackupResult> {
  const started = Date.now();
  const dialect: BackupDialect = source.databaseUrl ? 'postgres' : 'sqlite';
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(path.resolve(dir), backupFileName(dialect, now));
  const partial = `${file}.partial`;
  fs.rmSync(partial, { force: true });
  try {
    if (dialect === 'sqlite') await sqliteBackup(source.sqliteFile, partial);
    else await run(postgresProgram('pg_dump'), ['-Fc', '--no-owner', '-f', partial, source.databaseUrl!]);
    fs.renameSync(partial, file);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
  const sha256 = await sha256File(file);
  fs.writeFileSync(sidecar(file), `${sha256}  ${path.basename(file)}\n`, { mode: 0o600 });
  return { file, sha256, bytes: fs.statSync(file).size, dialect, tookMs: Date.now() - started };
}

/** The backups in `dir`, oldest first. */
export function listBackups(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(PREFIX) && (f.endsWith(EXTENSION.sqlite) || f.endsWith(EXTENSION.postgres)))
    .sort()
    .map((f) => path.join(dir, f));
}

/** Keep the newest `keep` backups in `dir`; remove the rest (and their .sha256). Returns the removed files. */
export function pruneBackups(dir: string, keep: number): string[] {
  const all = listBackups(dir);
  const removed = all.slice(0, Math.max(0, all.length - keep));
  for (const f of removed) {
    fs.rmSync(f, { force: true });
    fs.rmSync(sidecar(f), { force: true });
  }
  return removed;
}

export class BackupCheckError extends Error {}

/** Check a backup file against its .sha256; throws BackupCheckError naming what is wrong. */
export async function checkBackupFile(file: string): Promise<{ sha256: string; dialect: BackupDialect }> {
  if (!fs.existsSync(file)) throw new BackupCheckError(`no such backup file: ${file}`);
  if (!fs.existsSync(sidecar(file))) throw new BackupCheckError(`no checksum beside the backup (${path.basename(sidecar(file))})`);
  const expected = fs.readFileSync(sidecar(file), 'utf8').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  const actual = await sha256File(file);
  if (expected !== actual) throw new BackupCheckError(`checksum mismatch: the file hashes to ${actual}, its .sha256 says ${expected}`);
  return { sha256: actual, dialect: file.endsWith(EXTENSION.postgres) ? 'postgres' : 'sqlite' };
}

/**
 * Restore a checked backup into a fresh place: for SQLite `into` is a directory that holds no
 * database yet (the file becomes DIR/tradeterminal.db); for PostgreSQL a postgres:// URL of an
 * empty database. Returns where the restored database is, for the checks that follow.
 */
export async function restoreBackup(file: string, into: string): Promise<{ dialect: BackupDialect; sqliteFile?: string; databaseUrl?: string }> {
  const { dialect } = await checkBackupFile(file);
  if (dialect === 'sqlite') {
    if (/^postgres(ql)?:\/\//.test(into)) throw new BackupCheckError('a SQLite backup restores into a directory, not a PostgreSQL URL');
    const target = path.join(path.resolve(into), SQLITE_FILE);
    if (fs.existsSync(target)) throw new BackupCheckError(`${target} exists: restore into a fresh directory`);
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    fs.copyFileSync(file, target, fs.constants.COPYFILE_EXCL);
    return { dialect, sqliteFile: target };
  }
  if (!/^postgres(ql)?:\/\//.test(into)) throw new BackupCheckError('a PostgreSQL backup restores into a postgres:// URL of an empty database');
  await run(postgresProgram('pg_restore'), ['--no-owner', '--exit-on-error', '-d', into, file]);
  return { dialect, databaseUrl: into };
}

const RESTORE_MARK = 'last-verified-restore.json';

/** Time (ms) of the newest backup file in `dir`, or null (the metrics: CLI and scheduled backups alike). */
export function lastBackupAt(dir: string): number | null {
  const newest = listBackups(dir).at(-1);
  return newest ? fs.statSync(newest).mtimeMs : null;
}

/** Record that a backup from `dir` was restored and every check passed (`admin restore`). */
export function markVerifiedRestore(dir: string, file: string, at: number): void {
  fs.writeFileSync(path.join(dir, RESTORE_MARK), JSON.stringify({ at, file: path.basename(file) }) + '\n', { mode: 0o600 });
}

/** Time (ms) of the last restore drill of `dir` whose checks all passed, or null. */
export function lastVerifiedRestoreAt(dir: string): number | null {
  try {
    const mark = JSON.parse(fs.readFileSync(path.join(dir, RESTORE_MARK), 'utf8')) as { at?: unknown };
    return typeof mark.at === 'number' ? mark.at : null;
  } catch {
    return null;
  }
}
