/**
 * Order placement (the bet panel): generated paths, the bet checks of spec section 5 with the
 * server's stake rules as a table, the request the click sends, and the toasts.
 */
import { moneyParam, type MessageParams } from '../../machines/types';
import { afterAll, describe, expect, it } from 'vitest';
import { fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import type { Order } from '../../contract/orders';
import { clockTime, orderPlacementMachine, type CreateOrderInput } from '../../machines/order-placement/order-placement.machine';
import { betProblem, expirySeconds, firstPreset, normalizeAmount, shownProblem, tradingAccountFor, type TradeSetup } from '../../machines/order-placement/bet-rules';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';
import { makeOrder } from './trading-fixtures';

const ready: TradeSetup = {
  loggedIn: true,
  pair: { pairCode: 'EURUSD', pairHumanCode: 'EUR/USD' },
  currency: 'USD',
  balanceType: 'DemoBalance',
  available: 10000,
};
const opened = makeOrder({ order_id: 1, amount: 10 });

const events: AnyEventObject[] = [
  { type: 'orderPlacement.amountChanged', amount: '25' },
  { type: 'orderPlacement.amountChanged', amount: '0' },
  { type: 'orderPlacement.expiryChanged', value: 5, unit: 'seconds' },
  { type: 'orderPlacement.expiryChanged', value: 300, unit: 'minutes' },
  { type: 'orderPlacement.currencyChanged', currency: 'BTC' },
  { type: 'orderPlacement.placeRequested', direction: 'up', setup: ready },
  { type: 'orderPlacement.placeRequested', direction: 'down', setup: { ...ready, loggedIn: false } },
  { type: 'xstate.done.actor.createOrder', output: opened },
  { type: 'xstate.error.actor.createOrder', error: { message: 'Insufficient balance' } },
  { type: 'xstate.error.actor.createOrder', error: null },
  // The pair's risk limit: shown in the panel's slot, no toast.
  { type: 'xstate.error.actor.createOrder', error: { message: "This order would exceed the house's risk limit for this pair. Try a smaller amount or the other direction" } },
  { type: 'orderPlacement.amountLeft' },
];
/** Steps and the unit switch, offered only from the starting values (each step is a new context: unbounded otherwise). */
const stepEvents: AnyEventObject[] = [
  { type: 'orderPlacement.amountStepped', step: 1 },
  { type: 'orderPlacement.amountStepped', step: -1 },
  { type: 'orderPlacement.expiryStepped', step: 1 },
  { type: 'orderPlacement.expiryUnitChanged', unit: 'seconds' },
];
const eventsIn = (snapshot: AnyMachineSnapshot): AnyEventObject[] => {
  const { amount, expiryValue, expiryUnit } = snapshot.context as { amount: string; expiryValue: number; expiryUnit: string };
  return amount === '10' && expiryValue === 1 && expiryUnit === 'minutes' ? [...events, ...stepEvents] : events;
};

const model: PathModel = {
  name: 'orderPlacement',
  machine: orderPlacementMachine,
  events: eventsIn,
  simplePaths: 300,
  simplePathEvents: [events[1], events[4], events[5], events[6], events[7]],
};

describe('order placement machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('orderPlacement'));
});

