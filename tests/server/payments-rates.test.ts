/**
 * One source of prices (docs/money.md, "Exchange rates"): the rate provider over the market's
 * latest ticks (a pair, an inverted pair, a cross through USD, a direct cross pair, the
 * configured rate where no pair or no tick exists, a stale tick kept with its time), the risk
 * measure at those rates, and a real server whose payment methods and deposits convert at the
 * prices its own market shows (within 0.1 %), rounded to the network's decimals.
 */
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCurrency } from '../../contract/currencies';
import { DepositResultSchema, PaymentMethodsResultSchema, limitStep, roundLimits } from '../../contract/payments';
import { configuredFx, marketFx } from '../../server/domain/market/fx';
import type { Pair } from '../../contract/market';
import type { Tick } from '../../server/domain/market/types';
import { worstCaseUsdMinor } from '../../server/domain/orders/exposure';
import { nextEvent, type TestServer } from '../support/server';
import { auditLedgerAfterEach } from '../support/ledger-audit';
import { deposit, newUser, startMoneyServer } from './payments-support';

const pair = (code: string, human: string): Pair => ({ pair_code: code, pair_human_code: human }) as Pair;

function fakeMarket(prices: Record<string, [number, number]>) {
  const pairs = [
    pair('EURUSD', 'EUR/USD'),
    pair('USDJPY', 'USD/JPY'),
    pair('GBPUSD', 'GBP/USD'),
    pair('EURGBP', 'EUR/GBP'),
    pair('BTCUSD', 'BTC/USD'),
    pair('USDTRY', 'USD/TRY'),
    pair('AAPL', 'Apple'),
  ];
  let listed = 0;
  return {
    calls: () => listed,
    listPairs: () => (listed++, pairs),
    latestTick: (code: string): Tick | undefined => {
      const p = prices[code];
      return p ? { pair_code: code, seq: 1, price: p[0], time: p[1] } : undefined;
    },
  };
}

describe('the rate provider', () => {
  const T = 1_800_000_000_000;
  const market = fakeMarket({ EURUSD: [1.16, T], USDJPY: [155, T + 1], GBPUSD: [1.3, T + 2], EURGBP: [0.88, T + 3], BTCUSD: [94_000, T - 86_400_000] });
  const fx = marketFx(market);

  it('reads a pair with USD, inverted when USD is its base', () => {
    expect(fx.rate('EUR', 'USD')).toEqual({ from: 'EUR', to: 'USD', rate: 1.16, source: 'pair', pairs: ['EUR/USD'], at: T });
    expect(fx.rate('usd', 'eur').rate).toBeCloseTo(1 / 1.16, 12);
    expect(fx.rate('USD', 'JPY')).toMatchObject({ rate: 155, source: 'pair', pairs: ['USD/JPY'], at: T + 1 });
    expect(fx.rate('JPY', 'USD').rate).toBeCloseTo(1 / 155, 12);
    expect(fx.perUsd('JPY')).toBe(155);
    expect(fx.perUsd('EUR')).toBeCloseTo(1 / 1.16, 12);
  });

  it('uses a direct cross pair when one exists, else crosses through USD', () => {
    expect(fx.rate('EUR', 'GBP')).toMatchObject({ rate: 0.88, source: 'pair', pairs: ['EUR/GBP'], at: T + 3 });
    expect(fx.rate('GBP', 'EUR').rate).toBeCloseTo(1 / 0.88, 12);
    const cross = fx.rate('EUR', 'JPY');
    expect(cross.rate).toBeCloseTo(1.16 * 155, 9);
    expect(cross).toMatchObject({ source: 'pair', pairs: ['EUR/USD', 'USD/JPY'], at: T });
  });

  it('falls back to the configured rate only where no pair or no tick exists, and says so', () => {
    // USDT has no pair: the configured 1:1.
    expect(fx.rate('EUR', 'USDT')).toMatchObject({ rate: 1.16, source: 'configured', pairs: ['EUR/USD'] });
    // RUB has no pair; USD/TRY exists but never ticked.
    expect(fx.rate('USD', 'RUB')).toMatchObject({ rate: findCurrency('RUB')!.rate, source: 'configured', pairs: [], at: null });
    expect(fx.rate('USD', 'TRY')).toMatchObject({ rate: findCurrency('TRY')!.rate, source: 'configured' });
    expect(fx.rate('USD', 'USD')).toMatchObject({ rate: 1, source: 'base' });
    expect(() => fx.rate('USD', 'XXX')).toThrow('Unknown currency');
  });

  it('keeps a stale price with its time (never the configured rate while a pair has a price)', () => {
    const btc = fx.rate('USD', 'BTC');
    expect(btc.rate).toBeCloseTo(1 / 94_000, 15);
    expect(btc).toMatchObject({ source: 'pair', at: T - 86_400_000 });
    expect(fx.table().BTC).toEqual({ per_usd: 1 / 94_000, source: 'pair', pair: 'BTC/USD', at: T - 86_400_000 });
  });

  it('lists every currency in its table, and indexes the pairs once', () => {
    const table = fx.table();
    expect(Object.keys(table)).toContain('UZS');
    expect(table.USD).toEqual({ per_usd: 1, source: 'base', pair: null, at: null });
    expect(table.USDT.source).toBe('configured');
    fx.perUsd('EUR');
    expect(market.calls()).toBe(1);
    expect(configuredFx.perUsd('EUR')).toBe(findCurrency('EUR')!.rate);
  });

  it('measures the risk at the market rate', () => {
    // A €1000 payout against €100 staked: a loss of €900 = $1044 at EUR/USD 1.16 (not $978 at the configured 0.92).
    const directions = { up: { count: 1, stakes: { EUR: 10_000 }, payouts: { EUR: 100_000 } }, down: { count: 0, stakes: {}, payouts: {} } };
    expect(worstCaseUsdMinor(directions, fx.perUsd)).toBe(104_400);
    expect(worstCaseUsdMinor(directions)).toBe(97_827);
  });
});

