/**
 * Live payments (PAYMENTS_MODE=live) against the OxaPay emulator (tests/support/oxapay-emulator.ts)
 * over real HTTP both ways: deposits by invoice link and by white-label address credited once;
 * webhooks with a bad or missing signature refused with nothing changed; a replayed webhook
 * paying nothing; a lost webhook recovered by reconciliation; underpaid held for the operator;
 * provider refusals and timeouts leaving nothing half-done; a payout that succeeds and one that
 * fails (hold released). The ledger audits clean after every test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server';
import { auditLedgerAfterEach } from '../support/ledger-audit';
import { startOxapayEmulator, type OxapayEmulator } from '../support/oxapay-emulator';
import { balance, deposit, fundReal, newUser, payments, startMoneyServer, txRow, waitFor, type TestUser } from './payments-support';

let emu: OxapayEmulator;
let server: TestServer;

beforeAll(async () => {
  emu = await startOxapayEmulator();
  server = await startMoneyServer({
    PAYMENTS_MODE: 'live',
    OXAPAY_API_URL: emu.url,
    OXAPAY_MERCHANT_API_KEY: emu.merchantKey,
    OXAPAY_PAYOUT_API_KEY: emu.payoutKey,
    OXAPAY_TIMEOUT_MS: '500',
  });
});
afterAll(async () => {
  await server?.close();
  await emu?.close();
});
auditLedgerAfterEach(() => server);

/** The house clearing account of a provider (double-entry books, migration 008). */
const clearing = async (provider: string, currency = 'USD') =>
  Number(
    (await server.ctx.db.selectFrom('house_balances').select('amount').where('account', '=', `house:clearing:${provider}`).where('currency', '=', currency).executeTakeFirst())
      ?.amount ?? 0,
  );

const creditCount = async (id: number) =>
  (await server.ctx.db.selectFrom('ledger_transactions').select('id').where('idempotency_key', '=', `deposit:${id}:credit`).execute()).length;

async function linkDeposit(user: TestUser, amount = 50) {
  const r = await deposit(server, user, { amount, currency: 'USD', payment_method_id: 'oxapay_invoice', payment_system: 'crypto' });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data;
}

async function addressDeposit(user: TestUser, amount = 40) {
  const r = await deposit(server, user, { amount, currency: 'USD', payment_method_id: 'oxapay_usdt_trc20', payment_system: 'crypto' });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data;
}

describe('live catalogue', () => {
  it('offers the OxaPay methods and not the sandbox ones, none marked sandbox', async () => {
    const u = await newUser(server);
    const r = await server.api('GET', '/api/v2/payments/methods', undefined, u.token);
    const ids = r.body.data.payment_systems.map((m: { id: string }) => m.id);
    expect(ids).toEqual(['card_visa_mastercard', 'bank_transfer_sepa', 'oxapay_usdt_trc20', 'oxapay_btc', 'oxapay_invoice']);
    expect(r.body.data.payment_systems.every((m: { sandbox?: boolean }) => m.sandbox === false)).toBe(true);
    // A sandbox method cannot be used in live mode.
    const refused = await deposit(server, u, { amount: 50, currency: 'USD', payment_method_id: 'oxapay_crypto', payment_system: 'crypto' });
    expect(refused.status).toBe(400);
    expect(refused.body.error_message ?? refused.body.error).toMatch(/Payment method not found/);
  });
});

