/**
 * A whole cluster on this machine for the cluster test and bench: a throwaway PostgreSQL
 * (tests/support/postgres.ts) and Redis (tests/support/redis.ts), an empty database migrated
 * once by the operator's `admin migrate`, N server processes (`server/main.ts` under tsx, each
 * with its own NODE_ID, PORT and DATA_DIR, the same DATABASE_URL, REDIS_URL and secrets) and
 * Debian's nginx in front (tests/support/nginx.ts).
 *
 * Helpers act on one node the way an operator or a crash would: kill -9, SIGTERM (the node
 * drains and exits), start again on the same port, wait for /api/ready; `leader()` asks every
 * node's /api/health which one runs the market feed. Every process is a child of this one and
 * is stopped by `stop()`; a node's output is kept for the failure message.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { startBalancer, type Balancer } from './nginx';
import pg from 'pg';
import { databaseUrl as databaseAt, startPostgres, type PostgresServer } from './postgres';
import { startRedis, type RunningRedis } from './redis';
import { freePort } from './free-port';

const ROOT = path.resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface ClusterNode {
  index: number;
  id: string;
  port: number;
  /** http://127.0.0.1:port: this node directly, past the balancer. */
  url: string;
  dataDir: string;
  child: ChildProcess | null;
  /** The last 64 KiB of the node's stdout and stderr, across restarts. */
  output: string;
}

/** What a node's /api/health says (the data of the envelope). */
export interface NodeHealth {
  status?: string;
  node_id?: string;
  /** 'leader' when this node runs the market feed (server/domain/cluster, docs/cluster.md). */
  role?: string;
  [key: string]: unknown;
}

export interface ClusterOptions {
  nodes?: number;
  /** More environment for every node (e.g. SIM_TICKS_PER_SECOND). */
  env?: Record<string, string>;
  /** Deadline for one node to become ready. */
  readyTimeoutMs?: number;
}

export interface Cluster {
  /** The balancer's address: what clients use. */
  url: string;
  nodes: ClusterNode[];
  balancer: Balancer;
  databaseUrl: string;
  redisUrl: string;
  /** The environment every node gets (without its own NODE_ID, PORT, DATA_DIR). */
  env: Record<string, string>;
  /** kill -9: no drain, no goodbye; resolves once the process is gone. */
  kill(i: number): Promise<void>;
  /** SIGTERM: the node drains and exits; resolves with its exit code (rejects past `timeoutMs`). */
  terminate(i: number, timeoutMs?: number): Promise<number | null>;
  /** Whether node i's process is running. */
  running(i: number): boolean;
  /** Start node i again (same id, port and DATA_DIR) and wait until it is ready. */
  start(i: number): Promise<void>;
  /** Wait until node i answers /api/ready with 200. */
  waitReady(i: number, timeoutMs?: number): Promise<void>;
  health(i: number): Promise<NodeHealth | null>;
  /** The index of the node that reports itself feed leader, or null (none or several). */
  leader(): Promise<number | null>;
  /** Wait until exactly one live node reports itself leader; its index. */
  waitLeader(timeoutMs?: number, except?: number): Promise<number>;
  /** Run the operator CLI (server/cli/admin.ts) against the cluster's database. */
  admin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** The output of every node (for a failure message). */
  logs(): string;
  stop(): Promise<void>;
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function getJson(url: string, timeoutMs = 2000): Promise<{ status: number; body: any } | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: res.status, body };
  } catch {
    return null;
  }
}

