/**
 * Money, the three providers end to end over real HTTP and socket.io: the method catalogue,
 * manual requisites (confirm + operator approval through the CLI process), the crypto address
 * with the simulated chain's signed callback, the payment link with the sandbox checkout, and
 * the webhooks' defences (signatures over the raw body, duplicates, foreign invoices, wrong
 * amounts). The ledger audits clean after every scenario.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sumsInMinor } from '../../contract/payments';
import { nextEvent, type TestServer } from '../support/server';
import { auditLedgerAfterEach } from '../support/ledger-audit';
import {
  admin,
  balance,
  deposit,
  expectAuditClean,
  newUser,
  payments,
  signCrypto,
  signOxapay,
  startMoneyServer,
  txRow,
  oxapayHeaders,
  userSocket,
  waitFor,
  type TestUser,
} from './payments-support';

let server: TestServer;
beforeAll(async () => {
  server = await startMoneyServer({ CRYPTO_CONFIRM_DELAY_SECONDS: '1' });
});
afterAll(async () => {
  await server.close();
});
// The ledger audit after every test, and the real `audit` command when the server closes.
auditLedgerAfterEach(() => server);

const ledgerTxCount = async (key: string) =>
  (await server.ctx.db.selectFrom('ledger_transactions').select('id').where('idempotency_key', '=', key).execute()).length;

describe('payment methods', () => {
  it('lists the seeded catalogue over HTTP, filtered by currency and direction', async () => {
    const u = await newUser(server);
    const all = await server.api('GET', '/api/v2/payments/methods', undefined, u.token);
    expect(all.status).toBe(200);
    const ids = all.body.data.payment_systems.map((m: { id: string }) => m.id);
    expect(ids).toEqual(['card_visa_mastercard', 'bank_transfer_sepa', 'usdt_trc20', 'btc', 'oxapay_crypto']);
    const card = all.body.data.payment_systems[0];
    expect(card).toMatchObject({
      category: 'cards',
      country_code: 'ALL',
      currency_code: 'ALL',
      supports_all_currencies: true,
      integration_type: 'manual',
      available_sums: { min: 10, max: 5000, currency: 'USD' },
      avatar_url: 'visa_mastercard.svg',
    });

    const usd = await server.api('GET', '/api/v2/payments/methods?currency=USD', undefined, u.token);
    expect(usd.body.data.payment_systems.map((m: { id: string }) => m.id)).not.toContain('bank_transfer_sepa');
    const eur = await server.api('GET', '/api/v2/payments/methods?currency=eur', undefined, u.token);
    const eurCard = eur.body.data.payment_systems.find((m: { id: string }) => m.id === 'card_visa_mastercard');
    // 10..5000 USD at the market's EUR/USD (sent along), as round figures inside the range.
    const rates = eur.body.data.rates;
    expect(rates.EUR).toMatchObject({ source: 'pair', pair: 'EUR/USD' });
    const sums = sumsInMinor({ currency_code: 'ALL', supports_all_currencies: true, available_sums: { min: 10, max: 5000, currency: 'USD' } }, 'EUR', rates)!;
    expect(eurCard.available_sums).toEqual({ min: sums.min / 100, max: sums.max / 100, currency: 'EUR' });
    expect(sums.min).toBeGreaterThanOrEqual(10 * rates.EUR.per_usd * 100);
    expect(sums.max).toBeLessThanOrEqual(5000 * rates.EUR.per_usd * 100);
    expect(eur.body.data.payment_systems.find((m: { id: string }) => m.id === 'bank_transfer_sepa').available_sums).toEqual({
      min: 50,
      max: 20000,
      currency: 'EUR',
    });

    const out = await server.api('GET', '/api/v2/payments/methods?direction=withdrawal', undefined, u.token);
    const outIds = out.body.data.payment_systems.map((m: { id: string }) => m.id);
    expect(outIds).not.toContain('oxapay_crypto');
    expect(outIds).toContain('usdt_trc20');

    expect((await server.api('GET', '/api/v2/payments/methods?currency=XXX', undefined, u.token)).status).toBe(400);
    expect((await server.api('GET', '/api/v2/payments/methods?direction=sideways', undefined, u.token)).status).toBe(400);
    expect((await server.api('GET', '/api/v2/payments/methods')).status).toBe(401);
  });

  it('answers get_payment_methods on the socket, with the link marked withdraw-disabled', async () => {
    const s = await server.socket();
    const all = nextEvent(s, 'init_payment_systems');
    s.emit('get_payment_methods');
    const payload = await all;
    const link = payload.payment_systems.find((m: { id: string }) => m.id === 'oxapay_crypto');
    expect(link).toMatchObject({ integration_type: 'oxapay_link', withdraw_enabled: false, deposit_enabled: true });

    const filtered = nextEvent(s, 'init_payment_systems');
    s.emit('get_payment_methods', { currency: 'EUR' });
    const eur = await filtered;
    expect(eur.payment_systems.some((m: { id: string }) => m.id === 'bank_transfer_sepa')).toBe(true);
    expect(eur.payment_systems.every((m: { available_sums: { currency: string } }) => m.available_sums.currency === 'EUR')).toBe(true);

    const bad = nextEvent(s, 'error_message');
    s.emit('get_payment_methods', { currency: 42 });
    expect(await bad).toEqual({ event: 'get_payment_methods', message: 'Invalid payload' });
  });

  it('serves an image for every seeded method and a default one', async () => {
    const u = await newUser(server);
    const all = await server.api('GET', '/api/v2/payments/methods', undefined, u.token);
    for (const file of [...all.body.data.payment_systems.map((m: { avatar_url: string }) => m.avatar_url), 'default.svg']) {
      const res = await server.raw('GET', `/payment_methods/${file}`);
      expect(res.status, file).toBe(200);
      expect(await res.text()).toContain('<svg');
    }
  });
});

describe('manual requisites', () => {
  it('deposit -> payer confirms -> operator approves with the CLI -> credited and pushed', async () => {
    const u = await newUser(server);
    const s = await userSocket(server, u.token);
    const created = await deposit(server, u, { amount: 150.5, currency: 'USD', payment_method_id: 'card_visa_mastercard', payment_system: 'cards' });
    expect(created.status).toBe(201);
    const d = created.body.data;
    expect(d).toMatchObject({ status: 'pending', currency: 'USD', integration_type: 'manual', integration_data: null, payment_url: null });
    expect(d.transaction.requisit).toEqual({ card_number: '4000 0012 3456 7899', cardholder_name: 'TRADETERMINAL LTD' });
    const nowS = Math.floor(Date.now() / 1000);
    expect(d.transaction.expired_at).toBeGreaterThanOrEqual(nowS + 29 * 60);
    expect(d.transaction.expired_at).toBeLessThanOrEqual(nowS + 31 * 60);

    const processing = nextEvent(s, 'payment_status_update', 5000, (p: any) => p.transaction.id === d.transaction_id);
    const confirmed = await server.api('POST', '/api/v2/payments/deposit/confirmation', { transaction_id: d.transaction_id }, u.token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.status).toBe(true);
    expect(confirmed.body.data.transaction.approval_status).toBe('processing');
    expect((await processing).transaction).toEqual({ id: d.transaction_id, status: 'processing', transaction_type: 'deposit' });
    // Confirming again is harmless.
    expect((await server.api('POST', '/api/v2/payments/deposit/confirmation', { transaction_id: String(d.transaction_id) }, u.token)).status).toBe(200);

    const approved = nextEvent(s, 'payment_status_update', 15_000, (p: any) => p.transaction.status === 'approved');
    const balances = nextEvent(s, 'update_balances', 15_000, (p: any) => p.balances.USD?.RealBalance === 150.5);
    const cli = await admin(server, 'tx', 'approve', String(d.transaction_id));
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/^Approved: #\d+/);
    expect((await approved).transaction).toEqual({ id: d.transaction_id, status: 'approved', transaction_type: 'deposit' });
    await balances;
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(15050);

    const tx = await server.api('GET', `/api/v2/transactions/${d.transaction_id}`, undefined, u.token);
    expect(tx.body.data.transaction).toMatchObject({ approval_status: 'approved', balance_before: 0, balance_after: 150.5, amount: 150.5, final_amount: 150.5 });

    // The CLI twice credits once; the audit command agrees.
    const again = await admin(server, 'tx', 'approve', String(d.transaction_id));
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Already done/);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(15050);
    const audit = await admin(server, 'audit');
    expect(audit.code).toBe(0);
    expect(audit.stdout).toMatch(/^Ledger OK: \d+ balances match their entries/);
  });

  it('shows a bank transfer its IBAN, and the operator can reject with a reason', async () => {
    const u = await newUser(server, 'EUR');
    const s = await userSocket(server, u.token);
    const created = await deposit(server, u, { amount: '75.00', currency: 'EUR', payment_method_id: 'bank_transfer_sepa' });
    expect(created.status).toBe(201);
    expect(created.body.data.transaction.requisit).toMatchObject({ iban: 'DE89 3704 0044 0532 0130 00', bank_name: 'Commerzbank AG', beneficiary: 'TradeTerminal Ltd' });
    const id = created.body.data.transaction_id;
    const failed = nextEvent(s, 'payment_status_update', 15_000, (p: any) => p.transaction.id === id && p.transaction.status === 'failed');
    const cli = await admin(server, 'tx', 'reject', String(id), '--reason', 'No transfer received');
    expect(cli.code, cli.stderr).toBe(0);
    await failed;
    const row = await txRow(server, id);
    expect(row.status).toBe('failed');
    expect(row.error_message).toBe('No transfer received');
    expect(await balance(server, u.userId, 'EUR', 'real')).toBe(0);
    // A failed deposit can no longer be approved or confirmed.
    const late = await admin(server, 'tx', 'approve', String(id));
    expect(late.code).toBe(1);
    expect(late.stderr).toContain('cannot be approved');
    expect((await server.api('POST', '/api/v2/payments/deposit/confirmation', { transaction_id: id }, u.token)).status).toBe(409);
  });

  it('lists pending transactions in the CLI and refuses bad arguments', async () => {
    const u = await newUser(server);
    const created = await deposit(server, u, { amount: 20, currency: 'USD', payment_method_id: 'card_visa_mastercard' });
    const list = await admin(server, 'tx', 'list', '--status', 'pending');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`#${created.body.data.transaction_id} `);
    expect((await admin(server, 'tx', 'approve', 'abc')).code).toBe(2);
    expect((await admin(server, 'tx', 'list', '--status', 'weird')).code).toBe(2);
    expect((await admin(server, 'tx', 'approve', '999999')).code).toBe(1);
    await payments(server).reject(created.body.data.transaction_id);
  });

  it('expires an unconfirmed manual deposit after its window', async () => {
    const u = await newUser(server);
    const s = await userSocket(server, u.token);
    const created = await deposit(server, u, { amount: 30, currency: 'USD', payment_method_id: 'card_visa_mastercard' });
    const id = created.body.data.transaction_id;
    await server.ctx.db.updateTable('payment_transactions').set({ expired_at: Date.now() - 1000 }).where('id', '=', id).execute();
    // Past the window it cannot be confirmed even before the sweeper ran.
    expect((await server.api('POST', '/api/v2/payments/deposit/confirmation', { transaction_id: id }, u.token)).status).toBe(409);
    const expired = nextEvent(s, 'payment_status_update', 5000, (p: any) => p.transaction.id === id);
    await payments(server).sweep();
    expect((await expired).transaction.status).toBe('expired');
    expect((await txRow(server, id)).status).toBe('expired');
  });

  it('confirms only the owner\'s manual deposits', async () => {
    const a = await newUser(server);
    const b = await newUser(server);
    const created = await deposit(server, a, { amount: 40, currency: 'USD', payment_method_id: 'card_visa_mastercard' });
    const id = created.body.data.transaction_id;
    const foreign = await server.api('POST', '/api/v2/payments/deposit/confirmation', { transaction_id: id }, b.token);
    expect(foreign.status).toBe(404);
    expect((await txRow(server, id)).status).toBe('pending');
    const link = await deposit(server, a, { amount: 40, currency: 'USD', payment_method_id: 'oxapay_crypto' });
    expect((await server.api('POST', '/api/v2/payments/deposit/confirmation', { transaction_id: link.body.data.transaction_id }, a.token)).status).toBe(400);
    expect((await server.api('POST', '/api/v2/payments/deposit/confirmation', { transaction_id: 'x' }, a.token)).status).toBe(400);
    expect((await server.api('POST', '/api/v2/payments/deposit/confirmation', {}, a.token)).status).toBe(400);
  });
});

describe('crypto address (white-label) on the simulated chain', () => {
  it('shows an address, network and QR code, and credits after the signed chain callback', async () => {
    const u = await newUser(server);
    const s = await userSocket(server, u.token);
    const created = await deposit(server, u, { amount: 250, currency: 'USD', payment_method_id: 'usdt_trc20' });
    expect(created.status).toBe(201);
    const d = created.body.data;
    expect(d.integration_data).toMatchObject({ amount: 250, currency: 'USDT', crypto_network: 'TRC20', payment_url: null });
    expect(d.integration_data.crypto_wallet_address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(d.integration_data.qr_code).toMatch(/^data:image\/png;base64,/);
    const approved = await nextEvent(s, 'payment_status_update', 15_000, (p: any) => p.transaction.id === d.transaction_id);
    expect(approved.transaction.status).toBe('approved');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(25000);
    const tx = (await server.api('GET', `/api/v2/transactions/${d.transaction_id}`, undefined, u.token)).body.data.transaction;
    expect(tx.crypto_transaction_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(tx.crypto_wallet_address).toBe(d.integration_data.crypto_wallet_address);
    expect(tx.balance_after).toBe(250);
  });

  it('pays a Bitcoin deposit in BTC converted at the rate, to a bech32 address', async () => {
    const u = await newUser(server, 'EUR');
    const created = await deposit(server, u, { amount: 92, currency: 'EUR', payment_method_id: 'btc' });
    expect(created.status).toBe(201);
    const d = created.body.data;
    // 92 EUR at EUR/USD and BTC/USD, the market's prices (not the configured 0.00155 BTC).
    const market = server.ctx.services.market;
    const expected = (92 * market.latestTick('EURUSD')!.price) / market.latestTick('BTCUSD')!.price;
    expect(Math.abs(d.amount_payment_currency / expected - 1)).toBeLessThan(0.001);
    expect(d.integration_data.crypto_wallet_address).toMatch(/^bc1q[02-9ac-hj-np-z]{38}$/);
    const row = await txRow(server, d.transaction_id);
    const signed = signCrypto(server, {
      event_id: 'evt-btc-1',
      order_id: String(d.transaction_id),
      address: row.crypto_wallet_address,
      network: 'Bitcoin',
      currency: 'BTC',
      amount: d.amount_payment_currency.toFixed(8),
      tx_hash: crypto.randomBytes(32).toString('hex'),
      confirmations: 2,
      status: 'confirmed',
    });
    const res = await server.raw('POST', '/api/v2/payments/webhooks/crypto', signed);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
    expect(await balance(server, u.userId, 'EUR', 'real')).toBe(9200);
  });

  it('pays only the latest address: a deposit superseded by a newer one of the same user stays unpaid', async () => {
    const u = await newUser(server);
    const other = await newUser(server);
    // The payer asks for an address, goes Back and asks again (another amount, then another coin).
    const first = (await deposit(server, u, { amount: 100, currency: 'USD', payment_method_id: 'usdt_trc20' })).body.data;
    const second = (await deposit(server, u, { amount: 120, currency: 'USD', payment_method_id: 'usdt_trc20' })).body.data;
    const third = (await deposit(server, u, { amount: 20, currency: 'USD', payment_method_id: 'btc' })).body.data;
    // Another user's deposit at the same time is not affected.
    const theirs = (await deposit(server, other, { amount: 50, currency: 'USD', payment_method_id: 'usdt_trc20' })).body.data;
    await waitFor(async () => (await txRow(server, third.transaction_id)).status === 'approved' && (await txRow(server, theirs.transaction_id)).status === 'approved', 15_000);
    // Past every one's confirmation time (1 s) with room to spare: the superseded ones stay pending.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await txRow(server, first.transaction_id)).status).toBe('pending');
    expect((await txRow(server, second.transaction_id)).status).toBe('pending');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(2000);
    expect(await balance(server, other.userId, 'USD', 'real')).toBe(5000);
    // They expire at the end of their window like any unpaid deposit.
    await payments(server).reject(first.transaction_id);
    await payments(server).reject(second.transaction_id);
  });

  it('reschedules pending chain confirmations when the server restarts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-pay-restart-'));
    try {
      const first = await startMoneyServer({ CRYPTO_CONFIRM_DELAY_SECONDS: '2', DATA_DIR: dataDir });
      const u = await newUser(first);
      const created = await deposit(first, u, { amount: 50, currency: 'USD', payment_method_id: 'usdt_trc20' });
      const id = created.body.data.transaction_id;
      // Stopped before the chain confirms: the timer dies with this server.
      await first.close();
      const second = await startMoneyServer({ CRYPTO_CONFIRM_DELAY_SECONDS: '2', DATA_DIR: dataDir });
      try {
        await waitFor(async () => (await txRow(second, id)).status === 'approved', 15_000);
        expect(await balance(second, u.userId, 'USD', 'real')).toBe(5000);
        await expectAuditClean(second);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** The Pay/Cancel form token of a sandbox checkout page. */
