/**
 * Every bad input to the order routes is a 4xx with the envelope {success:false, data:null,
 * error, error_message} and changes nothing stored: wrong types, missing fields, out-of-range
 * values, too many decimals, unknown currency, malformed JSON, bad query strings and ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCurrency } from '../../contract/currencies';
import { balance, expectLedgerClean, makeUser, startOrdersServer, type OrdersServer, type TestUser } from '../support/orders-harness';
import { auditLedgerAfterEach } from '../support/ledger-audit';

let s: OrdersServer;
let user: TestUser;
beforeAll(async () => {
  s = await startOrdersServer();
  user = await makeUser(s, { USD: 100_000_00 }, ['USD', 'BTC', 'ETH', 'JPY']);
  s.feed.push('EURUSD', 1.16, s.clock!.t);
  s.feed.push('BTCUSD', 95_000, s.clock!.t);
});
afterAll(async () => {
  await s.server.close();
});
// The ledger audit after every test, and the real `audit` command when the server closes.
auditLedgerAfterEach(() => s);

const valid = {
  pair_code: 'EURUSD',
  direction: 'up',
  amount: 10,
  currency: 'USD',
  trading_account: 'DemoAccount',
  expiry: 60,
};

async function orderCount() {
  const row = await s.server.ctx.db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function expectRefused(body: unknown, status: number, message?: string | RegExp, field?: string) {
  const before = { n: await orderCount(), demo: await balance(s, user.id, 'USD', 'demo'), real: await balance(s, user.id, 'USD', 'real') };
  const r = await s.server.api('POST', '/api/v2/orders', body, user.token);
  expect(r.status, JSON.stringify(body)).toBe(status);
  expect(r.body.success).toBe(false);
  expect(r.body.data).toBeNull();
  expect(typeof r.body.error).toBe('string');
  expect(r.body.error_message).toBe(r.body.error);
  if (typeof message === 'string') expect(r.body.error).toBe(message);
  if (message instanceof RegExp) expect(r.body.error).toMatch(message);
  if (field) expect(r.body.details?.map((d) => d.field)).toContain(field);
  expect(await orderCount()).toBe(before.n);
  expect(await balance(s, user.id, 'USD', 'demo')).toBe(before.demo);
  expect(await balance(s, user.id, 'USD', 'real')).toBe(before.real);
}

describe('POST /api/v2/orders validation', () => {
  it('refuses a missing or non-object body and malformed JSON', async () => {
    await expectRefused(undefined, 400);
    await expectRefused([valid], 400, 'Request body must be a JSON object');
    await expectRefused('{"pair_code": "EURUSD",', 400, 'Malformed JSON body');
    await expectRefused('"just a string"', 400);
  });

  it('refuses each missing field', async () => {
    for (const key of Object.keys(valid)) {
      const body: Record<string, unknown> = { ...valid };
      delete body[key];
      await expectRefused(body, 400, undefined, key);
    }
  });

  it('refuses wrong types', async () => {
    await expectRefused({ ...valid, amount: '10' }, 400, 'Amount must be a number', 'amount');
    await expectRefused({ ...valid, amount: null }, 400, undefined, 'amount');
    await expectRefused({ ...valid, expiry: '60' }, 400, undefined, 'expiry');
    await expectRefused({ ...valid, pair_code: 42 }, 400, undefined, 'pair_code');
    await expectRefused({ ...valid, currency: 840 }, 400, undefined, 'currency');
    await expectRefused({ ...valid, direction: true }, 400, undefined, 'direction');
    await expectRefused({ ...valid, trading_account: ['DemoAccount'] }, 400, undefined, 'trading_account');
    await expectRefused({ ...valid, client_request_id: 12345678 }, 400, undefined, 'client_request_id');
  });

  it('refuses out-of-range and unknown values', async () => {
    await expectRefused({ ...valid, direction: 'sideways' }, 400, 'Direction must be up or down');
    await expectRefused({ ...valid, trading_account: 'Real' }, 400, 'Trading account must be RealAccount or DemoAccount');
    await expectRefused({ ...valid, currency: 'XXX' }, 400, 'Unknown currency');
    await expectRefused({ ...valid, expiry: 4 }, 400, 'Expiry must be at least 5 seconds');
    await expectRefused({ ...valid, expiry: 14_401 }, 400, 'Expiry must be at most 14400 seconds');
    await expectRefused({ ...valid, expiry: 30.5 }, 400, 'Expiry must be a whole number of seconds');
    await expectRefused({ ...valid, pair_code: '' }, 400, 'Pair code is required');
    await expectRefused({ ...valid, pair_code: 'X'.repeat(33) }, 400, 'Pair code must be at most 32 characters');
    for (const id of ['short', 'has space 123', 'x'.repeat(65), 'semi;colon1']) {
      await expectRefused({ ...valid, client_request_id: id }, 400, /client_request_id/);
    }
  });

  it('refuses bad stakes with clear messages', async () => {
    await expectRefused({ ...valid, amount: 0 }, 400, 'Amount must be greater than 0', 'amount');
    await expectRefused({ ...valid, amount: -5 }, 400, 'Amount must be greater than 0');
    await expectRefused({ ...valid, amount: 10.001 }, 400, 'Amount may have at most 2 decimals in USD');
    await expectRefused({ ...valid, amount: 0.99 }, 400, 'Minimum bet is 1.00 USD');
    await expectRefused({ ...valid, amount: 5000.01 }, 400, 'Maximum bet is 5000.00 USD');
    await expectRefused({ ...valid, amount: 1e300 }, 400);
    await expectRefused({ ...valid, pair_code: 'BTCUSD', currency: 'BTC', amount: 0.000000001 }, 400, 'Amount may have at most 8 decimals in BTC');
    // BTC: max_bet 0.077 (contract/currencies.ts), so the minimum is 0.077 / 5000 = 0.0000154.
    expect(findCurrency('BTC')!.max_bet).toBe(0.077);
    await expectRefused({ ...valid, pair_code: 'BTCUSD', currency: 'BTC', amount: 0.0000153 }, 400, 'Minimum bet is 0.00001540 BTC');
    await expectRefused({ ...valid, pair_code: 'BTCUSD', currency: 'BTC', amount: 0.07700001 }, 400, 'Maximum bet is 0.07700000 BTC');
    // JPY: max_bet 760000 (5000 USD at 151.2, rounded), minimum 1 yen.
    await expectRefused({ ...valid, currency: 'JPY', amount: 760_000.01 }, 400, 'Maximum bet is 760000.00 JPY');
  });

  it('accepts the limits themselves', async () => {
    const ok = async (body: Record<string, unknown>) => {
      const r = await s.server.api('POST', '/api/v2/orders', { ...valid, ...body }, user.token);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    };
    await ok({ amount: 1 });
    await ok({ amount: 5000 });
    await ok({ amount: 0.1 + 0.2 + 0.7 }); // binary noise is not an extra decimal
    await ok({ currency: 'btc', amount: 0.0000154, pair_code: 'BTCUSD' });
    await ok({ currency: 'BTC', amount: 0.077, pair_code: 'BTCUSD' });
    await ok({ currency: 'JPY', amount: 1 });
    await ok({ expiry: 5 });
    await ok({ expiry: 14_400, client_request_id: 'A'.repeat(64) });
    await ok({ client_request_id: 'abcd_-12' });
    await expectLedgerClean(s);
  });
});

describe('GET /api/platform/orders validation', () => {
  it('refuses bad query values with a 400 envelope', async () => {
    const queries = [
      'limit=0',
      'limit=101',
      'limit=abc',
      'limit=1.5',
      'offset=-1',
      'offset=x',
      'status=bogus',
      'trading_account=Real',
      'currency=XXX',
      `symbol=${'A'.repeat(40)}`,
    ];
    for (const q of queries) {
      const r = await s.server.api('GET', `/api/platform/orders?${q}`, undefined, user.token);
      expect(r.status, q).toBe(400);
      expect(r.body).toMatchObject({ success: false, data: null });
      expect(r.body.error).toBeTruthy();
    }
    const ok = await s.server.api('GET', '/api/platform/orders?limit=100&offset=0&status=all&trading_account=all', undefined, user.token);
    expect(ok.status).toBe(200);
  });

  it('refuses bad ids on the detail route', async () => {
    for (const id of ['abc', '0', '1e3', '-4', '99999999999999999999']) {
      const r = await s.server.api('GET', `/api/platform/orders/${id}`, undefined, user.token);
      expect(r.status, id).toBe(400);
      expect(r.body.success).toBe(false);
    }
  });
});