/** A new, empty database on the server of `adminUrl`; its address. */
async function createEmptyDatabase(adminUrl: string): Promise<string> {
  const name = `tt_cluster_${process.pid}_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  return databaseAt(adminUrl, name);
}

/** A short-lived `node --import tsx <args>` in the repository (the operator CLI). */
function runNode(args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const count = options.nodes ?? 3;
  const readyTimeoutMs = options.readyTimeoutMs ?? 90_000;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-cluster-'));
  const started: Array<{ stop(): Promise<void> }> = [];
  let balancer: Balancer | null = null;
  const nodes: ClusterNode[] = [];

  const stopAll = async () => {
    await Promise.all(
      nodes.map(async (n) => {
        if (!n.child || exited(n.child)) return;
        n.child.kill('SIGKILL');
        await waitExit(n.child, 5000);
      }),
    );
    if (balancer) await balancer.stop().catch(() => undefined);
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
    fs.rmSync(root, { recursive: true, force: true });
  };

  // If this process ends without stop() (a crash, a killed test run), the nodes go with it.
  const killNodes = () => nodes.forEach((n) => n.child && !exited(n.child) && n.child.kill('SIGKILL'));
  process.once('exit', killNodes);
  const stopAllOnce = async () => {
    process.off('exit', killNodes);
    await stopAll();
  };

  try {
    const [pgStart, redisStart] = await Promise.allSettled([startPostgres(), startRedis()]);
    if (pgStart.status === 'fulfilled') started.push({ stop: async () => pgStart.value.stop() });
    if (redisStart.status === 'fulfilled') started.push(redisStart.value);
    if (pgStart.status === 'rejected') throw pgStart.reason;
    if (redisStart.status === 'rejected') throw redisStart.reason;
    const postgres: PostgresServer = pgStart.value;
    const redis: RunningRedis = redisStart.value;
    // An empty database, migrated once by the operator's command before any node starts
    // (docs/deploy.md, "Migrations").
    const databaseUrl = await createEmptyDatabase(postgres.adminUrl);
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      DIST_DIR: path.join(root, 'no-dist'),
      SEED_DEMO_USER: 'false',
      RATE_LIMIT: 'false',
      // nginx runs on loopback: its X-Forwarded-For names the client (as in production, docs/deploy.md).
      TRUST_PROXY: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '5',
      REDIS_URL: redis.url,
      // No JWT_SECRET / OXAPAY_WEBHOOK_SECRET: the nodes generate them once in the database and
      // share them (server/secrets.ts), so a token one node signed works on every node.
      SHUTDOWN_GRACE_MS: '5000',
      ...options.env,
    };

    const migrated = await runNode(['server/cli/admin.ts', 'migrate'], { ...env, DATA_DIR: path.join(root, 'admin') });
    if (migrated.code !== 0) throw new Error(`admin migrate failed (exit ${migrated.code}):\n${migrated.stdout}\n${migrated.stderr}`);

    for (let i = 0; i < count; i++) {
      const port = await freePort();
      const dataDir = path.join(root, `node${i + 1}`);
      fs.mkdirSync(dataDir, { recursive: true });
      nodes.push({ index: i, id: `node${i + 1}`, port, url: `http://127.0.0.1:${port}`, dataDir, child: null, output: '' });
    }

    const spawnNode = (n: ClusterNode) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: ROOT,
        env: { ...process.env, ...env, NODE_ID: n.id, PORT: String(n.port), DATA_DIR: n.dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const keep = (d: Buffer) => {
        n.output = (n.output + d.toString()).slice(-65_536);
      };
      child.stdout!.on('data', keep);
      child.stderr!.on('data', keep);
      child.on('exit', (code, signal) => keep(Buffer.from(`\n[${n.id} exited: ${signal ?? code}]\n`)));
      n.child = child;
    };

    const waitReady = async (i: number, timeoutMs = readyTimeoutMs) => {
      const n = nodes[i];
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (!n.child || exited(n.child)) throw new Error(`${n.id} is not running:\n${n.output.slice(-3000)}`);
        const r = await getJson(`${n.url}/api/ready`);
        if (r?.status === 200) return;
        await sleep(100);
      }
      throw new Error(`${n.id} not ready within ${timeoutMs} ms:\n${n.output.slice(-3000)}`);
    };

    for (const n of nodes) spawnNode(n);
    await Promise.all(nodes.map((n) => waitReady(n.index)));
    balancer = await startBalancer(nodes.map((n) => `127.0.0.1:${n.port}`));

    const health = async (i: number): Promise<NodeHealth | null> => {
      const r = await getJson(`${nodes[i].url}/api/health`, 1000);
      if (!r || r.status !== 200 || typeof r.body !== 'object' || !r.body) return null;
      return (r.body.data ?? r.body) as NodeHealth;
    };
    const leader = async (): Promise<number | null> => {
      const all = await Promise.all(nodes.map((n) => (n.child && !exited(n.child) ? health(n.index) : Promise.resolve(null))));
      const leaders = all.flatMap((h, i) => (h?.role === 'leader' ? [i] : []));
      return leaders.length === 1 ? leaders[0] : null;
    };

    const cluster: Cluster = {
      url: balancer.url,
      nodes,
      balancer,
      databaseUrl,
      redisUrl: redis.url,
      env,
      async kill(i) {
        const c = nodes[i].child;
        if (!c || exited(c)) return;
        c.kill('SIGKILL');
        await waitExit(c, 10_000);
      },
      async terminate(i, timeoutMs = 30_000) {
        const c = nodes[i].child;
        if (!c || exited(c)) return c?.exitCode ?? null;
        c.kill('SIGTERM');
        if (!(await waitExit(c, timeoutMs))) throw new Error(`${nodes[i].id} did not exit within ${timeoutMs} ms of SIGTERM:\n${nodes[i].output.slice(-3000)}`);
        return c.exitCode;
      },
      running: (i) => Boolean(nodes[i].child && !exited(nodes[i].child!)),
      async start(i) {
        const c = nodes[i].child;
        if (c && !exited(c)) throw new Error(`${nodes[i].id} is still running`);
        spawnNode(nodes[i]);
        await waitReady(i);
      },
      waitReady,
      health,
      leader,
      async waitLeader(timeoutMs = 15_000, except) {
        const deadline = Date.now() + timeoutMs;
        while (Date.now() < deadline) {
          const l = await leader();
          if (l !== null && l !== except) return l;
          await sleep(50);
        }
        throw new Error(`no single feed leader within ${timeoutMs} ms`);
      },
      admin: (args) => runNode(['server/cli/admin.ts', ...args], { ...env, DATA_DIR: path.join(root, 'admin') }),
      logs: () => nodes.map((n) => `----- ${n.id} (port ${n.port})\n${n.output.slice(-4000)}`).join('\n'),
      stop: stopAllOnce,
    };
    return cluster;
  } catch (err) {
    const out = nodes.map((n) => `----- ${n.id}\n${n.output.slice(-3000)}`).join('\n');
    await stopAllOnce();
    if (out && err instanceof Error) err.message += `\n${out}`;
    throw err;
  }
}
