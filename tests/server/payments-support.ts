/**
 * Helpers of the money tests: a server with the rate limits off, users registered over HTTP,
 * an authenticated socket, the operator CLI run as a child process on the test's DATA_DIR,
 * signed provider callbacks, and a real balance funded through an approved manual deposit.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect } from 'vitest';
import type { Socket } from 'socket.io-client';
import { nextEvent, startTestServer, type TestServer } from '../support/server';
import { register } from '../support/auth';
import { assertLedgerAudit, auditOnClose } from '../support/ledger-audit';
import { getBalanceMinor, type Account } from '../../server/domain/ledger';
import type { PaymentsService } from '../../server/domain/payments/service';
import { cryptoWebhookSecret } from '../../server/domain/payments/signing';
import { hmacHex } from '../../server/infra/crypto';
import { databaseEnv } from '../support/test-database';

/** A money server; the real `audit` command runs on its database when it closes. */
export async function startMoneyServer(env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer({ RATE_LIMIT: 'false', CRYPTO_CONFIRM_DELAY_SECONDS: '600', ...env });
  auditOnClose(server);
  return server;
}

export interface TestUser {
  userId: number;
  token: string;
}

export async function newUser(server: TestServer, currency = 'USD'): Promise<TestUser> {
  const r = await register(server, { currency });
  return { userId: r.userId, token: r.token };
}

export function payments(server: TestServer): PaymentsService {
  return server.ctx.services.payments;
}

/** A socket that has provided the user's token and joined the user's room. */
export async function userSocket(server: TestServer, token: string): Promise<Socket> {
  const s = await server.socket();
  const ready = nextEvent(s, 'userdata');
  s.emit('get_userdata', { token });
  await ready;
  return s;
}

const TSX = path.resolve('node_modules/.bin/tsx');

/** `npm run admin -- <args>` as a separate process on the test server's database. */
export function admin(server: TestServer, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      ['server/cli/admin.ts', ...args],
      { env: { ...process.env, ...databaseEnv(server.dataDir), LOG_LEVEL: 'silent', NODE_ENV: 'test' }, timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

export function balance(server: TestServer, userId: number, currency: string, account: Account): Promise<number> {
  return getBalanceMinor(server.ctx.db, userId, currency, account);
}

/** The ledger audit now (a test that closes its own server also gets the audit command then). */
export function expectAuditClean(server: TestServer): Promise<void> {
  return assertLedgerAudit(server);
}

export async function deposit(server: TestServer, user: TestUser, body: Record<string, unknown>) {
  return server.api('POST', '/api/v2/transactions/deposit', { account_type: 'real', ...body }, user.token);
}

/** Give the user a real balance: a manual card deposit approved by the operator's domain function. */
export async function fundReal(server: TestServer, user: TestUser, amount: number, currency = 'USD'): Promise<void> {
  const r = await deposit(server, user, { amount, currency, payment_method_id: 'card_visa_mastercard', payment_system: 'cards' });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const outcome = await payments(server).approve(r.body.data.transaction_id);
  expect(outcome.changed).toBe(true);
}

/** Headers of a payment-link callback correctly signed over exactly `body`. */
export function oxapayHeaders(server: TestServer, body: string): Record<string, string> {
  return { 'content-type': 'application/json', hmac: hmacHex('sha512', server.ctx.secrets.oxapayWebhookSecret, body) };
}

export function signOxapay(server: TestServer, payload: unknown): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(payload);
  return { body, headers: oxapayHeaders(server, body) };
}

export function signCrypto(server: TestServer, payload: unknown): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(payload);
  const secret = cryptoWebhookSecret(server.ctx.secrets.oxapayWebhookSecret);
  return { body, headers: { 'content-type': 'application/json', 'x-signature': hmacHex('sha256', secret, body) } };
}

export async function txRow(server: TestServer, id: number) {
  return server.ctx.db.selectFrom('payment_transactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Poll until `check` is true or fail after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000, everyMs = 100): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
