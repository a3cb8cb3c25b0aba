/**
 * Money, withdrawals over real HTTP: the hold in one transaction with the row (20 concurrent
 * requests never overdraw), approval paying out the hold, rejection releasing it (both through
 * the operator CLI process), retries with client_request_id, and every validation rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextEvent, type TestServer } from '../support/server';
import { auditLedgerAfterEach } from '../support/ledger-audit';
import { admin, balance, fundReal, newUser, payments, startMoneyServer, txRow, userSocket, type TestUser } from './payments-support';

let server: TestServer;
beforeAll(async () => {
  server = await startMoneyServer();
});
afterAll(async () => {
  await server.close();
});
// The ledger audit after every test, and the real `audit` command when the server closes.
auditLedgerAfterEach(() => server);

const withdraw = (u: TestUser, body: Record<string, unknown>) => server.api('POST', '/api/v2/transactions/withdrawal', body, u.token);
const valid = (over: Record<string, unknown> = {}) => ({
  amount: 15,
  currency: 'USD',
  payment_method_id: 'card_visa_mastercard',
  account_type: 'real',
  payment_system: 'cards',
  payment_details: { requisites: '4111 1111 1111 1111', payment_method: 'card' },
  ...over,
});

describe('withdrawal holds', () => {
  it('20 concurrent withdrawals that together exceed the balance never overdraw', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 100);
    const results = await Promise.all(Array.from({ length: 20 }, () => withdraw(u, valid({ amount: 15 }))));
    const accepted = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(accepted).toHaveLength(6);
    for (const r of refused) {
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, data: null, error: 'Insufficient balance', error_message: 'Insufficient balance' });
    }
    const real = await balance(server, u.userId, 'USD', 'real');
    const held = await balance(server, u.userId, 'USD', 'real_hold');
    expect(held).toBe(9000);
    expect(real).toBe(1000);
    expect(real).toBeGreaterThanOrEqual(0);
    expect(real + held).toBe(10000);
    for (const r of accepted) {
      expect(r.body.data).toMatchObject({ status: 'pending', payment_method: 'Visa / Mastercard', estimated_processing_time: 'up to 24 hours' });
    }
    // balance_before/after of each hold chain down from 100 without gaps.
    const afters = accepted.map((r) => r.body.data.transaction.balance_after).sort((a: number, b: number) => b - a);
    expect(afters).toEqual([85, 70, 55, 40, 25, 10]);
    for (const r of accepted) await payments(server).reject(r.body.data.transaction_id);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(10000);
  });

  it('rejection through the CLI releases the hold and tells the user', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 50);
    const s = await userSocket(server, u.token);
    const r = await withdraw(u, valid({ amount: 20 }));
    expect(r.status).toBe(201);
    const id = r.body.data.transaction_id;
    expect(r.body.data.transaction).toMatchObject({ approval_status: 'pending', balance_before: 50, balance_after: 30, transaction_type: 'withdrawal' });
    expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(2000);

    const update = nextEvent(s, 'payment_status_update', 15_000, (p: any) => p.transaction.id === id);
    const balances = nextEvent(s, 'update_balances', 15_000, (p: any) => p.balances.USD?.RealBalance === 50);
    const cli = await admin(server, 'tx', 'reject', String(id), '--reason', 'Card not accepted');
    expect(cli.code, cli.stderr).toBe(0);
    expect((await update).transaction).toEqual({ id, status: 'failed', transaction_type: 'withdrawal' });
    await balances;
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(5000);
    expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(0);
    expect((await txRow(server, id)).error_message).toBe('Card not accepted');
    // Rejecting twice releases once; approving a rejected one is refused.
    expect((await admin(server, 'tx', 'reject', String(id))).code).toBe(0);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(5000);
    expect((await admin(server, 'tx', 'approve', String(id))).code).toBe(1);
    expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(0);
  });

  it('approval through the CLI pays out the hold', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 80);
    const s = await userSocket(server, u.token);
    const r = await withdraw(u, valid({ amount: 30, payment_method_id: 'usdt_trc20', payment_details: { requisites: 'TQrZ9wBzYkZ5h4kW3mXz6vRrL1pK8sQe2N' } }));
    expect(r.status).toBe(201);
    const id = r.body.data.transaction_id;
    expect(r.body.data.estimated_processing_time).toBe('up to 1 hour');
    expect(r.body.data.transaction).toMatchObject({ payment_currency: 'USDT', amount_payment_currency: 30, crypto_network: 'TRC20' });
    // The operator sees where to pay, whole, in the pending list.
    const pending = await admin(server, 'tx', 'list', '--status', 'pending');
    expect(pending.stdout).toMatch(new RegExp(`#${id} .*to TQrZ9wBzYkZ5h4kW3mXz6vRrL1pK8sQe2N`));
    const update = nextEvent(s, 'payment_status_update', 15_000, (p: any) => p.transaction.id === id);
    const cli = await admin(server, 'tx', 'approve', String(id));
    expect(cli.code, cli.stderr).toBe(0);
    expect((await update).transaction.status).toBe('approved');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(5000);
    expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(0);
    expect((await admin(server, 'tx', 'approve', String(id))).code).toBe(0);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(5000);
    // The same payout address may be used again (only deposit addresses are unique).
    const again = await withdraw(u, valid({ amount: 10, payment_method_id: 'usdt_trc20', payment_details: { requisites: 'TQrZ9wBzYkZ5h4kW3mXz6vRrL1pK8sQe2N' } }));
    expect(again.status).toBe(201);
    await payments(server).reject(again.body.data.transaction_id);
    const keys = await server.ctx.db.selectFrom('ledger_transactions').select(['idempotency_key', 'kind']).where('ref_id', '=', String(id)).where('ref_type', '=', 'payment').orderBy('id').execute();
    expect(keys).toEqual([
      { idempotency_key: `withdrawal:${id}:hold`, kind: 'withdrawal_hold' },
      { idempotency_key: `withdrawal:${id}:payout`, kind: 'withdrawal_payout' },
    ]);
  });

  it('a retried request with the same client_request_id holds once', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 100);
    const body = valid({ amount: 25, client_request_id: 'retry-withdrawal-0001' });
    const [a, b] = await Promise.all([withdraw(u, body), withdraw(u, body)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.data.transaction_id).toBe(b.body.data.transaction_id);
    expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(2500);
    const reused = await withdraw(u, valid({ amount: 26, client_request_id: 'retry-withdrawal-0001' }));
    expect(reused.status).toBe(409);
    expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(2500);
    await payments(server).approve(a.body.data.transaction_id);
  });

  it('refuses a reused client_request_id whose requisites or other fields differ (409), and holds nothing more', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 200);
    const body = valid({ amount: 40, client_request_id: 'retry-withdrawal-0002' });
    const first = await withdraw(u, body);
    expect(first.status).toBe(201);
    const id = first.body.data.transaction_id;
    // The same request again (requisites re-spaced at the edges are the same requisites) replays.
    const same = await withdraw(u, { ...body, payment_details: { requisites: '  4111 1111 1111 1111 ', payment_method: 'card' } });
    expect(same.status).toBe(200);
    expect(same.body.data.transaction_id).toBe(id);
    const changes: Record<string, unknown>[] = [
      { payment_details: { requisites: '5555 5555 5555 4444', payment_method: 'card' } },
      { payment_details: { requisites: '4111 1111 1111 1111', payment_method: 'other card' } },
      { payment_details: { requisites: '4111 1111 1111 1111' } },
      { payment_method_id: 'usdt_trc20', payment_details: { requisites: 'TXYZabcdefghijkmnopqrstuvwxyz12345', payment_method: 'card' } },
      { currency: 'EUR' },
      { amount: 41 },
    ];
    for (const change of changes) {
      const reused = await withdraw(u, { ...body, ...change });
      expect(reused.status, JSON.stringify(change)).toBe(409);
      expect(reused.body).toEqual({
        success: false,
        data: null,
        error: 'client_request_id was already used for a different request',
        error_message: 'client_request_id was already used for a different request',
      });
    }
    const rows = await server.ctx.db.selectFrom('payment_transactions').select(['id', 'payment_details']).where('user_id', '=', u.userId).where('transaction_type', '=', 'withdrawal').execute();
    expect(rows).toEqual([{ id, payment_details: JSON.stringify({ requisites: '4111 1111 1111 1111', payment_method: 'card' }) }]);
    expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(4000);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(16000);
    await payments(server).reject(id);
  });
});

describe('withdrawal validation', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await newUser(server);
    await fundReal(server, u, 1000);
  });

  const cases: [string, unknown, RegExp][] = [
    ['amount below the minimum', valid({ amount: 9.99 }), /^Amount too low: minimum 10\.00 USD$/],
    ['amount above the maximum', valid({ amount: 5000.01 }), /^Amount too high: maximum 5000\.00 USD$/],
    ['more than the real balance', valid({ amount: 1000.01 }), /^Insufficient balance$/],
    ['zero', valid({ amount: 0 }), /^Amount must be greater than 0$/],
    ['negative', valid({ amount: -10 }), /^Amount must be greater than 0$/],
    ['too many decimals', valid({ amount: 10.001 }), /^Amount may have at most 2 decimals in USD$/],
    ['amount as text', valid({ amount: 'ten' }), /^Amount must be a number$/],
    ['missing amount', valid({ amount: undefined }), /^Amount is required$/],
    ['unknown currency', valid({ currency: 'XYZ' }), /^Unknown currency$/],
    ['currency as a number', valid({ currency: 840 }), /^Currency must be a string$/],
    ['missing method', valid({ payment_method_id: undefined }), /^Payment method is required$/],
    ['unknown method', valid({ payment_method_id: 'paypal' }), /^Payment method not found$/],
    ['payment link method', valid({ payment_method_id: 'oxapay_crypto' }), /^This payment method does not support withdrawals$/],
    ['method of another currency', valid({ payment_method_id: 'bank_transfer_sepa', amount: 60 }), /^This payment method does not support the currency$/],
    ['demo account', valid({ account_type: 'demo' }), /^Only the real account can be used/],
    ['requisites too short', valid({ payment_details: { requisites: 'ab' } }), /^Requisites must be at least 3 characters$/],
    ['requisites of spaces', valid({ payment_details: { requisites: '     ' } }), /^Requisites must be at least 3 characters$/],
    ['requisites too long', valid({ payment_details: { requisites: 'x'.repeat(257) } }), /^Requisites must be at most 256 characters$/],
    ['requisites missing', valid({ payment_details: {} }), /^Requisites is required$/],
    ['a card number of 4 digits', valid({ payment_details: { requisites: '1234' } }), /^Card number must have 12 to 19 digits$/],
    ['a card number of 20 digits', valid({ payment_details: { requisites: '4'.repeat(20) } }), /^Card number must have 12 to 19 digits$/],
    ['a card number with letters', valid({ payment_details: { requisites: '4111 1111 1111 111a' } }), /^Card number must have 12 to 19 digits$/],
    ['a card number failing the Luhn check', valid({ payment_details: { requisites: '4111 1111 1111 1112' } }), /^Card number is not valid: check the digits$/],
    ['payment details missing', valid({ payment_details: undefined }), /^Payment details is required$/],
    ['payment_system too long', valid({ payment_system: 'x'.repeat(65) }), /^payment_system must be at most 64 characters$/],
    ['bad client_request_id', valid({ client_request_id: 'x' }), /^client_request_id must be/],
    ['body is an array', [1, 2], /^Request body must be a JSON object$/],
  ];
  for (const [name, body, message] of cases) {
    it(`refuses ${name} with a 4xx envelope and holds nothing`, async () => {
      const r = await withdraw(u, body as Record<string, unknown>);
      expect(r.status).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.data).toBeNull();
      expect(r.body.error_message).toMatch(message);
      expect(r.body.error).toBe(r.body.error_message);
      expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(0);
      expect(await balance(server, u.userId, 'USD', 'real')).toBe(100000);
    });
  }

  it('refuses malformed JSON, a missing token and a demo-only user', async () => {
    const malformed = await server.api('POST', '/api/v2/transactions/withdrawal', '{"amount": 1', u.token);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_message).toBe('Malformed JSON body');
    expect((await server.api('POST', '/api/v2/transactions/withdrawal', valid())).status).toBe(401);
    const fresh = await newUser(server);
    const r = await withdraw(fresh, valid());
    expect(r.status).toBe(400);
    expect(r.body.error_message).toBe('Insufficient balance');
    expect(await server.ctx.db.selectFrom('payment_transactions').select('id').where('user_id', '=', fresh.userId).execute()).toEqual([]);
  });

  it('accepts card numbers of 12 to 19 digits with spaces or hyphens, answers them masked, and keeps other methods at 3 characters', async () => {
    for (const requisites of ['5555-5555-5555-4444', '4111111111111111', '6011 0009 9013 9424 009']) {
      const digits = requisites.replace(/\D/g, '');
      expect(digits.length).toBeGreaterThanOrEqual(12);
      const r = await withdraw(u, valid({ payment_details: { requisites, payment_method: 'card' } }));
      expect(r.status, requisites).toBe(201);
      expect(r.body.data.transaction.payment_details).toEqual({ requisites: `•••• ${digits.slice(-4)}`, payment_method: 'card' });
      const row = await txRow(server, r.body.data.transaction_id);
      expect(JSON.parse(row.payment_details!).requisites).toBe(requisites);
      await payments(server).reject(r.body.data.transaction_id);
    }
    const crypto = await withdraw(u, valid({ payment_method_id: 'usdt_trc20', payment_details: { requisites: 'T12' } }));
    expect(crypto.status).toBe(201);
    expect(crypto.body.data.transaction.payment_details.requisites).toBe('T12');
    await payments(server).reject(crypto.body.data.transaction_id);
  });

  it('accepts the bounds themselves', async () => {
    const low = await withdraw(u, valid({ amount: 10 }));
    const high = await withdraw(u, valid({ amount: '990.00' }));
    expect([low.status, high.status]).toEqual([201, 201]);
    await payments(server).reject(low.body.data.transaction_id);
    await payments(server).reject(high.body.data.transaction_id);
  });
});
