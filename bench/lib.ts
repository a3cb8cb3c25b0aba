/**
 * Shared parts of the benchmarks (`npm run bench`): sizes (full or --smoke), a server built in
 * this process or started as a child process on a loopback port, users with tokens, percentiles,
 * an event-loop stall probe and the row format the runner (bench/run.ts) collects.
 *
 * A bench script prints its figures as lines `BENCH_ROW {json}` on stdout; it must stop by
 * itself (every wait has a deadline) and talk to loopback only. Nothing here asserts a time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../server/config';
import { buildApp, type BuildOptions, type BuiltApp } from '../server/app';
import type { AppContext } from '../server/context';
import { resetDemo } from '../server/domain/ledger';
import { openFamily } from '../server/domain/auth/sessions';
import { insertUserRow } from '../tests/support/users';
import { freePort } from '../tests/support/free-port';
export { freePort };

export const SMOKE = process.argv.includes('--smoke');

/** Full size or the smoke size (CI runs the smoke: that the script runs, not how fast). */
export const size = (full: number, smoke: number) => (SMOKE ? smoke : full);

export interface BenchRow {
  /** Short id, stable across runs (the docs table is keyed by it). */
  id: string;
  measure: string;
  /** The figure, formatted with its unit. */
  value: string;
  /** The same-run baseline it is compared with, if any. */
  baseline?: string;
  goal: string;
  /** Whether the goal is met; null when there is no goal to judge (or a smoke run). */
  met: boolean | null;
  /** Extra detail (sizes, ratio to the baseline, why a ratio stands in for an absolute). */
  note?: string;
}

export function emit(row: BenchRow): void {
  const judged = SMOKE ? { ...row, met: null } : row;
  process.stdout.write(`BENCH_ROW ${JSON.stringify(judged)}\n`);
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export const ms = (x: number) => (Number.isFinite(x) ? `${x < 10 ? x.toFixed(1) : Math.round(x)} ms` : 'n/a');
export const sleep = (t: number) => new Promise<void>((r) => setTimeout(r, t));

/** Wait until `check()` is true or `timeoutMs` passes; returns whether it became true. */
export async function until(check: () => boolean, timeoutMs: number, stepMs = 10): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(stepMs);
  }
  return true;
}

/**
 * How late a 5 ms interval timer fires, as the longest stall of this process's event loop
 * while it runs (what every client of this process would wait on top of its own work).
 */
export class StallProbe {
  private timer: NodeJS.Timeout | null = null;
  private last = 0;
  max = 0;
  start(): void {
    this.last = performance.now();
    this.max = 0;
    this.timer = setInterval(() => {
      const t = performance.now();
      this.max = Math.max(this.max, t - this.last - 5);
      this.last = t;
    }, 5);
  }
  stop(): number {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return Math.max(0, this.max);
  }
}

const madeDirs: string[] = [];
process.on('exit', () => {
  // A full run makes hundreds of MB of databases; BENCH_KEEP_DATA=1 keeps them to look into.
  if (process.env.BENCH_KEEP_DATA) return;
  for (const dir of madeDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory under the OS's temp dir, removed when this process exits (unless BENCH_KEEP_DATA is set). */
export function tempDir(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tt-bench-${tag}-`));
  madeDirs.push(dir);
  return dir;
}

const baseEnv = (dataDir: string): Record<string, string> => ({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DIST_DIR: path.join(dataDir, 'no-dist'),
  SEED_DEMO_USER: 'false',
});

/** The app built in this process (listening on a loopback port). */
export async function inProcessServer(
  dataDir: string,
  env: Record<string, string> = {},
  options: BuildOptions = {},
): Promise<BuiltApp & { baseUrl: string }> {
  const config = loadConfig({ ...baseEnv(dataDir), ...env });
  const built = await buildApp(config, options);
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  await built.ctx.whenStarted();
  const addr = built.app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { ...built, baseUrl: `http://127.0.0.1:${port}` };
}

/**
 * `n` users with a demo balance and a live session, written straight into the database, with an
 * access token each (signed by the server's key, so another process on the same DATA_DIR takes it).
 */
export async function makeUsers(ctx: AppContext, n: number): Promise<Array<{ id: number; token: string }>> {
  const now = ctx.now();
  const out: Array<{ id: number; token: string }> = [];
  for (let start = 0; start < n; start += 500) {
    const batch = await ctx.tx(async (trx) => {
      const made: Array<{ id: number; family: string }> = [];
      for (let i = start; i < Math.min(n, start + 500); i++) {
        const name = `bench${i}x${process.pid}`;
        const id = await insertUserRow(trx, name, now);
        await resetDemo(trx, id, 'USD', `bench-demo:${id}`, 'demo_open', now);
        const fam = await openFamily(trx, id, 'user', now, ctx.config.refreshTokenTtl);
        made.push({ id, family: fam.family });
      }
      return made;
    });
    for (const u of batch) out.push({ id: u.id, token: await ctx.tokens.sign({ userId: u.id, sessionType: 'user', family: u.family }, now) });
  }
  return out;
}

/**
 * The real server (`server/main.ts`) in a child process on DATA_DIR, so that clients in this
 * process do not share its event loop. Resolves with its base URL once it listens.
 */
export async function childServer(dataDir: string, env: Record<string, string> = {}): Promise<{ baseUrl: string; child: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  // BENCH_SERVER_FLAGS: extra node flags for the server under test, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
  const flags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', 'server/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, ...baseEnv(dataDir), PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const ok = await (async () => {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) return false;
      if (out.includes('is running at')) return true;
      await sleep(50);
    }
    return false;
  })();
  if (!ok) {
    child.kill('SIGKILL');
    throw new Error(`server did not start:\n${out.slice(-2000)}`);
  }
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    const done = await until(() => child.exitCode !== null, 10_000);
    if (!done) child.kill('SIGKILL');
  };
  return { baseUrl, child, stop };
}

/** Run `fn` over `items` with at most `concurrency` at a time. */
export async function pool<T>(items: T[], concurrency: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  });
  await Promise.all(workers);
}

/** Raw better-sqlite3 WAL insert transactions per second (one row each) in `dir`: the disk's ceiling. */
export function rawInsertRate(dir: string, seconds = SMOKE ? 0.2 : 1): number {
  const db = new SQLite(path.join(dir, `raw-${process.pid}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('create table if not exists t (id integer primary key, a integer, b text)');
  const ins = db.prepare('insert into t (a, b) values (?, ?)');
  const one = db.transaction((i: number) => ins.run(i, 'x'));
  const end = performance.now() + seconds * 1000;
  let n = 0;
  while (performance.now() < end) one(n++);
  db.close();
  return n / seconds;
}