function formToken(html: string): string {
  const m = /name="token" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no token in the checkout page');
  return m[1];
}

async function linkDeposit(u: TestUser, amount = 120) {
  const created = await deposit(server, u, { amount, currency: 'USD', payment_method_id: 'oxapay_crypto' });
  expect(created.status).toBe(201);
  return created.body.data;
}

const form = (token: string) => ({ body: new URLSearchParams({ token }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });

describe('payment link (OxaPay-style) with the sandbox checkout', () => {
  it('checkout page -> Pay -> signed callback -> credited', async () => {
    const u = await newUser(server);
    const s = await userSocket(server, u.token);
    const d = await linkDeposit(u, 120);
    expect(d.payment_url).toBe(`${server.baseUrl}/checkout/sandbox/${d.invoice_id}`);
    expect(d.integration_data).toMatchObject({ payment_url: d.payment_url, amount: 120, currency: 'USD', qr_code: null });

    const page = await server.raw('GET', new URL(d.payment_url).pathname);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('120.00 USD');
    expect(html).not.toContain('<script');

    const approved = nextEvent(s, 'payment_status_update', 10_000, (p: any) => p.transaction.id === d.transaction_id);
    const paid = await server.raw('POST', `/checkout/sandbox/${d.invoice_id}/pay`, form(formToken(html)));
    expect(paid.status).toBe(200);
    const result = await paid.text();
    expect(result).toContain('Payment complete');
    expect(result).toContain(`${server.baseUrl}/trading`);
    expect((await approved).transaction.status).toBe('approved');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(12000);
    const row = await txRow(server, d.transaction_id);
    expect(row.status).toBe('approved');
    expect(row.crypto_transaction_hash).toMatch(/^[0-9a-f]{64}$/);

    // The invoice is closed: paying again sends nothing and credits nothing.
    const again = await server.raw('POST', `/checkout/sandbox/${d.invoice_id}/pay`, form(formToken(html)));
    expect(again.status).toBe(409);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(12000);
  });

  it('Cancel cancels the deposit and credits nothing', async () => {
    const u = await newUser(server);
    const s = await userSocket(server, u.token);
    const d = await linkDeposit(u, 60);
    const html = await (await server.raw('GET', `/checkout/sandbox/${d.invoice_id}`)).text();
    const pushed = nextEvent(s, 'payment_status_update', 5000, (p: any) => p.transaction.id === d.transaction_id);
    const cancelled = await server.raw('POST', `/checkout/sandbox/${d.invoice_id}/cancel`, form(formToken(html)));
    expect(cancelled.status).toBe(200);
    expect(await cancelled.text()).toContain('Payment cancelled');
    expect((await pushed).transaction).toEqual({ id: d.transaction_id, status: 'cancelled', transaction_type: 'deposit' });
    const row = await txRow(server, d.transaction_id);
    expect(row.status).toBe('cancelled');
    expect(row.error_message).toBe('Payment cancelled');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(0);
    // The invoice is closed for the payer.
    expect((await server.raw('POST', `/checkout/sandbox/${d.invoice_id}/pay`, form(formToken(html)))).status).toBe(409);
  });

  it('refuses a form post without the invoice token (CSRF) and unknown invoices', async () => {
    const u = await newUser(server);
    const d = await linkDeposit(u, 60);
    const forged = await server.raw('POST', `/checkout/sandbox/${d.invoice_id}/pay`, form('not-the-token'));
    expect(forged.status).toBe(403);
    const missing = await server.raw('POST', `/checkout/sandbox/${d.invoice_id}/pay`, form(''));
    expect(missing.status).toBe(400);
    expect((await txRow(server, d.transaction_id)).status).toBe('pending');
    expect((await server.raw('GET', '/checkout/sandbox/ffffffffffffffffffffffff')).status).toBe(404);
    expect((await server.raw('GET', '/checkout/sandbox/bad%20id')).status).toBe(400);
    await payments(server).reject(d.transaction_id);
  });
});

describe('webhook defences', () => {
  async function paidPayload(u: TestUser) {
    const d = await linkDeposit(u, 80);
    return {
      d,
      payload: { track_id: d.invoice_id, status: 'Paid', type: 'invoice', amount: 80, currency: 'USD', order_id: String(d.transaction_id), date: 1 },
    };
  }

  it('rejects unsigned, wrongly signed and re-signed-for-another-body callbacks with 401 and changes nothing', async () => {
    const u = await newUser(server);
    const { d, payload } = await paidPayload(u);
    const signed = signOxapay(server, payload);
    const unsigned = await server.raw('POST', '/api/v2/payments/webhooks/oxapay', { body: signed.body, headers: { 'content-type': 'application/json' } });
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ success: false, data: null, error: 'Invalid signature', error_message: 'Invalid signature' });
    const wrong = await server.raw('POST', '/api/v2/payments/webhooks/oxapay', {
      body: signed.body,
      headers: { 'content-type': 'application/json', hmac: 'ab'.repeat(64) },
    });
    expect(wrong.status).toBe(401);
    // A valid signature of another body (here: the same JSON re-spaced) does not cover this one.
    const otherBody = JSON.stringify(payload, null, 1);
    const moved = await server.raw('POST', '/api/v2/payments/webhooks/oxapay', { body: otherBody, headers: signed.headers });
    expect(moved.status).toBe(401);
    // The crypto endpoint with the payment-link signature (another key, another algorithm).
    const crossed = await server.raw('POST', '/api/v2/payments/webhooks/crypto', signed);
    expect(crossed.status).toBe(401);
    expect((await txRow(server, d.transaction_id)).status).toBe('pending');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(0);
    await payments(server).reject(d.transaction_id);
  });

  it('credits a callback delivered twice once', async () => {
    const u = await newUser(server);
    const { d, payload } = await paidPayload(u);
    const signed = signOxapay(server, payload);
    const [one, two] = await Promise.all([
      server.raw('POST', '/api/v2/payments/webhooks/oxapay', signed),
      server.raw('POST', '/api/v2/payments/webhooks/oxapay', signed),
    ]);
    expect([one.status, two.status]).toEqual([200, 200]);
    const three = await server.raw('POST', '/api/v2/payments/webhooks/oxapay', signed);
    expect(three.status).toBe(200);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(8000);
    expect(await ledgerTxCount(`deposit:${d.transaction_id}:credit`)).toBe(1);
  });

  it('rejects a callback naming another user\'s transaction, a wrong amount or currency, or an unknown invoice', async () => {
    const a = await newUser(server);
    const b = await newUser(server);
    const { d, payload } = await paidPayload(a);
    const other = await linkDeposit(b, 80);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...payload, order_id: String(other.transaction_id) }, 400, 'Invoice does not belong to this transaction'],
      [{ ...payload, amount: 80.01 }, 400, 'Amount does not match the transaction'],
      [{ ...payload, amount: '8000' }, 400, 'Amount does not match the transaction'],
      [{ ...payload, currency: 'EUR' }, 400, 'Currency does not match the transaction'],
      [{ ...payload, track_id: 'unknown-invoice' }, 404, 'Unknown invoice'],
      [{ ...payload, status: 'Exploded' }, 400, 'Unknown status'],
      [{ ...payload, amount: -80 }, 400, 'amount must be a decimal number'],
    ];
    for (const [body, status, message] of cases) {
      const res = await server.raw('POST', '/api/v2/payments/webhooks/oxapay', signOxapay(server, body));
      expect(res.status, message).toBe(status);
      expect((await res.json()).error_message).toBe(message);
    }
    // A correct signature over a body that is not JSON: authentic but unreadable -> 400.
    const bad = await server.raw('POST', '/api/v2/payments/webhooks/oxapay', { body: '{"track_id":', headers: oxapayHeaders(server, '{"track_id":') });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error_message).toBe('Malformed JSON body');
    expect((await txRow(server, d.transaction_id)).status).toBe('pending');
    expect((await txRow(server, other.transaction_id)).status).toBe('pending');
    expect(await balance(server, a.userId, 'USD', 'real')).toBe(0);
    expect(await balance(server, b.userId, 'USD', 'real')).toBe(0);
    await payments(server).reject(d.transaction_id);
    await payments(server).reject(other.transaction_id);
  });

  it('maps expired, cancelled and failed invoice callbacks to those statuses, and keeps a paying one processing', async () => {
    const u = await newUser(server);
    const { d: d1, payload: p1 } = await paidPayload(u);
    expect((await server.raw('POST', '/api/v2/payments/webhooks/oxapay', signOxapay(server, { ...p1, status: 'Paying' }))).status).toBe(200);
    expect((await txRow(server, d1.transaction_id)).status).toBe('processing');
    expect((await server.raw('POST', '/api/v2/payments/webhooks/oxapay', signOxapay(server, { ...p1, status: 'Expired' }))).status).toBe(200);
    expect(await txRow(server, d1.transaction_id)).toMatchObject({ status: 'expired', error_message: 'Payment expired' });
    const { d: d2, payload: p2 } = await paidPayload(u);
    expect((await server.raw('POST', '/api/v2/payments/webhooks/oxapay', signOxapay(server, { ...p2, status: 'Canceled' }))).status).toBe(200);
    expect(await txRow(server, d2.transaction_id)).toMatchObject({ status: 'cancelled', error_message: 'Payment cancelled' });
    const { d: d3, payload: p3 } = await paidPayload(u);
    expect((await server.raw('POST', '/api/v2/payments/webhooks/oxapay', signOxapay(server, { ...p3, status: 'Failed' }))).status).toBe(200);
    expect(await txRow(server, d3.transaction_id)).toMatchObject({ status: 'failed', error_message: 'Payment failed' });
    // A later failure report does not reopen or change a closed deposit.
    expect((await server.raw('POST', '/api/v2/payments/webhooks/oxapay', signOxapay(server, { ...p1, status: 'Failed' }))).status).toBe(200);
    expect((await txRow(server, d1.transaction_id)).status).toBe('expired');
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(0);
  });

  it('defends the crypto webhook the same way', async () => {
    // A server whose simulated chain stays quiet, so only this test's callbacks arrive.
    const quiet = await startMoneyServer();
    try {
      const u = await newUser(quiet);
      const created = await deposit(quiet, u, { amount: 40, currency: 'USD', payment_method_id: 'usdt_trc20' });
      const row = await txRow(quiet, created.body.data.transaction_id);
      const base = {
        event_id: 'evt-1',
        order_id: String(row.id),
        address: row.crypto_wallet_address,
        network: 'TRC20',
        currency: 'USDT',
        amount: '40',
        tx_hash: crypto.randomBytes(32).toString('hex'),
        confirmations: 20,
        status: 'confirmed',
      };
      const short = signCrypto(quiet, { ...base, amount: '39.99' });
      expect((await quiet.raw('POST', '/api/v2/payments/webhooks/crypto', short)).status).toBe(400);
      expect((await quiet.raw('POST', '/api/v2/payments/webhooks/crypto', signCrypto(quiet, { ...base, currency: 'BTC' }))).status).toBe(400);
      expect((await quiet.raw('POST', '/api/v2/payments/webhooks/crypto', signCrypto(quiet, { ...base, order_id: '999999' }))).status).toBe(400);
      expect((await quiet.raw('POST', '/api/v2/payments/webhooks/crypto', signCrypto(quiet, { ...base, tx_hash: 'nothex' }))).status).toBe(400);
      expect((await quiet.raw('POST', '/api/v2/payments/webhooks/crypto', { body: short.body, headers: { 'content-type': 'application/json' } })).status).toBe(401);
      expect((await quiet.raw('POST', '/api/v2/payments/webhooks/crypto', { body: short.body, headers: { ...short.headers, 'x-signature': 'zz' } })).status).toBe(401);
      expect((await txRow(quiet, row.id)).status).toBe('pending');

      const good = signCrypto(quiet, base);
      const results = await Promise.all([1, 2, 3].map(() => quiet.raw('POST', '/api/v2/payments/webhooks/crypto', good)));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(await balance(quiet, u.userId, 'USD', 'real')).toBe(4000);
      const credits = await quiet.ctx.db.selectFrom('ledger_transactions').select('id').where('idempotency_key', '=', `deposit:${row.id}:credit`).execute();
      expect(credits).toHaveLength(1);

      // The same on-chain transfer cannot pay a second deposit.
      const second = await deposit(quiet, u, { amount: 40, currency: 'USD', payment_method_id: 'usdt_trc20' });
      const row2 = await txRow(quiet, second.body.data.transaction_id);
      const reused = signCrypto(quiet, { ...base, order_id: String(row2.id), address: row2.crypto_wallet_address });
      expect((await quiet.raw('POST', '/api/v2/payments/webhooks/crypto', reused)).status).toBe(409);
      expect((await txRow(quiet, row2.id)).status).toBe('pending');
      expect(await balance(quiet, u.userId, 'USD', 'real')).toBe(4000);
      // A transfer reported as failed fails the deposit.
      const failed = signCrypto(quiet, { ...base, order_id: String(row2.id), address: row2.crypto_wallet_address, tx_hash: crypto.randomBytes(32).toString('hex'), status: 'failed' });
      expect((await quiet.raw('POST', '/api/v2/payments/webhooks/crypto', failed)).status).toBe(200);
      expect((await txRow(quiet, row2.id)).status).toBe('failed');
      await expectAuditClean(quiet);
    } finally {
      await quiet.close();
    }
  });
});