describe('bet checks (spec section 5, docs/orders.md)', () => {
  const bet = (amount: string, expiryValue = 1, expiryUnit: 'seconds' | 'minutes' = 'minutes') => ({ amount, expiryValue, expiryUnit });
  const cases: Array<[string, ReturnType<typeof bet>, TradeSetup, string | null, MessageParams?]> = [
    ['a valid bet', bet('10'), ready, null],
    ['a comma as decimal separator', bet('10,50'), ready, null],
    ['logged out', bet('10'), { ...ready, loggedIn: false }, 'trading.login_to_bet'],
    ['no pair', bet('10'), { ...ready, pair: null }, 'trading.no_pair_selected'],
    ['empty amount', bet('  '), ready, 'trading.amount_required'],
    ['not a number', bet('1e3'), ready, 'trading.amount_invalid'],
    ['negative', bet('-5'), ready, 'trading.amount_invalid'],
    ['zero', bet('0.00'), ready, 'trading.amount_positive'],
    ['more decimals than the currency has', bet('10.005'), ready, 'trading.amount_decimals', { decimals: 2, currency: 'USD' }],
    ['below the minimum', bet('0.99'), ready, 'trading.amount_min', { min: { money: 1, currency: 'USD' } }],
    ['above the maximum', bet('5000.01'), ready, 'trading.amount_max', { max: { money: 5000, currency: 'USD' } }],
    ['the maximum itself', bet('5000'), ready, null],
    ['more than the balance', bet('100.01'), { ...ready, available: 100 }, 'trading.insufficient_balance'],
    ['exactly the balance', bet('100'), { ...ready, available: 100 }, null],
    ['crypto allows 8 decimals', bet('0.00002'), { ...ready, currency: 'BTC', available: 1 }, null],
    ['crypto minimum', bet('0.00001'), { ...ready, currency: 'BTC', available: 1 }, 'trading.amount_min', { min: { money: 0.0000154, currency: 'BTC' } }],
    ['an unknown currency', bet('10'), { ...ready, currency: 'XXX' }, 'trading.unknown_currency'],
    ['bet time below 5 s', bet('10', 4, 'seconds'), ready, 'trading.expiry_range'],
    ['bet time of 5 s', bet('10', 5, 'seconds'), ready, null],
    ['bet time of 4 h', bet('10', 240, 'minutes'), ready, null],
    ['bet time above 4 h', bet('10', 241, 'minutes'), ready, 'trading.expiry_range'],
    ['a fractional bet time', bet('10', 7.5, 'seconds'), ready, 'trading.expiry_range'],
  ];
  it.each(cases)('%s', (_, b, setup, key, params) => {
    const problem = betProblem(b, setup);
    expect(problem?.key ?? null).toBe(key);
    if (params) expect(problem?.params).toEqual(params);
  });

  it('has the helpers the panel uses', () => {
    expect(normalizeAmount(' 12,5 ')).toBe('12.5');
    expect(normalizeAmount('12.')).toBeNull();
    expect(expirySeconds(2, 'minutes')).toBe(120);
    expect(tradingAccountFor('RealBalance')).toBe('RealAccount');
    expect(tradingAccountFor('DemoBalance')).toBe('DemoAccount');
    expect(moneyParam(19.21, 'usd')).toEqual({ money: 19.21, currency: 'USD' });
    expect(moneyParam(1.239, 'USD')).toEqual({ money: 1.23, currency: 'USD' });
    expect(moneyParam(0.1 + 0.2, 'USD')).toEqual({ money: 0.3, currency: 'USD' });
    expect(moneyParam(0.123456789, 'BTC')).toEqual({ money: 0.12345678, currency: 'BTC' });
    expect(clockTime(new Date(2026, 0, 2, 3, 4, 5).getTime())).toBe('03:04:05');
  });
});

