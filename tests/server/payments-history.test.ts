/**
 * Money over real HTTP: the transactions history (filters, pagination, one transaction, CSV
 * export with injection-safe cells), the demo reset, and every deposit validation rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextEvent, type TestServer } from '../support/server';
import { auditLedgerAfterEach } from '../support/ledger-audit';
import { postLedger, withCounterparty, HOUSE_DEMO_ISSUER } from '../../server/domain/ledger';
import { balance, deposit, fundReal, newUser, payments, startMoneyServer, userSocket, type TestUser } from './payments-support';

let server: TestServer;
beforeAll(async () => {
  server = await startMoneyServer();
});
afterAll(async () => {
  await server.close();
});
// The ledger audit after every test, and the real `audit` command when the server closes.
auditLedgerAfterEach(() => server);

const list = (u: TestUser, query = '') => server.api('GET', `/api/v2/transactions${query}`, undefined, u.token);
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('transactions history', () => {
  let u: TestUser;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    u = await newUser(server);
    await fundReal(server, u, 500); // approved deposit
    const first = await list(u);
    ids.approvedDeposit = first.body.data.transactions[0].id;
    const card = { currency: 'USD', payment_method_id: 'card_visa_mastercard' };
    ids.pendingDeposit = (await deposit(server, u, { ...card, amount: 11 })).body.data.transaction_id;
    ids.processingDeposit = (await deposit(server, u, { ...card, amount: 12 })).body.data.transaction_id;
    await server.api('POST', '/api/v2/payments/deposit/confirmation', { transaction_id: ids.processingDeposit }, u.token);
    ids.failedDeposit = (await deposit(server, u, { currency: 'USD', payment_method_id: 'oxapay_crypto', amount: 13 })).body.data.transaction_id;
    await payments(server).reject(ids.failedDeposit, 'Payment cancelled');
    ids.expiredDeposit = (await deposit(server, u, { ...card, amount: 14 })).body.data.transaction_id;
    await server.ctx.db.updateTable('payment_transactions').set({ expired_at: Date.now() - 1 }).where('id', '=', ids.expiredDeposit).execute();
    await payments(server).sweep();
    const w = (methodId: string, requisites: string, amount: number) =>
      server.api(
        'POST',
        '/api/v2/transactions/withdrawal',
        { amount, currency: 'USD', payment_method_id: methodId, account_type: 'real', payment_details: { requisites, payment_method: 'card' } },
        u.token,
      );
    ids.pendingWithdrawal = (await w('usdt_trc20', '=HYPERLINK("http://evil.example")', 20)).body.data.transaction_id;
    ids.approvedWithdrawal = (await w('card_visa_mastercard', '4111 1111 1111 1111', 30)).body.data.transaction_id;
    await payments(server).approve(ids.approvedWithdrawal);
  });

  it('lists newest first with the spec fields and pagination', async () => {
    const r = await list(u);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const txs = r.body.data.transactions;
    expect(txs.map((t: { id: number }) => t.id)).toEqual(Object.values(ids).sort((a, b) => b - a));
    expect(r.body.data.pagination).toEqual({ page: 1, limit: 10, total_count: 7, total_pages: 1 });
    const approved = txs.find((t: { id: number }) => t.id === ids.approvedDeposit);
    expect(approved).toMatchObject({
      transaction_type: 'deposit',
      type: 'deposit',
      approval_status: 'approved',
      method: 'Visa / Mastercard',
      payment_method_id: 'card_visa_mastercard',
      amount: 500,
      currency_code: 'USD',
      final_amount: 500,
      amount_payment_currency: 500,
      payment_currency: 'USD',
      exchange_rate: 1,
      balance_before: 0,
      balance_after: 500,
      integration_type: 'manual',
      user_id: u.userId,
      crypto_wallet_address: null,
      invoice_id: null,
    });
    expect(typeof approved.created_at).toBe('number');
    expect(approved.created_at).toBeLessThan(10_000_000_000);
    expect(txs.find((t: { id: number }) => t.id === ids.expiredDeposit).approval_status).toBe('expired');
    expect(txs.find((t: { id: number }) => t.id === ids.pendingWithdrawal).payment_details).toEqual({ requisites: '=HYPERLINK("http://evil.example")', payment_method: 'card' });
    // The owner never gets the whole card number back; the stored row (the operator's) keeps it.
    expect(txs.find((t: { id: number }) => t.id === ids.approvedWithdrawal).payment_details).toEqual({ requisites: '•••• 1111', payment_method: 'card' });
    expect(JSON.stringify(r.body)).not.toContain('4111 1111 1111 1111');
    const one = await server.api('GET', `/api/v2/transactions/${ids.approvedWithdrawal}`, undefined, u.token);
    expect(one.body.data.transaction.payment_details.requisites).toBe('•••• 1111');
    const stored = await server.ctx.db.selectFrom('payment_transactions').select('payment_details').where('id', '=', ids.approvedWithdrawal).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.payment_details!).requisites).toBe('4111 1111 1111 1111');
  });

  it('filters by type, grouped status and account, accepting "all" as no filter', async () => {
    const count = async (q: string) => (await list(u, q)).body.data.pagination.total_count;
    expect(await count('?type=deposit')).toBe(5);
    expect(await count('?type=withdrawal')).toBe(2);
    expect(await count('?status=pending')).toBe(3);
    expect(await count('?status=completed')).toBe(2);
    expect(await count('?status=failed')).toBe(2);
    expect(await count('?status=pending&type=withdrawal')).toBe(1);
    expect(await count('?type=all&status=all&account=all')).toBe(7);
    expect(await count('?account=real')).toBe(7);
    expect(await count('?account=demo')).toBe(0);
    const pending = (await list(u, '?status=pending')).body.data.transactions.map((t: { approval_status: string }) => t.approval_status);
    expect(pending.sort()).toEqual(['pending', 'pending', 'processing']);
  });

  it('pages with page and limit', async () => {
    const p2 = await list(u, '?limit=3&page=2');
    expect(p2.body.data.pagination).toEqual({ page: 2, limit: 3, total_count: 7, total_pages: 3 });
    const all = (await list(u)).body.data.transactions.map((t: { id: number }) => t.id);
    expect(p2.body.data.transactions.map((t: { id: number }) => t.id)).toEqual(all.slice(3, 6));
    expect((await list(u, '?limit=3&page=3')).body.data.transactions).toHaveLength(1);
    expect((await list(u, '?limit=3&page=4')).body.data.transactions).toHaveLength(0);
  });

  it('filters by date (YYYY-MM-DD or unix seconds, date_to inclusive)', async () => {
    const count = async (q: string) => (await list(u, q)).body.data.pagination.total_count;
    expect(await count(`?date_from=${day(0)}`)).toBe(7);
    expect(await count(`?date_to=${day(-1)}`)).toBe(0);
    expect(await count(`?date_from=${day(1)}`)).toBe(0);
    const nowS = Math.floor(Date.now() / 1000);
    expect(await count(`?date_from=${nowS - 3600}`)).toBe(7);
    expect(await count(`?date_to=${nowS - 3600}`)).toBe(0);
    // One transaction moved to the last second of 15 Jan 2020 (UTC).
    const lastSecond = Date.UTC(2020, 0, 15, 23, 59, 59, 500);
    await server.ctx.db.updateTable('payment_transactions').set({ created_at: lastSecond }).where('id', '=', ids.failedDeposit).execute();
    expect(await count('?date_from=2020-01-15&date_to=2020-01-15')).toBe(1);
    expect(await count('?date_to=2020-01-14')).toBe(0);
    expect(await count(`?date_from=${Math.floor(lastSecond / 1000)}&date_to=${Math.floor(lastSecond / 1000)}`)).toBe(1);
    expect(await count('?date_from=2020-01-16&date_to=all'.replace('&date_to=all', ''))).toBe(6);
  });

  it('refuses bad filters with a 4xx envelope', async () => {
    for (const q of [
      '?date_from=2020-13-01',
      '?date_from=2021-02-29',
      '?date_from=yesterday',
      `?date_from=${day(1)}&date_to=${day(0)}`,
      '?limit=0',
      '?limit=101',
      '?limit=ten',
      '?page=0',
      '?type=refund',
      '?status=approved',
      '?account=bonus',
    ]) {
      const r = await list(u, q);
      expect(r.status, q).toBe(400);
      expect(r.body).toMatchObject({ success: false, data: null });
      expect(typeof r.body.error_message).toBe('string');
    }
    expect((await server.api('GET', '/api/v2/transactions')).status).toBe(401);
  });

  it('shows one transaction to its owner only', async () => {
    const own = await server.api('GET', `/api/v2/transactions/${ids.pendingDeposit}`, undefined, u.token);
    expect(own.status).toBe(200);
    expect(own.body.data.transaction).toMatchObject({ id: ids.pendingDeposit, approval_status: 'pending', amount: 11 });
    expect(own.body.data.transaction.requisit.card_number).toBe('4000 0012 3456 7899');
    const stranger = await newUser(server);
    const foreign = await server.api('GET', `/api/v2/transactions/${ids.pendingDeposit}`, undefined, stranger.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_message).toBe('Transaction not found');
    expect((await list(stranger)).body.data.pagination.total_count).toBe(0);
    expect((await server.api('GET', '/api/v2/transactions/abc', undefined, u.token)).status).toBe(400);
    expect((await server.api('GET', '/api/v2/transactions/999999', undefined, u.token)).status).toBe(404);
  });

  it('exports CSV with the same filters, currency decimals, UTC dates and injection-safe cells', async () => {
    const res = await server.raw('GET', '/api/v2/transactions/export.csv', { headers: { authorization: `Bearer ${u.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'ID,Type,Status,Method,Amount,Currency,Final amount,Payment amount,Payment currency,Exchange rate,Balance before,Balance after,Created (UTC),Updated (UTC),Wallet address,Network,Transaction hash,Invoice ID,Requisites,Error',
    );
    expect(lines).toHaveLength(8);
    const approved = lines.find((l) => l.startsWith(`${ids.approvedDeposit},`))!;
    expect(approved).toMatch(/^\d+,deposit,approved,Visa \/ Mastercard,500\.00,USD,500\.00,500\.00,USD,1\.000000,0\.00,500\.00,\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2},/);
    const evil = lines.find((l) => l.startsWith(`${ids.pendingWithdrawal},`))!;
    expect(evil).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(lines.some((l) => /,=/.test(l))).toBe(false);
    const cardRow = lines.find((l) => l.startsWith(`${ids.approvedWithdrawal},`))!;
    expect(cardRow).toContain(',•••• 1111,');
    expect(lines.join('\n')).not.toContain('4111');

    const filtered = await server.raw('GET', '/api/v2/transactions/export.csv?type=withdrawal&status=completed', { headers: { authorization: `Bearer ${u.token}` } });
    const fl = (await filtered.text()).trimEnd().split('\r\n');
    expect(fl).toHaveLength(2);
    expect(fl[1].startsWith(`${ids.approvedWithdrawal},withdrawal,approved,`)).toBe(true);

    const bad = await server.api('GET', '/api/v2/transactions/export.csv?limit=500', undefined, u.token);
    expect(bad.status).toBe(400);
    expect((await server.raw('GET', '/api/v2/transactions/export.csv')).status).toBe(401);
  });
});

describe('demo reset', () => {
  it('restores 10,000 with a fresh key per request and pushes the balance', async () => {
    const u = await newUser(server);
    const s = await userSocket(server, u.token);
    // Spend some demo money the way an order stake does.
    await server.ctx.tx((trx) => postLedger(trx, { key: `test-stake:${u.userId}`, kind: 'order_stake', userId: u.userId, entries: withCounterparty(HOUSE_DEMO_ISSUER, [{ currency: 'USD', account: 'demo', amount: -123_456 }]) }));
    expect(await balance(server, u.userId, 'USD', 'demo')).toBe(1_000_000 - 123_456);
    const pushed = nextEvent(s, 'update_balances', 5000, (p: any) => p.balances.USD?.DemoBalance === 10000);
    const r = await server.api('POST', '/api/v2/payments/reset-demo-balance', { currency: 'usd' }, u.token);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, data: { new_balance: { USD: 10000 }, message: 'demo_reseted' }, error: null, error_message: null });
    await pushed;
    expect(await balance(server, u.userId, 'USD', 'demo')).toBe(1_000_000);
    // Again (nothing to restore) and in a currency the user never had.
    expect((await server.api('POST', '/api/v2/payments/reset-demo-balance', { currency: 'USD' }, u.token)).status).toBe(200);
    const btc = await server.api('POST', '/api/v2/payments/reset-demo-balance', { currency: 'BTC' }, u.token);
    expect(btc.body.data.new_balance).toEqual({ BTC: 10000 });
    expect(await balance(server, u.userId, 'BTC', 'demo')).toBe(10000 * 1e8);
    const resets = await server.ctx.db.selectFrom('ledger_transactions').select('idempotency_key').where('user_id', '=', u.userId).where('kind', '=', 'demo_reset').execute();
    expect(resets).toHaveLength(3);
    expect(new Set(resets.map((x) => x.idempotency_key)).size).toBe(3);
    // The real balance is never touched.
    expect(await balance(server, u.userId, 'USD', 'real')).toBe(0);
  });

  it('refuses a bad currency, a missing one and no token', async () => {
    const u = await newUser(server);
    const bad = await server.api('POST', '/api/v2/payments/reset-demo-balance', { currency: 'XXX' }, u.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error_message).toBe('Unknown currency');
    const missing = await server.api('POST', '/api/v2/payments/reset-demo-balance', {}, u.token);
    expect(missing.status).toBe(400);
    expect(missing.body.error_message).toBe('Currency is required');
    expect((await server.api('POST', '/api/v2/payments/reset-demo-balance', { currency: 'USD' })).status).toBe(401);
    expect((await server.api('POST', '/api/v2/payments/reset-demo-balance', '{"currency":', u.token)).status).toBe(400);
  });
});

describe('deposit validation', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await newUser(server);
  });
  const valid = (over: Record<string, unknown> = {}) => ({
    amount: 100,
    currency: 'USD',
    account_type: 'real',
    payment_system: 'cards',
    payment_method_id: 'card_visa_mastercard',
    ...over,
  });
  const cases: [string, unknown, RegExp][] = [
    ['amount below the minimum', valid({ amount: 9.99 }), /^Amount too low: minimum 10\.00 USD$/],
    ['amount above the maximum', valid({ amount: 5000.01 }), /^Amount too high: maximum 5000\.00 USD$/],
    // The EUR minimum is the USD one at the market's EUR/USD, rounded to a round figure (docs/money.md).
    ['amount below the converted minimum', valid({ amount: 1, currency: 'EUR' }), /^Amount too low: minimum \d+\.00 EUR$/],
    ['a crypto amount above the converted maximum', valid({ amount: 50000.01, payment_method_id: 'usdt_trc20' }), /^Amount too high: maximum 50000\.00 USD$/],
    ['zero', valid({ amount: 0 }), /^Amount must be greater than 0$/],
    ['a negative text amount', valid({ amount: '-5' }), /^Amount must be greater than 0$/],
    ['too many decimals', valid({ amount: 10.001 }), /^Amount may have at most 2 decimals in USD$/],
    ['a fraction of a bitcoin satoshi', valid({ amount: 0.000000001, currency: 'BTC', payment_method_id: 'btc' }), /^Amount may have at most 8 decimals in BTC$/],
    ['amount as an object', valid({ amount: { v: 1 } }), /^Amount must be a number$/],
    ['missing amount', valid({ amount: undefined }), /^Amount is required$/],
    ['missing currency', valid({ currency: undefined }), /^Currency is required$/],
    ['unknown currency', valid({ currency: 'DOGE' }), /^Unknown currency$/],
    ['missing method', valid({ payment_method_id: undefined }), /^Payment method is required$/],
    ['method as a number', valid({ payment_method_id: 7 }), /^Payment method must be a string$/],
    ['oversized method id', valid({ payment_method_id: 'm'.repeat(65) }), /^Payment method must be at most 64 characters$/],
    ['unknown method', valid({ payment_method_id: 'paypal' }), /^Payment method not found$/],
    ['a method of another currency', valid({ payment_method_id: 'bank_transfer_sepa' }), /^This payment method does not support the currency$/],
    ['the demo account', valid({ account_type: 'demo' }), /^Only the real account can be used/],
    ['an oversized payment_system', valid({ payment_system: 'p'.repeat(65) }), /^payment_system must be at most 64 characters$/],
    ['a bad client_request_id', valid({ client_request_id: 'no spaces allowed' }), /^client_request_id must be/],
    ['a string body', 'hello', /^Malformed JSON body$/],
  ];
  for (const [name, body, message] of cases) {
    it(`refuses ${name} with a 4xx envelope and stores nothing`, async () => {
      const r = await server.api('POST', '/api/v2/transactions/deposit', body, u.token);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, data: null });
      expect(r.body.error_message).toMatch(message);
      expect(await server.ctx.db.selectFrom('payment_transactions').select('id').where('user_id', '=', u.userId).execute()).toEqual([]);
    });
  }

  it('refuses no token, and replays a retried deposit instead of creating a second one', async () => {
    expect((await server.api('POST', '/api/v2/transactions/deposit', valid())).status).toBe(401);
    const body = valid({ client_request_id: 'deposit-retry-0001', payment_method_id: 'oxapay_crypto' });
    const [a, b] = await Promise.all([
      server.api('POST', '/api/v2/transactions/deposit', body, u.token),
      server.api('POST', '/api/v2/transactions/deposit', body, u.token),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.data.transaction_id).toBe(b.body.data.transaction_id);
    expect(a.body.data.payment_url).toBe(b.body.data.payment_url);
    expect(a.body.data.payment_url).toMatch(/\/checkout\/sandbox\/[0-9a-f]{24}$/);
    const other = await server.api('POST', '/api/v2/transactions/deposit', { ...body, amount: 101 }, u.token);
    expect(other.status).toBe(409);
    const rows = await server.ctx.db.selectFrom('payment_transactions').select('id').where('user_id', '=', u.userId).execute();
    expect(rows).toHaveLength(1);
    await payments(server).reject(rows[0].id);
  });
});
