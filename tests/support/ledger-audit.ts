/**
 * The ledger audit after every scenario (issue "Money", items 1 and 8): a test file that moves
 * money calls `auditLedgerAfterEach(() => server)` once at the top level, and then
 *
 * - after every test, `auditLedger` (the function the operator's `audit` command runs)
 *   recomputes every balance of the test server's database from its entries; any difference
 *   fails that test with the list of differences;
 * - when the server closes, the real command `tsx server/cli/admin.ts audit` runs as its own
 *   process on the server's DATA_DIR, and a non-zero exit fails the file (close() rejects).
 *
 * `auditOnClose(server)` attaches only the second part (the money and orders harnesses attach
 * it to every server they start, including the ones a test starts and closes itself).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { auditLedger, checkZeroSum } from '../../server/domain/ledger';
import type { TestServer } from './server';
import { databaseEnv, databaseUrlOf } from './test-database';

/** Anything a test file keeps its server in: the server itself or a harness holding it. */
export type ServerHolder = TestServer | { server: TestServer } | null | undefined;

function serverOf(holder: ServerHolder): TestServer | null {
  if (!holder) return null;
  return 'server' in holder ? holder.server : holder;
}

/** Throws, listing every balance that differs from the sum of its entries and every break of the zero sum (docs/money.md). */
export async function assertLedgerAudit(server: TestServer): Promise<void> {
  const differences = await auditLedger(server.ctx.db);
  const zero = await checkZeroSum(server.ctx.db);
  const lines = differences.map((d) => `  ${d.user_id === null ? 'house' : `user ${d.user_id}`} ${d.currency} ${d.account}: balance ${d.balance}, entries sum ${d.entries_sum}`);
  for (const c of zero.currencies) lines.push(`  ${c.currency}: all accounts sum to ${c.sum}, not 0`);
  for (const t of zero.transactions) lines.push(`  ledger transaction ${t.ledger_tx_id} ${t.currency}: legs sum to ${t.sum}, not 0`);
  for (const id of zero.unsealed) lines.push(`  ledger transaction ${id} has no seal`);
  if (lines.length === 0) return;
  throw new Error(`Ledger audit found ${lines.length} problem(s):\n${lines.join('\n')}`);
}

const TSX = path.resolve('node_modules/.bin/tsx');
const DB_FILE = 'tradeterminal.db';

/**
 * `npm run admin -- audit` on `dataDir` as a separate process. Resolves with its output when it
 * prints "Ledger OK" and exits 0; rejects with its output otherwise (also when the database file
 * is missing, so an audit that runs after the data was removed cannot pass on an empty file). On
 * PostgreSQL the command gets the data folder's database (test-database.ts).
 */
export function runAuditCommand(dataDir: string): Promise<string> {
  if (!databaseUrlOf(dataDir) && !fs.existsSync(path.join(dataDir, DB_FILE))) {
    return Promise.reject(new Error(`ledger audit: no database at ${path.join(dataDir, DB_FILE)}`));
  }
  return new Promise((resolve, reject) => {
    execFile(
      TSX,
      ['server/cli/admin.ts', 'audit'],
      { env: { ...process.env, ...databaseEnv(dataDir), LOG_LEVEL: 'silent', NODE_ENV: 'test' }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const out = `${String(stdout)}${String(stderr)}`.trim();
        if (err || !/^Ledger OK: \d+ balances match their entries/m.test(String(stdout))) {
          reject(new Error(`ledger audit command failed (${err ? `exit ${String(err.code ?? 'unknown')}` : 'no "Ledger OK"'}):\n${out}`));
        } else {
          resolve(out);
        }
      },
    );
  });
}

const attached = new WeakSet<TestServer>();

/** Run the real audit command when this server closes (once per server). */
export function auditOnClose(server: TestServer): void {
  if (attached.has(server)) return;
  attached.add(server);
  server.beforeClose(async () => {
    await runAuditCommand(server.dataDir);
  });
}

/**
 * After every test of the file: the in-process audit of the current server; and the audit
 * command when that server closes. `get` is read after each test, so a server started in
 * beforeAll (or replaced between tests) is found.
 */
export function auditLedgerAfterEach(get: () => ServerHolder): void {
  afterEach(async () => {
    const server = serverOf(get());
    if (!server) return;
    auditOnClose(server);
    await assertLedgerAudit(server);
  });
}