describe('placing an order', () => {
  function placing(result: () => Promise<Order>) {
    const requests: CreateOrderInput[] = [];
    const machine = orderPlacementMachine.provide({
      actors: {
        createOrder: fromPromise<Order, CreateOrderInput>(({ input }) => {
          requests.push(input);
          return result();
        }),
      },
    });
    return { requests, ...startUnderParent(machine) };
  }
  const flush = () => new Promise((r) => setTimeout(r, 0));

  it('sends the bet for the chosen account once, toasts the opened order and tells the parent', async () => {
    const order = makeOrder({ order_id: 7, direction: 'down', amount: 12.5, pair_human_code: 'EUR/USD' });
    const { actor, parentEvents, requests } = placing(() => Promise.resolve(order));
    actor.send({ type: 'orderPlacement.amountChanged', amount: '12,50' });
    actor.send({ type: 'orderPlacement.expiryChanged', value: 30, unit: 'seconds' });
    actor.send({ type: 'orderPlacement.placeRequested', direction: 'down', setup: { ...ready, balanceType: 'RealBalance', available: 20 } });
    actor.send({ type: 'orderPlacement.placeRequested', direction: 'up', setup: ready });
    expect(actor.getSnapshot().value).toBe('placing');
    expect(actor.getSnapshot().context.direction).toBe('down');
    await flush();
    expect(requests).toEqual([{ pair_code: 'EURUSD', direction: 'down', amount: 12.5, currency: 'USD', trading_account: 'RealAccount', expiry: 30 }]);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context).toMatchObject({ direction: null, lastOrder: order, amount: '12,50' });
    expect(parentEvents).toEqual([
      {
        type: 'toast.requested',
        toast: { type: 'success', messageKey: 'trading.order_opened_down', params: { pair: { pair_code: 'EURUSD', pair_human_code: 'EUR/USD' }, amount: { money: 12.5, currency: 'USD' }, time: clockTime(order.expires_at_ms) } },
      },
      { type: 'order.placed', order },
    ]);
  });

  it('refuses a bad bet without a request and says why in the panel only (no toast)', () => {
    const { actor, parentEvents, requests } = placing(() => Promise.reject(new Error('never')));
    actor.send({ type: 'orderPlacement.amountChanged', amount: '200' });
    actor.send({ type: 'orderPlacement.placeRequested', direction: 'up', setup: { ...ready, available: 150 } });
    expect(requests).toEqual([]);
    expect(actor.getSnapshot().context.problem).toEqual({ field: 'amount', key: 'trading.insufficient_balance' });
    actor.send({ type: 'orderPlacement.expiryChanged', value: 2, unit: 'seconds' });
    actor.send({ type: 'orderPlacement.amountChanged', amount: '100' });
    actor.send({ type: 'orderPlacement.placeRequested', direction: 'up', setup: ready });
    expect(actor.getSnapshot().context.problem).toEqual({ field: 'expiry', key: 'trading.expiry_range' });
    expect(parentEvents).toEqual([]);
    actor.send({ type: 'orderPlacement.amountChanged', amount: '100' });
    expect(actor.getSnapshot().context.problem).toBeNull();
  });

  it('resets the amount to the new currency\'s first preset, once per currency', () => {
    const { actor } = placing(() => Promise.reject(new Error('never')));
    actor.send({ type: 'orderPlacement.currencyChanged', currency: 'USD' });
    actor.send({ type: 'orderPlacement.amountChanged', amount: '40' });
    // The same currency again (a re-render) keeps what the trader typed.
    actor.send({ type: 'orderPlacement.currencyChanged', currency: 'USD' });
    expect(actor.getSnapshot().context).toMatchObject({ amount: '40', currency: 'USD' });
    actor.send({ type: 'orderPlacement.placeRequested', direction: 'up', setup: { ...ready, available: 1 } });
    expect(actor.getSnapshot().context.problem).not.toBeNull();
    actor.send({ type: 'orderPlacement.currencyChanged', currency: 'BTC' });
    expect(actor.getSnapshot().context).toMatchObject({ amount: '0.0001', currency: 'BTC', problem: null });
  });

  it('owns the steps, the unit switch and which reason the panel shows (the panel only sends intents)', () => {
    const { actor } = placing(() => Promise.resolve(opened));
    actor.send({ type: 'orderPlacement.currencyChanged', currency: 'USD' });
    expect(actor.getSnapshot().context.amount).toBe(firstPreset('USD'));
    actor.send({ type: 'orderPlacement.amountChanged', amount: '10' });
    actor.send({ type: 'orderPlacement.amountStepped', step: 1 });
    expect(actor.getSnapshot().context.amount).toBe('20');
    actor.send({ type: 'orderPlacement.amountStepped', step: -1 });
    actor.send({ type: 'orderPlacement.amountStepped', step: -1 });
    expect(actor.getSnapshot().context.amount).toBe('9');
    actor.send({ type: 'orderPlacement.expiryChanged', value: 1, unit: 'minutes' });
    actor.send({ type: 'orderPlacement.expiryStepped', step: 1 });
    expect(actor.getSnapshot().context).toMatchObject({ expiryValue: 2, expiryUnit: 'minutes' });
    actor.send({ type: 'orderPlacement.expiryUnitChanged', unit: 'seconds' });
    expect(actor.getSnapshot().context).toMatchObject({ expiryValue: 120, expiryUnit: 'seconds' });
    // An empty amount is a reason only once the trader left the field; an over-balance one at once.
    actor.send({ type: 'orderPlacement.amountChanged', amount: '' });
    expect(shownProblem(actor.getSnapshot().context, 'USD', 100)).toBeNull();
    actor.send({ type: 'orderPlacement.amountLeft' });
    expect(shownProblem(actor.getSnapshot().context, 'USD', 100)?.key).toBe('trading.amount_required');
    actor.send({ type: 'orderPlacement.amountChanged', amount: '500' });
    expect(shownProblem(actor.getSnapshot().context, 'USD', 100)?.key).toBe('trading.insufficient_balance');
  });

  it('toasts the server text of a refused order, or the fallback', async () => {
    const texts = [new Error('Price unavailable, try again'), undefined];
    for (const error of texts) {
      const { actor, parentEvents } = placing(() => Promise.reject(error));
      actor.send({ type: 'orderPlacement.placeRequested', direction: 'up', setup: ready });
      await flush();
      expect(actor.getSnapshot().value).toBe('ready');
      expect(parentEvents).toEqual([
        {
          type: 'toast.requested',
          toast: error ? { type: 'error', message: 'Price unavailable, try again' } : { type: 'error', messageKey: 'trading.failed_to_create_order' },
        },
      ]);
    }
  });
});