describe('a real server converts at its own market prices', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startMoneyServer();
  });
  afterAll(async () => {
    await server.close();
  });
  auditLedgerAfterEach(() => server);

  const price = (code: string) => {
    const tick = server.ctx.services.market.latestTick(code);
    if (!tick) throw new Error(`no tick for ${code}`);
    return tick.price;
  };
  const within = (actual: number, expected: number, fraction = 0.001) => expect(Math.abs(actual / expected - 1)).toBeLessThan(fraction);

  async function ticked() {
    for (let i = 0; i < 100 && !(server.ctx.services.market.latestTick('EURUSD') && server.ctx.services.market.latestTick('BTCUSD')); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('sends the market rates with the payment methods, and limits in round figures', async () => {
    await ticked();
    const u = await newUser(server, 'EUR');
    const r = await server.api('GET', '/api/v2/payments/methods?currency=EUR&direction=deposit', undefined, u.token);
    const body = v.parse(PaymentMethodsResultSchema, r.body.data);
    const rates = body.rates!;
    expect(rates.EUR).toMatchObject({ source: 'pair', pair: 'EUR/USD' });
    within(1 / rates.EUR.per_usd, price('EURUSD'));
    within(1 / rates.BTC.per_usd, price('BTCUSD'));
    expect(rates.USDT.source).toBe('configured');
    const card = body.payment_systems.find((m) => m.id === 'card_visa_mastercard')!;
    // $10 .. $5000 at the market's EUR/USD, as round figures inside the range (€9 .. €4000 at 1.16, not €8.62).
    const exact = { min: (10 / price('EURUSD')) * 100, max: (5000 / price('EURUSD')) * 100 };
    const round = roundLimits(Math.ceil(exact.min), Math.floor(exact.max));
    expect(card.available_sums).toEqual({ min: round.min / 100, max: round.max / 100, currency: 'EUR' });
    expect(round.min % limitStep(exact.min)).toBe(0);
    expect(round.min).toBeGreaterThanOrEqual(exact.min);
    expect(round.max).toBeLessThanOrEqual(exact.max);
    expect(round.max % 100_00).toBe(0);
  });

  it('converts a deposit at the price feed (within 0.1 %), rounded up to the network decimals', async () => {
    await ticked();
    const u = await newUser(server, 'EUR');
    const usdt = await deposit(server, u, { amount: 46.87, currency: 'EUR', payment_method_id: 'usdt_trc20', payment_system: 'crypto' });
    expect(usdt.status).toBe(201);
    const result = v.parse(DepositResultSchema, usdt.body.data);
    // 46.87 EUR at EUR/USD, USDT at its 1:1 configured rate.
    within(result.amount_payment_currency, 46.87 * price('EURUSD'));
    within(result.exchange_rate!, price('EURUSD'));
    // TRC20 USDT has 6 decimals: nothing finer is asked.
    expect(String(result.amount_payment_currency).split('.')[1]?.length ?? 0).toBeLessThanOrEqual(6);

    const usd = await newUser(server, 'USD');
    const btc = await deposit(server, usd, { amount: 100, currency: 'USD', payment_method_id: 'btc', payment_system: 'crypto' });
    expect(btc.status).toBe(201);
    const btcResult = v.parse(DepositResultSchema, btc.body.data);
    within(btcResult.amount_payment_currency, 100 / price('BTCUSD'));
    expect(btcResult.amount_payment_currency).toBeGreaterThan(0.0009); // not the configured ~$64.5k per BTC's 0.00155
  });

  it('sends its rate table with the user data, and values an order stake at the market rate (not the configured one)', async () => {
    await ticked();
    const u = await newUser(server, 'EUR');
    const socket = await server.socket();
    const answer = nextEvent<{ rates?: Record<string, { per_usd: number; source: string; pair: string | null; at: number | null }> }>(socket, 'userdata');
    socket.emit('get_userdata', { token: u.token });
    const { rates } = await answer;
    socket.disconnect();
    expect(rates?.EUR).toMatchObject({ source: 'pair', pair: 'EUR/USD' });
    expect(typeof rates?.EUR.at).toBe('number');
    within(1 / rates!.EUR.per_usd, price('EURUSD'));
    expect(rates?.USDT.source).toBe('configured');

    const placed = await server.api('POST', '/api/v2/orders', { pair_code: 'BTCUSD', direction: 'up', amount: 50, currency: 'EUR', trading_account: 'DemoAccount', expiry: 60 }, u.token);
    expect(placed.status).toBe(201);
    const o = (placed.body.data as { order: { amount: number; open_price: number; currency_amount: number } }).order;
    // currency_amount = stake / (open price x the currency's units per USD): at the market's EUR/USD, not the configured 0.92.
    within(o.currency_amount, o.amount / (o.open_price * (1 / price('EURUSD'))), 0.002);
    expect(Math.abs(o.currency_amount / (o.amount / (o.open_price * findCurrency('EUR')!.rate)) - 1)).toBeGreaterThan(0.01);
  });
});
