/**
 * A throwaway Redis for tests and harnesses: Debian's `redis-server` on a free port of
 * 127.0.0.1 with its own temp folder, no persistence (no RDB snapshots, no AOF), stopped and
 * removed by `stop()`. Plain functions, no test framework, so a vitest file (beforeAll/afterAll)
 * and the cluster harness can both use it:
 *
 *   const redis = await startRedis();   // { url: 'redis://127.0.0.1:PORT', stop() }
 *   ...
 *   await redis.stop();
 *
 * REDIS_SERVER overrides the binary (default /usr/bin/redis-server, else `redis-server` on PATH).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';
export { freePort };

export interface RunningRedis {
  /** redis://127.0.0.1:PORT */
  url: string;
  port: number;
  /** Stop the server (SIGTERM, SIGKILL after 5 s) and remove its folder. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;

function redisBinary(): string {
  if (process.env.REDIS_SERVER) return process.env.REDIS_SERVER;
  return fs.existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server';
}

/** PING over a raw connection; resolves true on +PONG. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let buf = '';
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(1000, () => done(false));
    sock.once('error', () => done(false));
    sock.on('data', (d) => {
      buf += d.toString();
      if (buf.includes('\r\n')) done(buf.startsWith('+PONG'));
    });
    sock.once('connect', () => sock.write('PING\r\n'));
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** `port`: listen there (a Redis restarted where the nodes expect it); default a free port. */
export async function startRedis(options: { port?: number } = {}): Promise<RunningRedis> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-redis-'));
  // Two tries: the free port may be taken between freePort() and redis-server's bind.
  let lastError = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const port = options.port ?? (await freePort());
    const child = spawn(
      redisBinary(),
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--protected-mode', 'yes', '--loglevel', 'warning'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout?.on('data', (d) => (output += d.toString()));
    child.stderr?.on('data', (d) => (output += d.toString()));
    let spawnError: Error | null = null;
    child.once('error', (err) => (spawnError = err));

    const deadline = Date.now() + READY_TIMEOUT_MS;
    let ready = false;
    while (Date.now() < deadline) {
      if (spawnError || child.exitCode !== null) break;
      if (await ping(port)) {
        ready = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    if (ready) {
      let stopped: Promise<void> | null = null;
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        stop() {
          stopped ??= (async () => {
            if (child.exitCode === null && child.signalCode === null) {
              child.kill('SIGTERM');
              const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
              await exited(child);
              clearTimeout(timer);
            }
            fs.rmSync(dir, { recursive: true, force: true });
          })();
          return stopped;
        },
      };
    }
    child.kill('SIGKILL');
    await exited(child);
    lastError = spawnError ? String(spawnError) : output.trim() || `no PONG within ${READY_TIMEOUT_MS} ms`;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  throw new Error(`could not start redis-server (${redisBinary()}): ${lastError}`);
}
