/**
 * Sandbox said out loud (PAYMENTS_MODE=sandbox, the default): the server marks every sandbox
 * method, deposit answer and transaction row `sandbox: true` (the SPA labels them from that
 * flag), manual methods stay unmarked; the start banner says no real money moves; and with
 * NODE_ENV=production the server process refuses to start in sandbox (exit 1, a clear message)
 * unless ALLOW_SANDBOX_PAYMENTS=1, and refuses live mode without the OxaPay keys.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DepositResultSchema, PaymentMethodsResultSchema, TransactionListResultSchema } from '../../contract/payments';
import { nextEvent, type TestServer } from '../support/server';
import { auditLedgerAfterEach } from '../support/ledger-audit';
import { deposit, fundReal, newUser, startMoneyServer, userSocket } from './payments-support';
import { databaseEnv, prepareDatabase, releaseDatabase } from '../support/test-database';

let server: TestServer;
beforeAll(async () => {
  server = await startMoneyServer();
});
afterAll(async () => {
  await server.close();
});
auditLedgerAfterEach(() => server);

describe('sandbox flag from the server', () => {
  it('marks the simulated methods sandbox in the catalogue (HTTP and socket), not the manual ones', async () => {
    const u = await newUser(server);
    const r = await server.api('GET', '/api/v2/payments/methods', undefined, u.token);
    const methods = v.parse(PaymentMethodsResultSchema, r.body.data).payment_systems;
    const flags = Object.fromEntries(methods.map((m) => [m.id, m.sandbox]));
    expect(flags).toEqual({ card_visa_mastercard: false, bank_transfer_sepa: false, usdt_trc20: true, btc: true, oxapay_crypto: true });
    const s = await userSocket(server, u.token);
    const answer = nextEvent(s, 'init_payment_systems');
    s.emit('get_payment_methods');
    const viaSocket = v.parse(PaymentMethodsResultSchema, await answer).payment_systems;
    expect(Object.fromEntries(viaSocket.map((m) => [m.id, m.sandbox]))).toEqual(flags);
  });

  it('marks a deposit made through a sandbox method, in the answer and in the transaction rows', async () => {
    const u = await newUser(server);
    const link = await deposit(server, u, { amount: 25, currency: 'USD', payment_method_id: 'oxapay_crypto', payment_system: 'crypto' });
    expect(link.status).toBe(201);
    expect(v.parse(DepositResultSchema, link.body.data).sandbox).toBe(true);
    const chain = await deposit(server, u, { amount: 25, currency: 'USD', payment_method_id: 'usdt_trc20', payment_system: 'crypto' });
    expect(chain.body.data.sandbox).toBe(true);
    await fundReal(server, u, 30);
    const list = await server.api('GET', '/api/v2/transactions?type=all&status=all&account=all&page=1&limit=10', undefined, u.token);
    const rows = v.parse(TransactionListResultSchema, list.body.data).transactions;
    const byMethod = Object.fromEntries(rows.map((t) => [t.payment_method_id, t.sandbox]));
    expect(byMethod).toEqual({ oxapay_crypto: true, usdt_trc20: true, card_visa_mastercard: false });
    const one = await server.api('GET', `/api/v2/transactions/${link.body.data.transaction_id}`, undefined, u.token);
    expect(one.body.data.transaction.sandbox).toBe(true);
  });

  it('does not offer the live OxaPay methods in sandbox mode', async () => {
    const u = await newUser(server);
    const r = await deposit(server, u, { amount: 25, currency: 'USD', payment_method_id: 'oxapay_invoice', payment_system: 'crypto' });
    expect(r.status).toBe(400);
  });
});

// ---- the server process -----------------------------------------------------------------

const TSX = path.resolve('node_modules/.bin/tsx');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Start `tsx server/main.ts`; resolve when it exits, or when it printed its banner (then stop it). */
async function runServer(env: Record<string, string>): Promise<Run> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-mode-'));
  await prepareDatabase(dataDir);
  const run = await new Promise<Run>((resolve, reject) => {
    const child = spawn(TSX, ['server/main.ts'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...databaseEnv(dataDir), LOG_LEVEL: 'silent', SEED_DEMO_USER: 'false', DIST_DIR: path.join(dataDir, 'none'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let stopped = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server neither exited nor started in time:\n${stdout}\n${stderr}`));
    }, 60_000);
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (!stopped && /Payments: /.test(stdout)) {
        stopped = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: stopped ? null : code, stdout, stderr });
    });
  });
  await releaseDatabase(dataDir);
  fs.rmSync(dataDir, { recursive: true, force: true });
  return run;
}

describe('starting the server', () => {
  it('refuses to start in sandbox with NODE_ENV=production: a clear message and exit code 1', async () => {
    const run = await runServer({ NODE_ENV: 'production' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Refusing to start: PAYMENTS_MODE is sandbox while NODE_ENV=production/);
    expect(run.stderr).toMatch(/ALLOW_SANDBOX_PAYMENTS=1/);
    expect(run.stdout).not.toMatch(/is running at/);
  }, 70_000);

  it('starts a labelled sandbox in production with ALLOW_SANDBOX_PAYMENTS=1, and says no real money moves', async () => {
    const run = await runServer({ NODE_ENV: 'production', ALLOW_SANDBOX_PAYMENTS: '1' });
    expect(run.code).toBeNull();
    expect(run.stdout).toMatch(/is running at/);
    expect(run.stdout).toMatch(/Payments: SANDBOX - .*no real money moves/);
  }, 70_000);

  it('refuses live mode without the OxaPay keys', async () => {
    const run = await runServer({ NODE_ENV: 'development', PAYMENTS_MODE: 'live' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/PAYMENTS_MODE=live needs OXAPAY_MERCHANT_API_KEY, OXAPAY_PAYOUT_API_KEY/);
  }, 70_000);
});
