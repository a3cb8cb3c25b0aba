/**
 * A server node as its own process (`node --import tsx server/main.ts`) for tests that must signal or kill it:
 * SIGTERM shutdown, kill -9 of a node in a cluster. Resolves once the banner says where it
 * listens (PORT=0: the OS picks the port, read back from the banner).
 *
 *   const node = await spawnNode({ REDIS_URL: redis.url });
 *   node.baseUrl; await node.waitForOutput(/draining/); node.kill('SIGKILL'); await node.exited;
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';


export interface NodeProcess {
  baseUrl: string;
  child: ChildProcess;
  dataDir: string;
  output(): string;
  /** Resolves when stdout or stderr matched `re` (already or later); rejects after `timeoutMs`. */
  waitForOutput(re: RegExp, timeoutMs?: number): Promise<void>;
  kill(signal: NodeJS.Signals): void;
  /** The exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGKILL if still running, then remove the data folder. */
  cleanup(): Promise<void>;
}

export async function spawnNode(env: Record<string, string> = {}, startTimeoutMs = 60_000): Promise<NodeProcess> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tt-node-'));
  // Node itself with tsx's loader (not the tsx CLI, which runs the server in a child process of
  // its own): a signal sent to `child` reaches the server, SIGKILL included.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SEED_DEMO_USER: 'false',
      DIST_DIR: path.join(dataDir, 'none'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters = new Set<() => void>();
  const onData = (c: Buffer) => {
    out += c.toString();
    for (const w of [...waiters]) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const waitForOutput = (re: RegExp, timeoutMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!re.test(out)) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no output matching ${re} within ${timeoutMs} ms:\n${out}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  const started = waitForOutput(/is running at (http:\/\/\S+)/, startTimeoutMs);
  const failed = exited.then((code) => {
    throw new Error(`the server exited (code ${code}) before it started:\n${out}`);
  });
  try {
    await Promise.race([started, failed]);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  failed.catch(() => undefined);
  const baseUrl = /is running at (http:\/\/\S+)/.exec(out)![1];

  return {
    baseUrl,
    child,
    dataDir,
    output: () => out,
    waitForOutput,
    kill: (signal) => {
      child.kill(signal);
    },
    exited,
    async cleanup() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      if (!env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
