/**
 * The ledger's own guards: the database refuses any UPDATE or DELETE of a ledger entry or ledger
 * transaction (migration 007_ledger_guards, append-only in SQL, not only in code), and the
 * audit the tests run after every scenario really fails on a difference, both the in-process
 * check and the operator's `audit` command.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestServer } from '../support/server';
import { assertLedgerAudit, auditLedgerAfterEach, runAuditCommand } from '../support/ledger-audit';
import { balance, fundReal, newUser, startMoneyServer } from './payments-support';

let server: TestServer;
beforeAll(async () => {
  server = await startMoneyServer();
});
afterAll(async () => {
  await server.close();
});
// The ledger audit after every test, and the real `audit` command when the server closes.
auditLedgerAfterEach(() => server);

describe('append-only ledger', () => {
  it('refuses to update or delete ledger entries and ledger transactions, in or out of a transaction', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 75);
    const db = server.ctx.db;
    const entries = () => db.selectFrom('ledger_entries').selectAll().where('user_id', '=', u.userId).orderBy('id').execute();
    const headers = () => db.selectFrom('ledger_transactions').selectAll().where('user_id', '=', u.userId).orderBy('id').execute();
    const before = { entries: await entries(), headers: await headers() };
    expect(before.entries.some((e) => e.account === 'real' && Number(e.amount) === 7500)).toBe(true);

    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['update an entry', () => db.updateTable('ledger_entries').set({ amount: 1_000_000 }).where('user_id', '=', u.userId).execute()],
      ['delete an entry', () => db.deleteFrom('ledger_entries').where('user_id', '=', u.userId).execute()],
      ['update a ledger transaction', () => db.updateTable('ledger_transactions').set({ idempotency_key: 'rewritten' }).where('user_id', '=', u.userId).execute()],
      ['delete a ledger transaction', () => db.deleteFrom('ledger_transactions').where('user_id', '=', u.userId).execute()],
      ['raw SQL update', () => sql`update ledger_entries set balance_after = 0 where user_id = ${u.userId}`.execute(db)],
      [
        'update inside ctx.tx',
        () => server.ctx.tx((trx) => trx.updateTable('ledger_entries').set({ amount: 1 }).where('user_id', '=', u.userId).execute()),
      ],
    ];
    for (const [what, attempt] of attempts) {
      await expect(attempt(), what).rejects.toThrow(/ledger_(entries|transactions) is append-only: (update|delete) refused/);
    }
    expect({ entries: await entries(), headers: await headers() }).toEqual(before);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(7500);
    // Appending still works: the next posting goes through.
    await fundReal(server, u, 25);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(10000);
  });
});

describe('the audit the tests rely on', () => {
  it('fails on a balance that differs from its entries, in process and as the operator command', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 10);
    await assertLedgerAudit(server);
    await expect(runAuditCommand(server.dataDir)).resolves.toMatch(/^Ledger OK: \d+ balances match their entries/);

    const skew = (delta: number) =>
      server.ctx.db
        .updateTable('balances')
        .set((eb) => ({ amount: eb('amount', '+', delta) }))
        .where('user_id', '=', u.userId)
        .where('currency', '=', 'USD')
        .where('account', '=', 'real')
        .execute();
    await skew(1);
    try {
      await expect(assertLedgerAudit(server)).rejects.toThrow(`user ${u.userId} USD real: balance 1001, entries sum 1000`);
      await expect(runAuditCommand(server.dataDir)).rejects.toThrow(/Ledger MISMATCH: 1 balance\(s\) differ[\s\S]*balance 1001, entries sum 1000/);
    } finally {
      await skew(-1);
    }
    await expect(runAuditCommand('/nonexistent-tt-data-dir')).rejects.toThrow('no database');
  });
});
