/**
 * The server test fixture: one real server per test file, started before its tests and closed
 * after them, with (by default) the ledger audited after every test. Returns a stand-in that
 * forwards to the running server, so a test file reads `server.api(...)` as before:
 *
 *   const server = useTestServer({ RATE_LIMIT: 'false' });
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { BuildOptions } from '../../server/app';
import { startTestServer, type TestServer } from './server';
import { expectLedgerClean } from './auth';

export interface FixtureOptions {
  /** Audit the ledger after every test (default true). */
  auditLedger?: boolean;
}

export function useTestServer(env: Record<string, string> = {}, build: BuildOptions = {}, { auditLedger = true }: FixtureOptions = {}): TestServer {
  let current: TestServer | null = null;
  const running = (): TestServer => {
    if (!current) throw new Error('useTestServer: the server is not running (used outside a test?)');
    return current;
  };
  beforeAll(async () => {
    current = await startTestServer(env, build);
  });
  afterAll(async () => {
    await current?.close();
    current = null;
  });
  if (auditLedger) afterEach(() => expectLedgerClean(running()));
  return new Proxy({} as TestServer, {
    get: (_, key) => {
      const value: unknown = Reflect.get(running(), key);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}
