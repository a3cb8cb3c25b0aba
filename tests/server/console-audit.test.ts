/**
 * The audit chain and the operator CLI, on a real server's database (SQLite, and PostgreSQL on
 * the server-pg project): `operators add|list|role|disable` (the printed password and TOTP secret
 * log in), every CLI change audited as operator "cli" with the OS user, the triggers refusing
 * UPDATE and DELETE, `audit-log verify` printing OK, and after a tamper (the trigger dropped, a
 * row edited) naming that row with exit 1. Concurrent appends keep one chain.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import type { TestServer } from '../support/server';
import { consoleLogin, totpCoder } from '../support/operators';
import { databaseEnv, testDialect } from '../support/test-database';
import { runCli } from '../../server/cli/admin';
import { appendAudit, verifyAudit } from '../../server/domain/audit/service';
import { transaction } from '../../server/db';
import { fundReal, newUser, startMoneyServer } from './payments-support';

let server: TestServer;
beforeAll(async () => {
  server = await startMoneyServer();
});
afterAll(async () => {
  await server.close();
});

/** runCli in this process with the server's database; what it printed and its exit code. */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    const code = await runCli(argv, { ...databaseEnv(server.dataDir), LOG_LEVEL: 'silent', NODE_ENV: 'test' });
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe('operators CLI', () => {
  it('adds an operator whose printed password and TOTP secret log in; role and disable are audited', async () => {
    const added = await cli('operators', 'add', 'alice.admin', 'admin', '--email', 'alice@example.com');
    expect(added.code, added.err).toBe(0);
    const password = /Initial password \(shown once\): (\S+)/.exec(added.out)![1];
    const secret = /TOTP secret .*: ([A-Z2-7]+)/.exec(added.out)![1];
    expect(added.out).toMatch(/otpauth:\/\/totp\//);
    const client = await consoleLogin(server, { id: 0, username: 'alice.admin', role: 'admin', password, totpSecret: secret, code: totpCoder(secret) });
    expect((await client.api('GET', '/api/console/operators')).body.data.operators.map((o: { username: string }) => o.username)).toContain('alice.admin');

    expect((await cli('operators', 'add', 'alice.admin', 'risk')).code).toBe(1);
    expect((await cli('operators', 'add', 'bob', 'king')).code).toBe(2);
    expect((await cli('operators', 'add', 'bob.risk', 'risk', '--password', 'a-long-password-123')).code).toBe(0);
    expect((await cli('operators', 'role', 'bob.risk', 'finance')).code).toBe(0);
    const list = await cli('operators', 'list', '--json');
    const bob = JSON.parse(list.out).operators.find((o: { username: string }) => o.username === 'bob.risk');
    expect(bob.role).toBe('finance');
    expect((await cli('operators', 'disable', 'bob.risk', '--reason', 'left')).code).toBe(0);
    // The last active admin cannot go.
    expect((await cli('operators', 'disable', 'alice.admin')).code).toBe(1);

    const rows = await server.ctx.db.selectFrom('audit_log').selectAll().where('source', '=', 'cli').where('action', 'like', 'operator.%').orderBy('id').execute();
    expect(rows.map((r) => r.action)).toEqual(['operator.create', 'operator.create', 'operator.role', 'operator.disable']);
    expect(rows.every((r) => r.operator_name === 'cli' && typeof r.os_user === 'string' && r.os_user.length > 0)).toBe(true);
  });

  it('the existing state-changing commands write audit rows too', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 30);
    const w = await server.api('POST', '/api/v2/transactions/withdrawal', { amount: 10, currency: 'USD', payment_method_id: 'card_visa_mastercard', account_type: 'real', payment_system: 'cards', payment_details: { requisites: '4111 1111 1111 1111', payment_method: 'card' } }, u.token);
    const id = w.body.data.transaction_id ?? w.body.data.transaction.id;
    expect((await cli('tx', 'approve', String(id))).code).toBe(0);
    expect((await cli('pairs', 'disable', 'EURGBP')).code).toBe(0);
    expect((await cli('risk', 'set-limit', 'EURUSD', '2500')).code).toBe(0);
    const row = await server.ctx.db.selectFrom('users').select('username').where('id', '=', u.userId).executeTakeFirstOrThrow();
    expect((await cli('session', row.username)).code).toBe(0);
    const actions = (await server.ctx.db.selectFrom('audit_log').select('action').where('source', '=', 'cli').execute()).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['payment.approve', 'pair.disable', 'risk.limit', 'user.open_as']));
  });
});

describe('the audit chain', () => {
  it('refuses UPDATE and DELETE', async () => {
    await expect(server.ctx.db.updateTable('audit_log').set({ reason: 'edited' }).execute()).rejects.toThrow(/append-only/);
    await expect(server.ctx.db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
  });

  it('keeps one chain under concurrent appends', async () => {
    const actor = { operatorId: null, name: 'cli', role: 'cli', source: 'cli' as const, osUser: 'test' };
    await Promise.all(Array.from({ length: 20 }, (_, i) => transaction(server.ctx.db, (trx) => appendAudit(trx, actor, { action: 'test.concurrent', targetId: i }, Date.now()))));
    expect((await verifyAudit(server.ctx.db)).ok).toBe(true);
    const verified = await cli('audit-log', 'verify');
    expect(verified.code).toBe(0);
    expect(verified.out).toMatch(/^OK: \d+ audit rows/);
  });

  it('names the first broken row after a tamper (trigger dropped, a row edited)', async () => {
    const victim = await server.ctx.db.selectFrom('audit_log').select('id').where('action', '=', 'test.concurrent').orderBy('id').limit(1).offset(3).executeTakeFirstOrThrow();
    if (testDialect() === 'postgres') await sql`drop trigger audit_log_append_only on audit_log`.execute(server.ctx.db);
    else await sql`drop trigger audit_log_no_update`.execute(server.ctx.db);
    await server.ctx.db.updateTable('audit_log').set({ reason: 'nothing to see' }).where('id', '=', victim.id).execute();
    const r = await cli('audit-log', 'verify');
    expect(r.code).toBe(1);
    expect(r.out).toContain(`audit row #${victim.id} `);
    // The rows before it still verify: the walk stopped exactly there.
    expect((await verifyAudit(server.ctx.db)).brokenId).toBe(Number(victim.id));
  });
});
