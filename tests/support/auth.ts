/**
 * Helpers of the authentication tests: a valid registration payload, registering over HTTP,
 * reading mail from the outbox, a clock the test moves, and a snapshot of every table a bad
 * request must leave untouched.
 */
import { expect } from 'vitest';
import type { TestServer } from './server';
import { auditLedger } from '../../server/domain/ledger';

let counter = 0;

/** A unique, valid registration payload (override any field). */
export function validRegistration(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const n = `${process.pid}${++counter}${Math.floor(Math.random() * 1e5)}`;
  return {
    username: `trader${n}`,
    email: `trader${n}@example.com`,
    password: 'Str0ng!Pass',
    password_confirmation: 'Str0ng!Pass',
    first_name: 'Ada',
    last_name: 'Lovelace',
    phone: '+1 (555) 010-2030',
    currency: 'USD',
    terms_accepted: true,
    ...overrides,
  };
}

export interface Registered {
  userId: number;
  username: string;
  email: string;
  password: string;
  token: string;
  refreshToken: string;
}

export async function register(server: TestServer, overrides: Record<string, unknown> = {}): Promise<Registered> {
  const payload = validRegistration(overrides);
  const r = await server.api('POST', '/api/platform/auth/register', payload);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return {
    userId: r.body.data.user.user_id,
    username: String(payload.username),
    email: String(payload.email),
    password: String(payload.password),
    token: r.body.data.token,
    refreshToken: r.body.data.refresh_token,
  };
}

/** The newest outbox message to an address. */
export async function lastMailTo(server: TestServer, email: string) {
  return server.ctx.db
    .selectFrom('outbox')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['recipient']), '=', email.toLowerCase()))
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function mailCount(server: TestServer, email: string): Promise<number> {
  const rows = await server.ctx.db
    .selectFrom('outbox')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['recipient']), '=', email.toLowerCase()))
    .execute();
  return rows.length;
}

export function resetCodeFrom(body: string): string {
  // The code ends its own line ("Your reset code: 123456"); usernames may hold digits too.
  const m = /:\s*(\d{6})\s*$/m.exec(body);
  if (!m) throw new Error(`no 6-digit code in: ${body}`);
  return m[1];
}

export function linkTokenFrom(body: string, path: string): string {
  const m = new RegExp(`${path.replace(/[/]/g, '\\/')}\\?token=([A-Za-z0-9_%-]+)`).exec(body);
  if (!m) throw new Error(`no ${path} link in: ${body}`);
  return decodeURIComponent(m[1]);
}

const WATCHED_TABLES = [
  'users',
  'balances',
  'ledger_transactions',
  'ledger_entries',
  'domain_events',
  'auth_sessions',
  'refresh_tokens',
  'password_resets',
  'email_verifications',
  'admin_tokens',
  'auth_attempts',
  'outbox',
] as const;

/** Every row of the tables authentication writes, to compare before and after a request. */
export async function snapshot(server: TestServer): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of WATCHED_TABLES) out[t] = await server.ctx.db.selectFrom(t).selectAll().execute();
  return out;
}

export async function expectLedgerClean(server: TestServer): Promise<void> {
  expect(await auditLedger(server.ctx.db)).toEqual([]);
}

/** A clock the test moves by hand (passed as buildApp's `now`). */
export class FakeClock {
  constructor(public t: number = Date.now()) {}
  readonly now = () => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}