describe('deposit by invoice link', () => {
  it('creates an OxaPay invoice and credits once on the signed paid webhook; a replay pays nothing', async () => {
    const u = await newUser(server);
    const d = await linkDeposit(u, 50);
    expect(d.integration_type).toBe('oxapay_link');
    expect(d.sandbox).toBe(false);
    const p = emu.paymentByOrder(d.transaction_id)!;
    expect(p).toBeTruthy();
    expect(d.payment_url).toBe(`${emu.url}/pay/${p.track_id}`);
    expect(d.invoice_id).toBe(p.track_id);
    expect(p).toMatchObject({ type: 'invoice', amount: 50, currency: 'USD', callback_url: `${server.baseUrl}/api/v2/payments/webhooks/oxapay` });

    const clearingBefore = await clearing('oxapay');
    const delivery = await emu.pay(p.track_id);
    expect(delivery).toMatchObject({ status: 200, answer: 'ok' });
    expect((await txRow(server, d.transaction_id)).status).toBe('approved');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(5000);
    // The other side of the credit: OxaPay holds the house's money (its own clearing account).
    expect(await clearing('oxapay')).toBe(clearingBefore - 5000);

    const again = await emu.replay(p.track_id);
    expect(again).toMatchObject({ status: 200, answer: 'ok' });
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(5000);
    expect(await clearing('oxapay')).toBe(clearingBefore - 5000);
    expect(await creditCount(d.transaction_id)).toBe(1);
  });

  it('is safe against out-of-order deliveries: a late "paying" or "expired" after "paid" changes nothing', async () => {
    const u = await newUser(server);
    const d = await linkDeposit(u, 10);
    const p = emu.paymentByOrder(d.transaction_id)!;
    await emu.pay(p.track_id);
    const { createHmac } = await import('node:crypto');
    for (const status of ['paying', 'expired', 'waiting']) {
      const body = JSON.stringify({ track_id: p.track_id, status, type: 'invoice', amount: 10, currency: 'USD', order_id: String(d.transaction_id) });
      const res = await server.raw('POST', '/api/v2/payments/webhooks/oxapay', {
        body,
        headers: { 'content-type': 'application/json', HMAC: createHmac('sha512', emu.merchantKey).update(body).digest('hex') },
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('ok');
    }
    expect((await txRow(server, d.transaction_id)).status).toBe('approved');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(1000);
    expect(await creditCount(d.transaction_id)).toBe(1);
  });

  it('refuses a webhook with a bad or missing signature and changes nothing', async () => {
    const u = await newUser(server);
    const d = await linkDeposit(u, 20);
    const p = emu.paymentByOrder(d.transaction_id)!;
    p.status = 'paid';
    const body = JSON.stringify({ track_id: p.track_id, status: 'paid', type: 'invoice', amount: 20, currency: 'USD', order_id: String(d.transaction_id) });
    const noSig = await server.raw('POST', '/api/v2/payments/webhooks/oxapay', { body, headers: { 'content-type': 'application/json' } });
    expect(noSig.status).toBe(401);
    // Signed with the payout key instead of the merchant key: wrong key for a payment.
    const crypto = await import('node:crypto');
    const wrongKey = crypto.createHmac('sha512', emu.payoutKey).update(body).digest('hex');
    const bad = await server.raw('POST', '/api/v2/payments/webhooks/oxapay', { body, headers: { 'content-type': 'application/json', HMAC: wrongKey } });
    expect(bad.status).toBe(401);
    // Right key, but the body changed after signing.
    const good = crypto.createHmac('sha512', emu.merchantKey).update(body).digest('hex');
    const tampered = await server.raw('POST', '/api/v2/payments/webhooks/oxapay', { body: body.replace('"amount":20', '"amount":20.0'), headers: { 'content-type': 'application/json', HMAC: good } });
    expect(tampered.status).toBe(401);
    const row = await txRow(server, d.transaction_id);
    expect(row.status).toBe('pending');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(0);
    // The same body with the right signature is accepted (the refusals were about the signature).
    const ok = await server.raw('POST', '/api/v2/payments/webhooks/oxapay', { body, headers: { 'content-type': 'application/json', HMAC: good } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('ok');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(2000);
  });

  it('recovers a lost webhook by reconciliation, once', async () => {
    const u = await newUser(server);
    const d = await linkDeposit(u, 30);
    const p = emu.paymentByOrder(d.transaction_id)!;
    expect(await emu.pay(p.track_id, { drop: true })).toBeNull();
    expect((await txRow(server, d.transaction_id)).status).toBe('pending');
    const report = await payments(server).reconcile(0);
    expect(report.changed).toBeGreaterThanOrEqual(1);
    expect((await txRow(server, d.transaction_id)).status).toBe('approved');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(3000);
    // Another reconciliation, then the webhook OxaPay retries after all: nothing more.
    await payments(server).reconcile(0);
    const body = JSON.stringify({ track_id: p.track_id, status: 'paid', type: 'invoice', amount: 30, currency: 'USD', order_id: String(d.transaction_id) });
    const { createHmac } = await import('node:crypto');
    const late = await server.raw('POST', '/api/v2/payments/webhooks/oxapay', {
      body,
      headers: { 'content-type': 'application/json', HMAC: createHmac('sha512', emu.merchantKey).update(body).digest('hex') },
    });
    expect(late.status).toBe(200);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(3000);
    expect(await creditCount(d.transaction_id)).toBe(1);
  });

  it('reconciles a payment that confirmed after our window closed, webhook lost: a late payment, credited', async () => {
    const u = await newUser(server);
    const d = await linkDeposit(u, 15);
    const p = emu.paymentByOrder(d.transaction_id)!;
    // Our window closes (the row's expiry moved into the past, then the real sweeper runs).
    await server.ctx.db.updateTable('payment_transactions').set({ expired_at: Date.now() - 1000 }).where('id', '=', d.transaction_id).execute();
    await payments(server).sweep();
    expect((await txRow(server, d.transaction_id)).status).toBe('expired');
    await emu.pay(p.track_id, { drop: true });
    await payments(server).reconcile(0);
    const row = await txRow(server, d.transaction_id);
    expect(row.status).toBe('approved');
    expect(row.error_message).toMatch(/Late payment/);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(1500);
  });

  it('holds an underpaid payment for the operator without crediting', async () => {
    const u = await newUser(server);
    const d = await linkDeposit(u, 60);
    const p = emu.paymentByOrder(d.transaction_id)!;
    const delivery = await emu.underpay(p.track_id);
    expect(delivery).toMatchObject({ status: 200, answer: 'ok' });
    const row = await txRow(server, d.transaction_id);
    expect(row.status).toBe('processing');
    expect(row.error_message).toMatch(/Underpaid/);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(0);
  });

  it('a refused invoice fails the deposit row at once (502), nothing pending', async () => {
    const u = await newUser(server);
    emu.failNext('invoice', 'refuse');
    const r = await deposit(server, u, { amount: 50, currency: 'USD', payment_method_id: 'oxapay_invoice', payment_system: 'crypto', client_request_id: 'refused-1' });
    expect(r.status).toBe(502);
    const rows = await server.ctx.db.selectFrom('payment_transactions').selectAll().where('user_id', '=', u.userId).execute();
    expect(rows.map((x) => x.status)).toEqual(['failed']);
  });

  it('an invoice call that times out answers 504 with a clear text and fails the row', async () => {
    const u = await newUser(server);
    emu.failNext('invoice', 'hang');
    const started = Date.now();
    const r = await deposit(server, u, { amount: 50, currency: 'USD', payment_method_id: 'oxapay_invoice', payment_system: 'crypto' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.status).toBe(504);
    expect(r.body.error_message ?? r.body.error).toMatch(/not answering/);
    const rows = await server.ctx.db.selectFrom('payment_transactions').selectAll().where('user_id', '=', u.userId).execute();
    expect(rows.map((x) => x.status)).toEqual(['failed']);
  });
});

describe('deposit by white-label address', () => {
  it('shows the OxaPay address and credits once on the signed webhook', async () => {
    const u = await newUser(server);
    const d = await addressDeposit(u, 40);
    const p = emu.paymentByOrder(d.transaction_id)!;
    expect(p).toMatchObject({ type: 'white-label', pay_currency: 'USDT', currency: 'USDT', network: 'TRC20', callback_url: `${server.baseUrl}/api/v2/payments/webhooks/crypto` });
    expect(d.integration_data).toMatchObject({ crypto_wallet_address: p.address, crypto_network: 'TRC20', currency: 'USDT' });
    expect(d.integration_data.qr_code).toMatch(/^data:image\/png;base64,/);
    expect(await emu.pay(p.track_id)).toMatchObject({ status: 200, answer: 'ok' });
    expect(await emu.replay(p.track_id)).toMatchObject({ status: 200, answer: 'ok' });
    expect((await txRow(server, d.transaction_id)).status).toBe('approved');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(4000);
    expect(await creditCount(d.transaction_id)).toBe(1);
  });

  it('a webhook for the address signed with the sandbox scheme is refused', async () => {
    const u = await newUser(server);
    const d = await addressDeposit(u, 40);
    const p = emu.paymentByOrder(d.transaction_id)!;
    const body = JSON.stringify({ track_id: p.track_id, status: 'paid', amount: 40, currency: 'USDT', order_id: String(d.transaction_id) });
    const r = await server.raw('POST', '/api/v2/payments/webhooks/crypto', { body, headers: { 'content-type': 'application/json', 'x-signature': 'ab'.repeat(32) } });
    expect(r.status).toBe(401);
    expect((await txRow(server, d.transaction_id)).status).toBe('pending');
  });
});

describe('payouts', () => {
  const withdraw = (u: TestUser, amount: number, extra: Record<string, unknown> = {}) =>
    server.api(
      'POST',
      '/api/v2/transactions/withdrawal',
      { amount, currency: 'USD', account_type: 'real', payment_method_id: 'oxapay_usdt_trc20', payment_details: { requisites: 'TXYZ1234567890abcdefABCDEF12345678' }, ...extra },
      u.token,
    );

  it('a payout that succeeds: held, sent to OxaPay, confirmed by the signed payout webhook, paid once', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 100);
    const r = await withdraw(u, 30);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = r.body.data.transaction_id;
    expect(r.body.data.status).toBe('processing');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(7000);
    expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(3000);
    const row = await txRow(server, id);
    const payout = emu.payouts.get(row.invoice_id!)!;
    expect(payout).toMatchObject({ address: 'TXYZ1234567890abcdefABCDEF12345678', currency: 'USDT', amount: 30, network: 'TRC20', callback_url: `${server.baseUrl}/api/v2/payments/webhooks/oxapay/payout` });

    expect(await emu.confirmPayout(payout.track_id)).toMatchObject({ status: 200, answer: 'ok' });
    expect(await emu.replay(payout.track_id)).toMatchObject({ status: 200, answer: 'ok' });
    expect((await txRow(server, id)).status).toBe('approved');
    expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(0);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(7000);
    const payouts = await server.ctx.db.selectFrom('ledger_transactions').select('id').where('idempotency_key', '=', `withdrawal:${id}:payout`).execute();
    expect(payouts).toHaveLength(1);
  });

  it('a payout webhook signed with the merchant key is refused', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 100);
    const r = await withdraw(u, 20);
    const row = await txRow(server, r.body.data.transaction_id);
    const crypto = await import('node:crypto');
    const body = JSON.stringify({ track_id: row.invoice_id, status: 'confirmed', type: 'payout', amount: 20, currency: 'USDT' });
    const sig = crypto.createHmac('sha512', emu.merchantKey).update(body).digest('hex');
    const res = await server.raw('POST', '/api/v2/payments/webhooks/oxapay/payout', { body, headers: { 'content-type': 'application/json', HMAC: sig } });
    expect(res.status).toBe(401);
    expect((await txRow(server, row.id)).status).toBe('processing');
  });

  it('a payout that fails at OxaPay releases the hold', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 100);
    const r = await withdraw(u, 25);
    const id = r.body.data.transaction_id;
    const row = await txRow(server, id);
    expect(await emu.rejectPayout(row.invoice_id!)).toMatchObject({ status: 200, answer: 'ok' });
    const after = await txRow(server, id);
    expect(after.status).toBe('failed');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(10000);
    expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(0);
  });

  it('a payout refused when asked: 502 with a clear text, the hold released at once', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 100);
    emu.failNext('payout', 'refuse');
    const r = await withdraw(u, 25);
    expect(r.status).toBe(502);
    expect(r.body.error_message ?? r.body.error).toMatch(/refused the payout/);
    const rows = await server.ctx.db.selectFrom('payment_transactions').selectAll().where('user_id', '=', u.userId).where('transaction_type', '=', 'withdrawal').execute();
    expect(rows.map((x) => x.status)).toEqual(['failed']);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(10000);
    expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(0);
  });

  it('a payout call without an answer keeps the hold for the operator (outcome unknown)', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 100);
    emu.failNext('payout', 'hang');
    const r = await withdraw(u, 15);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const row = await txRow(server, r.body.data.transaction_id);
    expect(row.status).toBe('processing');
    expect(row.error_message).toMatch(/did not confirm the payout in time/);
    expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(1500);
    // The operator checked OxaPay's history: nothing was sent; rejecting releases the hold.
    const outcome = await payments(server).reject(row.id, 'Not sent by OxaPay');
    expect(outcome.changed).toBe(true);
    expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(0);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(10000);
  });

  it('a lost payout webhook: the reconciliation finishes the payout', async () => {
    const u = await newUser(server);
    await fundReal(server, u, 100);
    const r = await withdraw(u, 10);
    const id = r.body.data.transaction_id;
    const row = await txRow(server, id);
    await emu.confirmPayout(row.invoice_id!, { drop: true });
    expect((await txRow(server, id)).status).toBe('processing');
    await payments(server).reconcile(0);
    await waitFor(async () => (await txRow(server, id)).status === 'approved');
    expect(await balance(server, u.userId, 'USD', 'real_hold')).toBe(0);
  });
});
