/**
 * After the browser tests: the operator's ledger audit (`npx tsx server/cli/admin.ts audit`) on
 * the e2e server's database (DATA_DIR = E2E_DATA_DIR, see playwright.config.ts; DATABASE_URL
 * when the e2e server runs on PostgreSQL, passed on to the command). Every balance
 * the browser tests moved must equal the sum of its ledger entries; a difference (or an audit
 * that cannot run) fails the run with the command's output.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export default function globalTeardown(): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('ledger audit: E2E_DATA_DIR is not set (see playwright.config.ts)');
  // With DATABASE_URL (the e2e server on PostgreSQL) the audit command reads that database;
  // otherwise the SQLite file must be there.
  const dbFile = path.join(dataDir, 'tradeterminal.db');
  if (!process.env.DATABASE_URL && !fs.existsSync(dbFile)) throw new Error(`ledger audit: no database at ${dbFile}`);
  const run = spawnSync('npx', ['tsx', 'server/cli/admin.ts', 'audit'], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim();
  if (run.error || run.status !== 0 || !/^Ledger OK: \d+ balances match their entries/m.test(run.stdout ?? '')) {
    throw new Error(`ledger audit failed (exit ${String(run.status)}${run.error ? `, ${run.error.message}` : ''}):\n${output}`);
  }
  console.log(`ledger audit: ${output}`);
}