describe('late payments (a payment confirmed after the deposit closed)', () => {
  const late = (status: string) => ({ track_id: '', status, type: 'invoice', amount: 80, currency: 'USD', order_id: '', date: 1, txs: [{ tx_hash: crypto.randomBytes(32).toString('hex') }] });
  async function linkPayload(u: TestUser) {
    const d = await linkDeposit(u, 80);
    return { d, paid: { ...late('Paid'), track_id: d.invoice_id, order_id: String(d.transaction_id) } };
  }
  const send = (payload: unknown) => server.raw('POST', '/api/v2/payments/webhooks/oxapay', signOxapay(server, payload));

  it('credits an expired or cancelled deposit once, with a "Late payment" note, however often the callback comes', async () => {
    const u = await newUser(server);
    const s = await userSocket(server, u.token);
    // Expired locally (the sweeper), then paid.
    const { d: d1, paid: p1 } = await linkPayload(u);
    await server.ctx.db.updateTable('payment_transactions').set({ expired_at: Date.now() - 1000 }).where('id', '=', d1.transaction_id).execute();
    await payments(server).sweep();
    expect((await txRow(server, d1.transaction_id)).status).toBe('expired');
    const approved = nextEvent(s, 'payment_status_update', 5000, (p: any) => p.transaction.id === d1.transaction_id && p.transaction.status === 'approved');
    const deliveries = await Promise.all([send(p1), send(p1)]);
    expect(deliveries.map((r) => r.status)).toEqual([200, 200]);
    await approved;
    expect(await txRow(server, d1.transaction_id)).toMatchObject({
      status: 'approved',
      error_message: 'Late payment: received after the payment window had expired',
      crypto_transaction_hash: p1.txs[0].tx_hash,
      balance_after: 8000,
    });
    // Cancelled at the provider, then paid after all.
    const { d: d2, paid: p2 } = await linkPayload(u);
    expect((await send({ ...p2, status: 'Cancelled', txs: undefined })).status).toBe(200);
    expect((await txRow(server, d2.transaction_id)).status).toBe('cancelled');
    expect((await send(p2)).status).toBe(200);
    expect((await send(p2)).status).toBe(200);
    expect(await txRow(server, d2.transaction_id)).toMatchObject({ status: 'approved', error_message: 'Late payment: received after the payment was cancelled' });
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(16000);
    expect(await ledgerTxCount(`deposit:${d1.transaction_id}:credit`)).toBe(1);
    expect(await ledgerTxCount(`deposit:${d2.transaction_id}:credit`)).toBe(1);
    const listed = (await server.api('GET', `/api/v2/transactions/${d1.transaction_id}`, undefined, u.token)).body.data.transaction;
    expect(listed).toMatchObject({ approval_status: 'approved', error_message: 'Late payment: received after the payment window had expired' });
  });

  it('records a payment for an operator-rejected deposit for review (once), credited only when the operator approves', async () => {
    const u = await newUser(server);
    const s = await userSocket(server, u.token);
    const { d, paid } = await linkPayload(u);
    expect((await admin(server, 'tx', 'reject', String(d.transaction_id), '--reason', 'Suspicious')).code).toBe(0);
    const review = nextEvent(s, 'payment_status_update', 5000, (p: any) => p.transaction.id !== d.transaction_id && p.transaction.status === 'processing');
    const deliveries = await Promise.all([send(paid), send(paid), send(paid)]);
    expect(deliveries.map((r) => r.status)).toEqual([200, 200, 200]);
    const reviewId: number = (await review).transaction.id;
    // The rejected deposit stays rejected and nothing is credited yet.
    expect(await txRow(server, d.transaction_id)).toMatchObject({ status: 'failed', error_message: 'Suspicious' });
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(0);
    const rows = await server.ctx.db.selectFrom('payment_transactions').selectAll().where('user_id', '=', u.userId).orderBy('id').execute();
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      [d.transaction_id, 'failed'],
      [reviewId, 'processing'],
    ]);
    expect(rows[1]).toMatchObject({
      transaction_type: 'deposit',
      client_request_id: `late:${d.transaction_id}`,
      amount: 8000,
      currency: 'USD',
      payment_method_id: 'oxapay_crypto',
      expired_at: null,
    });
    expect(rows[1].error_message).toContain(`Late payment for failed deposit #${d.transaction_id} (transfer ${paid.txs[0].tx_hash})`);

    // The operator sees it.
    const list = await admin(server, 'tx', 'list', '--late-payments');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(`#${reviewId}  LATE PAYMENT, REVIEW  deposit`);
    expect(list.stdout.split('\n').filter((line) => line.startsWith(`#${d.transaction_id} `))).toEqual([]);
    expect((await admin(server, 'tx', 'list', '--status', 'pending')).stdout).toContain(`#${reviewId}  LATE PAYMENT, REVIEW`);

    // A later delivery after the decision still records nothing new; approval credits once.
    const approved = await admin(server, 'tx', 'approve', String(reviewId));
    expect(approved.code, approved.stderr).toBe(0);
    expect((await send(paid)).status).toBe(200);
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(8000);
    expect(await server.ctx.db.selectFrom('payment_transactions').select('id').where('user_id', '=', u.userId).execute()).toHaveLength(2);
  });

  it('records a confirmed transfer to a failed crypto deposit for review too', async () => {
    const quiet = await startMoneyServer();
    try {
      const u = await newUser(quiet);
      const created = await deposit(quiet, u, { amount: 40, currency: 'USD', payment_method_id: 'usdt_trc20' });
      const row = await txRow(quiet, created.body.data.transaction_id);
      const base = {
        event_id: 'evt-late-1',
        order_id: String(row.id),
        address: row.crypto_wallet_address,
        network: 'TRC20',
        currency: 'USDT',
        amount: '40',
        tx_hash: crypto.randomBytes(32).toString('hex'),
        confirmations: 20,
      };
      // Seen on the chain (the hash is stored), reported failed, then confirmed after all.
      expect((await quiet.raw('POST', '/api/v2/payments/webhooks/crypto', signCrypto(quiet, { ...base, status: 'confirming' }))).status).toBe(200);
      expect((await quiet.raw('POST', '/api/v2/payments/webhooks/crypto', signCrypto(quiet, { ...base, status: 'failed' }))).status).toBe(200);
      expect((await txRow(quiet, row.id)).status).toBe('failed');
      for (let i = 0; i < 2; i++) {
        expect((await quiet.raw('POST', '/api/v2/payments/webhooks/crypto', signCrypto(quiet, { ...base, status: 'confirmed' }))).status).toBe(200);
      }
      const reviews = await quiet.ctx.db.selectFrom('payment_transactions').selectAll().where('client_request_id', '=', `late:${row.id}`).execute();
      expect(reviews).toHaveLength(1);
      expect(reviews[0]).toMatchObject({ status: 'processing', amount: 4000, crypto_network: 'TRC20', crypto_wallet_address: null });
      expect(await balance(quiet, u.userId, 'USD', 'real')).toBe(0);
      await payments(quiet).reject(reviews[0].id, 'Returned to the sender');
      await expectAuditClean(quiet);
    } finally {
      await quiet.close();
    }
  });
});
