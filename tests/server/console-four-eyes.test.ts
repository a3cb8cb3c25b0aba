/**
 * Four eyes and roles in the operator console, against a real server (SQLite, and PostgreSQL on
 * the server-pg project): a support operator refused a withdrawal's approval (403 + audit row); a
 * large withdrawal approved by one finance operator waits, is refused a second approval by the
 * same operator, and is paid once when another approves (also when two approve at once); a small
 * one is paid at once; a manual balance adjustment goes through the books against
 * house:adjustments and never takes a balance below zero; the ledger audit stays clean.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server';
import { auditLedgerAfterEach } from '../support/ledger-audit';
import { consoleLogin, createOperator, type ConsoleClient } from '../support/operators';
import { balance, fundReal, newUser, startMoneyServer, txRow, type TestUser } from './payments-support';
import { ConsoleText } from '../../contract/console';
import { ledgerSum } from '../../server/domain/ledger';
import { payoutKey } from '../../server/domain/payments/status';

let server: TestServer;
let finance1: ConsoleClient;
let finance2: ConsoleClient;
let finance3: ConsoleClient;
let support: ConsoleClient;

beforeAll(async () => {
  // Four eyes from 100 USD, so the card method's limits leave room on both sides.
  server = await startMoneyServer({ FOUR_EYES_WITHDRAWAL_USD: '100' });
  finance1 = await consoleLogin(server, await createOperator(server, 'finance'));
  finance2 = await consoleLogin(server, await createOperator(server, 'finance'));
  finance3 = await consoleLogin(server, await createOperator(server, 'finance'));
  support = await consoleLogin(server, await createOperator(server, 'support'));
});
afterAll(async () => {
  await server.close();
});
auditLedgerAfterEach(() => server);

async function withdrawal(u: TestUser, amount: number): Promise<number> {
  const r = await server.api(
    'POST',
    '/api/v2/transactions/withdrawal',
    { amount, currency: 'USD', payment_method_id: 'card_visa_mastercard', account_type: 'real', payment_system: 'cards', payment_details: { requisites: '4111 1111 1111 1111', payment_method: 'card' } },
    u.token,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.transaction_id ?? r.body.data.transaction.id;
}

const auditRows = (action: string) => server.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();

describe('roles', () => {
  it('a support operator approving a withdrawal: 403 and an audit row of the attempt', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 80);
    const id = await withdrawal(u, 30);
    const before = (await auditRows('forbidden')).length;
    const r = await support.api('POST', `/api/console/payments/${id}/approve`, {});
    expect(r.status).toBe(403);
    expect(r.body.success).toBe(false);
    const rows = await auditRows('forbidden');
    expect(rows.length).toBe(before + 1);
    expect(rows.at(-1)!.role).toBe('support');
    expect((await txRow(server, id)).status).toBe('pending');
    // Support reads users but not payments.
    expect((await support.api('GET', '/api/console/users')).status).toBe(200);
    expect((await support.api('GET', '/api/console/payments')).status).toBe(403);
  });
});

describe('a large withdrawal needs two finance operators', () => {
  it('waits after the first approval, refuses the same operator, pays once on the second', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 500);
    const id = await withdrawal(u, 150);

    const first = await finance1.api('POST', `/api/console/payments/${id}/approve`, { reason: 'checked the card' });
    expect(first.status).toBe(200);
    expect(first.body.data.approval.status).toBe('pending');
    expect(first.body.data.payment.status).toBe('pending');
    expect(first.body.data.payment.needs_second_approval).toBe(true);
    const approvalId = first.body.data.approval.id;
    // The same operator approving the payment again is the second pair of eyes it cannot be.
    const again1 = await finance1.api('POST', `/api/console/payments/${id}/approve`, {});
    expect(again1.status).toBe(403);
    expect(again1.body.error).toBe(ConsoleText.requesterCannotApprove);

    const self = await finance1.api('POST', `/api/console/approvals/${approvalId}/approve`, {});
    expect(self.status).toBe(403);
    expect(self.body.error).toBe(ConsoleText.requesterCannotApprove);
    expect((await txRow(server, id)).status).toBe('pending');
    expect((await auditRows('forbidden')).at(-1)!.target_id).toBe(String(approvalId));

    const bySupport = await support.api('POST', `/api/console/approvals/${approvalId}/approve`, {});
    expect(bySupport.status).toBe(403);

    const second = await finance2.api('POST', `/api/console/approvals/${approvalId}/approve`, { reason: 'ok' });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.data.approval.status).toBe('executed');
    expect((await txRow(server, id)).status).toBe('approved');
    expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(0);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(35_000);

    const again = await finance3.api('POST', `/api/console/approvals/${approvalId}/approve`, {});
    expect(again.status).toBe(409);
    expect(await ledgerSum(server.ctx.db, payoutKey(id))).toBe(-15_000);
    const executed = (await auditRows('approval.approve')).filter((r) => r.target_id === String(id));
    expect(executed).toHaveLength(1);
  });

  it('another finance operator approving the payment itself approves its pending request', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 300);
    const id = await withdrawal(u, 120);
    expect((await finance1.api('POST', `/api/console/payments/${id}/approve`, {})).body.data.payment.status).toBe('pending');
    const second = await finance2.api('POST', `/api/console/payments/${id}/approve`, {});
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.data.approval.status).toBe('executed');
    expect(second.body.data.payment.status).toBe('approved');
    expect(await ledgerSum(server.ctx.db, payoutKey(id))).toBe(-12_000);
  });

  it('rejecting a waiting large withdrawal releases the hold and closes its request', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 300);
    const id = await withdrawal(u, 110);
    const approvalId = (await finance1.api('POST', `/api/console/payments/${id}/approve`, {})).body.data.approval.id;
    const rej = await finance2.api('POST', `/api/console/payments/${id}/reject`, { reason: 'suspicious destination' });
    expect(rej.status).toBe(200);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(30_000);
    const closed = await finance2.api('GET', '/api/console/approvals?status=rejected');
    expect(closed.body.data.approvals.some((a: { id: number }) => a.id === approvalId)).toBe(true);
    expect((await finance2.api('POST', `/api/console/approvals/${approvalId}/approve`, {})).status).toBe(409);
  });

  it('two operators approving at once pay it once', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 400);
    const id = await withdrawal(u, 200);
    const approvalId = (await finance1.api('POST', `/api/console/payments/${id}/approve`, {})).body.data.approval.id;
    const answers = await Promise.all([
      finance2.api('POST', `/api/console/approvals/${approvalId}/approve`, {}),
      finance3.api('POST', `/api/console/approvals/${approvalId}/approve`, {}),
      finance2.api('POST', `/api/console/approvals/${approvalId}/approve`, {}),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect((await txRow(server, id)).status).toBe('approved');
    expect(await ledgerSum(server.ctx.db, payoutKey(id))).toBe(-20_000);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(20_000);
  });

  it('a small withdrawal is paid on one approval; a rejection releases the hold', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 100);
    const small = await withdrawal(u, 40);
    const r = await finance1.api('POST', `/api/console/payments/${small}/approve`, {});
    expect(r.status).toBe(200);
    expect(r.body.data.approval).toBeNull();
    expect(r.body.data.payment.status).toBe('approved');
    const other = await withdrawal(u, 20);
    expect((await finance1.api('POST', `/api/console/payments/${other}/reject`, {})).status).toBe(400);
    const rej = await finance1.api('POST', `/api/console/payments/${other}/reject`, { reason: 'card name does not match' });
    expect(rej.status).toBe(200);
    expect(rej.body.data.payment.status).toBe('failed');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(6_000);
    expect((await auditRows('payment.approve')).some((a) => a.target_id === String(small))).toBe(true);
    expect((await auditRows('payment.reject')).at(-1)!.reason).toBe('card name does not match');
  });
});

describe('manual balance adjustment', () => {
  it('goes through the books against house:adjustments after a second operator approves', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 10);
    const req = await finance1.api('POST', `/api/console/users/${u.userId}/adjustments`, { currency: 'USD', amount: '25.50', reason: 'goodwill for ticket 42' });
    expect(req.status, JSON.stringify(req.body)).toBe(200);
    const approvalId = req.body.data.approval.id;
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(1_000);
    expect((await finance1.api('POST', `/api/console/approvals/${approvalId}/approve`, {})).status).toBe(403);
    const ok = await finance2.api('POST', `/api/console/approvals/${approvalId}/approve`, {});
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(3_550);
    const books = await finance1.api('GET', '/api/console/books');
    expect(books.body.data.currencies.USD.sum).toBe(0);
    expect(books.body.data.currencies.USD.accounts['house:adjustments']).toBeLessThanOrEqual(-2_550);
  });

  it('never takes a balance below zero: the approval fails and stays pending', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 10);
    const req = await finance1.api('POST', `/api/console/users/${u.userId}/adjustments`, { currency: 'USD', amount: '-10.01', reason: 'claw back' });
    const approvalId = req.body.data.approval.id;
    const r = await finance2.api('POST', `/api/console/approvals/${approvalId}/approve`, {});
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(ConsoleText.adjustmentNegative);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(1_000);
    expect((await finance2.api('GET', '/api/console/approvals?status=pending')).body.data.approvals.some((a: { id: number }) => a.id === approvalId)).toBe(true);
  });

  it('refuses bad input with the envelope and changes nothing', async () => {
    const u = await newUser(server);
    for (const body of [{ currency: 'USD', amount: '0', reason: 'x' }, { currency: 'USD', amount: '1.001', reason: 'x' }, { currency: 'USD', amount: '5' }, { currency: 'XXX', amount: '5', reason: 'x' }, { currency: 'USD', amount: '5', reason: 'x', extra: 1 }]) {
      const r = await finance1.api('POST', `/api/console/users/${u.userId}/adjustments`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.success).toBe(false);
      expect(typeof r.body.error).toBe('string');
    }
    expect((await finance1.api('POST', '/api/console/users/abc/adjustments', { currency: 'USD', amount: '5', reason: 'x' })).status).toBe(400);
    expect((await finance1.api('POST', '/api/console/users/999999/adjustments', { currency: 'USD', amount: '5', reason: 'x' })).status).toBe(404);
    expect((await finance1.api('GET', '/api/console/payments?per_page=1000')).status).toBe(400);
    expect((await finance1.api('GET', '/api/console/payments?bogus=1')).status).toBe(400);
  });
});
