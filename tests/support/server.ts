/**
 * A real server for tests: built with a temp DATA_DIR on an ephemeral port, spoken to over real
 * HTTP (fetch) and socket.io. `api()` returns the status and the parsed envelope. The database is
 * SQLite in DATA_DIR, or on the server-pg project a fresh PostgreSQL database of its own
 * (tests/support/test-database.ts; a restart on the same DATA_DIR finds the same one).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { loadConfig } from '../../server/config';
import { buildApp, type BuildOptions } from '../../server/app';
import type { AppContext } from '../../server/context';
import type { Envelope } from '../../contract/envelope';
import { prepareDatabase, releaseDatabase } from './test-database';

export interface TestServer {
  baseUrl: string;
  dataDir: string;
  ctx: AppContext;
  api<T = any>(method: string, url: string, body?: unknown, token?: string, headers?: Record<string, string>): Promise<{ status: number; body: Envelope<T> }>;
  raw(method: string, url: string, init?: { body?: BodyInit; headers?: Record<string, string> }): Promise<Response>;
  socket(): Promise<Socket>;
  /**
   * Run `check` when the server closes, before it stops (the ledger audit command uses it); a
   * check that throws still lets the server close, then close() rejects with its error.
   */
  beforeClose(check: () => Promise<void>): void;
  close(): Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}, options: BuildOptions = {}): Promise<TestServer> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tt-test-'));
  const databaseUrl = env.DATABASE_URL ?? (await prepareDatabase(dataDir));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '0',
    DATA_DIR: dataDir,
    DIST_DIR: path.join(dataDir, 'no-dist'),
    SEED_DEMO_USER: 'false',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const { app, ctx } = await buildApp(config, options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  await ctx.whenStarted();
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  const sockets: Socket[] = [];
  const closeChecks: Array<() => Promise<void>> = [];

  return {
    baseUrl,
    dataDir,
    ctx,
    async api(method, url, body, token, headers = {}) {
      const res = await fetch(baseUrl + url, {
        method,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: any;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = { success: false, data: null, error: `non-JSON response: ${text.slice(0, 200)}`, error_message: null };
      }
      return { status: res.status, body: parsed };
    },
    raw(method, url, init = {}) {
      return fetch(baseUrl + url, { method, body: init.body, headers: init.headers });
    },
    async socket() {
      const s = connectSocket(baseUrl, { transports: ['websocket'], reconnection: false, forceNew: true });
      sockets.push(s);
      await new Promise<void>((resolve, reject) => {
        s.once('connect', () => resolve());
        s.once('connect_error', reject);
      });
      return s;
    },
    beforeClose(check) {
      closeChecks.push(check);
    },
    async close() {
      let failure: unknown = null;
      for (const check of closeChecks.splice(0)) {
        try {
          await check();
        } catch (err) {
          failure ??= err;
        }
      }
      for (const s of sockets) s.disconnect();
      await app.close();
      if (!env.DATA_DIR) {
        if (!env.DATABASE_URL) await releaseDatabase(dataDir);
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
      if (failure) throw failure;
    },
  };
}

/** Wait for one socket event (with a timeout so a missing event fails the test instead of hanging). */
export function nextEvent<T = any>(socket: Socket, event: string, timeoutMs = 5000, filter: (p: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, handler);
      reject(new Error(`timed out waiting for socket event ${event}`));
    }, timeoutMs);
    const handler = (payload: T) => {
      if (!filter(payload)) return;
      clearTimeout(timer);
      socket.off(event, handler);
      resolve(payload);
    };
    socket.on(event, handler);
  });
}
