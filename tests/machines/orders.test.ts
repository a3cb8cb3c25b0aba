/**
 * Orders list: generated paths, the queries it sends (tabs, account filter, 10 a page), the
 * last-page rule, the open orders kept for the chart, the live estimate of the spec, the
 * settlement toasts (once each, an early close made here left to the close flow) and the
 * self-healing of a missed settlement push (after a reconnect, or when an order is overdue).
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fromPromise, type AnyEventObject } from 'xstate';
import type { Order, OrderListResponse } from '../../contract/orders';
import {
  liveEstimate,
  listQuery,
  ordersMachine,
  SETTLEMENT_GRACE_MS,
  settlementCheckDelay,
  settledToast,
  totalPages,
  type FetchOrdersInput,
  type FetchSettledOrdersInput,
} from '../../machines/orders/orders.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';
import { makeOrder, settled } from './trading-fixtures';

const a = makeOrder({ order_id: 1 });
const b = makeOrder({ order_id: 2, direction: 'down' });
const page = (orders: Order[], total: number, offset = 0): OrderListResponse => ({
  orders,
  pagination: { total_count: total, limit: 10, offset, has_more: offset + orders.length < total, next_offset: offset + orders.length < total ? offset + 10 : null },
});

const events: AnyEventObject[] = [
  { type: 'orders.sessionStarted' },
  { type: 'orders.sessionEnded' },
  { type: 'orders.tabChosen', tab: 'all' },
  { type: 'orders.accountChosen', account: 'demo' },
  { type: 'orders.pageChosen', page: 2 },
  { type: 'orders.retryRequested' },
  { type: 'orders.refreshRequested' },
  // (a settled push, which also records the toast, is in the settlement model below)
  { type: 'orders.orderUpdated', change: 'opened', order: b },
  { type: 'xstate.done.actor.fetchOrders', output: page([a, b], 2) },
  { type: 'xstate.done.actor.fetchOrders', output: page([], 3, 10) },
  { type: 'xstate.error.actor.fetchOrders', error: { message: 'Too many requests, please try again later' } },
  { type: 'xstate.done.actor.fetchOpenOrders', output: page([b], 1) },
  { type: 'xstate.error.actor.fetchOpenOrders', error: null },
];

const model: PathModel = {
  name: 'orders',
  machine: ordersMachine,
  // Each choice is offered once (from the default), so the state space stays small.
  events: (snapshot) =>
    events.filter((e) => {
      const { tab, account, page: current } = snapshot.context;
      if (e.type === 'orders.tabChosen') return tab === 'active';
      if (e.type === 'orders.accountChosen') return account === 'all' && tab === 'active';
      if (e.type === 'orders.pageChosen') return current === 1 && tab === 'active' && account === 'all';
      return true;
    }),
  simplePaths: 300,
  simplePathEvents: [events[0], events[5], events[8], events[10], events[12]],
};

/**
 * The settlement bookkeeping on the default list (same coverage row): an early close made
 * here, open orders that leave the open list without a push, their lookup, the overdue check.
 * The open list goes [] -> [a, b] -> [b] | [] and [b] -> [], so the state space stays small.
 */
const settlementEvents: AnyEventObject[] = [
  { type: 'orders.sessionStarted' },
  { type: 'orders.refreshRequested' },
  { type: 'orders.closeRequested', orderId: 2 },
  { type: 'orders.orderUpdated', change: 'settled', order: settled(a, 'won', 19.2) },
  { type: 'xstate.done.actor.fetchOpenOrders', output: page([a, b], 2) },
  { type: 'xstate.done.actor.fetchOpenOrders', output: page([b], 1) },
  { type: 'xstate.done.actor.fetchOpenOrders', output: page([], 0) },
  { type: 'xstate.done.actor.fetchSettledOrders', output: [settled(a, 'lost', 0), settled(b, 'closed_early', 4.1)] },
  { type: 'xstate.error.actor.fetchSettledOrders', error: null },
];
const settlementModel: PathModel = {
  name: 'orders',
  machine: ordersMachine,
  events: (snapshot) =>
    settlementEvents.filter((e) => {
      const { open, closedHere, announced, unconfirmed } = snapshot.context;
      if (e.type === 'orders.closeRequested') return closedHere.length === 0 && announced.length === 0;
      if (e.type === 'orders.orderUpdated') return announced.length === 0 && unconfirmed.length === 0;
      if (e.type !== 'xstate.done.actor.fetchOpenOrders') return true;
      const count = (Reflect.get(e, 'output') as OrderListResponse).orders.length;
      if (count === 2) return open.length === 0 && unconfirmed.length === 0;
      return count === 0 || open.length > 0;
    }),
  simplePaths: false,
};

describe('orders machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it.each(pathCases(settlementModel))('settlement %s', (_, path) => {
    replayPath(settlementModel, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('orders'));
});

describe('orders helpers', () => {
  it('asks for open or all orders of the chosen account, 10 a page', () => {
    expect(listQuery({ tab: 'active', account: 'all', page: 1 })).toEqual({ status: 'open', trading_account: 'all', limit: 10, offset: 0 });
    expect(listQuery({ tab: 'all', account: 'real', page: 3 })).toEqual({ status: 'all', trading_account: 'RealAccount', limit: 10, offset: 20 });
    expect(listQuery({ tab: 'all', account: 'demo', page: 2 }).trading_account).toBe('DemoAccount');
    expect([0, 1, 10, 11, 25].map(totalPages)).toEqual([1, 1, 1, 2, 3]);
  });

  it('computes the live estimate of the spec, mirrored for down orders', () => {
    // stake 100 at 1.16000, rate 1: currency_amount = 100 / 1.16
    const up = makeOrder({ amount: 100, open_price: 1.16, currency_amount: 100 / 1.16 });
    expect(liveEstimate(up, 1.17, 1)).toBe(0.86);
    expect(liveEstimate({ ...up, direction: 'down' }, 1.17, 1)).toBe(-0.86);
    expect(liveEstimate(up, 1.16, 1)).toBe(0);
    // EUR account: currency_amount = amount / (open x rate), the rate puts it back in EUR.
    const eur = makeOrder({ amount: 50, currency: 'EUR', open_price: 2, currency_amount: 50 / (2 * 0.92) });
    expect(liveEstimate(eur, 2.2, 0.92)).toBe(5);
  });

  it('announces won, lost, tie and refunded orders, not an early close', () => {
    const order = makeOrder({ amount: 10, pair_human_code: 'EUR/USD' });
    expect(settledToast(settled(order, 'won', 19.2))).toEqual({
      type: 'success',
      messageKey: 'orders.settled_won',
      params: { pair: { pair_code: 'EURUSD', pair_human_code: 'EUR/USD' }, amount: { money: 19.2, currency: 'USD' }, profit: { money: 9.2, currency: 'USD' } },
      settlement: { currency: 'USD', netMinor: 920 },
    });
    expect(settledToast(settled(order, 'lost', 0))).toEqual({
      type: 'info',
      messageKey: 'orders.settled_lost',
      params: { pair: { pair_code: 'EURUSD', pair_human_code: 'EUR/USD' }, amount: { money: 10, currency: 'USD' } },
      settlement: { currency: 'USD', netMinor: -1000 },
    });
    expect(settledToast(settled(order, 'tie', 10))?.settlement).toEqual({ currency: 'USD', netMinor: 0 });
    expect(settledToast(settled(order, 'tie', 10))?.messageKey).toBe('orders.settled_tie');
    expect(settledToast(settled(order, 'refunded', 10))?.messageKey).toBe('orders.settled_refunded');
    expect(settledToast(settled(order, 'closed_early', 4.1))).toEqual({
      type: 'info',
      messageKey: 'orders.settled_closed_early',
      params: { pair: { pair_code: 'EURUSD', pair_human_code: 'EUR/USD' }, amount: { money: 4.1, currency: 'USD' } },
      settlement: { currency: 'USD', netMinor: -590 },
    });
    expect(settledToast(order)).toBeNull();
  });

  it('checks an open order again once its expiry and the grace have passed, at most every grace period', () => {
    const now = 1_000_000;
    expect(settlementCheckDelay([{ expires_at_ms: now + 60_000 }, { expires_at_ms: now + 10_000 }], now)).toBe(10_000 + SETTLEMENT_GRACE_MS);
    expect(settlementCheckDelay([{ expires_at_ms: now - 60_000 }], now)).toBe(SETTLEMENT_GRACE_MS);
    expect(settlementCheckDelay([{ expires_at_ms: now + 10 ** 12 }], now)).toBe(2_147_483_647);
    expect(settlementCheckDelay([], now)).toBe(2_147_483_647);
  });
});

describe('orders behaviour', () => {
  function withServer(respond: (input: FetchOrdersInput) => Promise<OrderListResponse>, lookup: (ids: number[]) => Promise<Order[]> = () => Promise.resolve([])) {
    const requests: FetchOrdersInput[] = [];
    const lookups: number[][] = [];
    const machine = ordersMachine.provide({
      actors: {
        fetchOrders: fromPromise<OrderListResponse, FetchOrdersInput>(({ input }) => {
          requests.push(input);
          return respond(input);
        }),
        fetchSettledOrders: fromPromise<Order[], FetchSettledOrdersInput>(({ input }) => {
          lookups.push(input.orderIds);
          return lookup(input.orderIds);
        }),
      },
    });
    return { requests, lookups, ...startUnderParent(machine) };
  }
  const flush = () => new Promise((r) => setTimeout(r, 0));

  it('loads the list and the open orders when a session starts, and reloads on a choice', async () => {
    const { actor, requests } = withServer((input) => Promise.resolve(input.status === 'open' ? page([a], 1) : page([a, b], 12)));
    actor.send({ type: 'orders.sessionStarted' });
    await flush();
    expect(requests).toEqual([
      { status: 'open', trading_account: 'all', limit: 10, offset: 0 },
      { status: 'open', trading_account: 'all', limit: 100, offset: 0 },
    ]);
    expect(actor.getSnapshot().value).toEqual({ signedIn: { list: 'loaded', openOrders: 'watching' } });
    expect(actor.getSnapshot().context.open).toEqual([a]);

    actor.send({ type: 'orders.tabChosen', tab: 'all' });
    actor.send({ type: 'orders.accountChosen', account: 'real' });
    actor.send({ type: 'orders.pageChosen', page: 2 });
    actor.send({ type: 'orders.pageChosen', page: 2 });
    await flush();
    expect(requests.slice(2)).toEqual([
      { status: 'all', trading_account: 'all', limit: 10, offset: 0 },
      { status: 'all', trading_account: 'RealAccount', limit: 10, offset: 0 },
      { status: 'all', trading_account: 'RealAccount', limit: 10, offset: 10 },
    ]);
    expect(actor.getSnapshot().context).toMatchObject({ tab: 'all', account: 'real', page: 2, total: 12, orders: [a, b] });
  });

  it('loads the new last page when the current one emptied', async () => {
    const { actor, requests } = withServer((input) => Promise.resolve(input.offset >= 10 ? page([], 10, input.offset) : page([a], 10)));
    actor.send({ type: 'orders.sessionStarted' });
    actor.send({ type: 'orders.pageChosen', page: 2 });
    await flush();
    await flush();
    expect(actor.getSnapshot().context.page).toBe(1);
    expect(requests.filter((r) => r.limit === 10).map((r) => r.offset)).toEqual([0, 10, 0]);
  });

  it('shows the server text on failure and retries on request', async () => {
    let fail = true;
    const { actor } = withServer(() => (fail ? Promise.reject(new Error('Too many requests, please try again later')) : Promise.resolve(page([b], 1))));
    actor.send({ type: 'orders.sessionStarted' });
    await flush();
    expect(actor.getSnapshot().matches({ signedIn: { list: 'failed' } })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('Too many requests, please try again later');
    fail = false;
    actor.send({ type: 'orders.retryRequested' });
    await flush();
    expect(actor.getSnapshot().matches({ signedIn: { list: 'loaded' } })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ error: null, orders: [b] });
  });

  it('applies a pushed change at once, refetches, and toasts a settlement', async () => {
    const { actor, parentEvents, requests } = withServer(() => new Promise(() => {}));
    actor.send({ type: 'orders.sessionStarted' });
    actor.send({ type: 'orders.orderUpdated', change: 'opened', order: a });
    expect(actor.getSnapshot().context.open).toEqual([a]);
    actor.send({ type: 'orders.orderUpdated', change: 'settled', order: settled(a, 'lost', 0) });
    expect(actor.getSnapshot().context.open).toEqual([]);
    // Kept for the chart's win/loss marker (issue 26).
    expect(actor.getSnapshot().context.settled).toEqual([settled(a, 'lost', 0)]);
    expect(requests).toHaveLength(6);
    expect(parentEvents).toEqual([{ type: 'toast.requested', toast: { type: 'info', messageKey: 'orders.settled_lost', params: { pair: { pair_code: 'EURUSD', pair_human_code: 'EUR/USD' }, amount: { money: 10, currency: 'USD' } }, settlement: { currency: 'USD', netMinor: -1000 } } }]);

    actor.send({ type: 'orders.sessionEnded' });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context).toMatchObject({ tab: 'active', account: 'all', page: 1, orders: [], open: [], settled: [] });
    actor.send({ type: 'orders.orderUpdated', change: 'opened', order: a });
    expect(actor.getSnapshot().context.open).toEqual([]);
  });

  it('toasts, once, a settlement whose push was missed when a refresh no longer lists the order as open', async () => {
    let open = [a, b];
    const { actor, parentEvents, lookups } = withServer(
      (input) => Promise.resolve(input.limit === 100 ? page(open, open.length) : page([], 0)),
      () => Promise.resolve([settled(a, 'won', 19.2)]),
    );
    actor.send({ type: 'orders.sessionStarted' });
    await flush();
    expect(actor.getSnapshot().matches({ signedIn: { openOrders: 'watching' } })).toBe(true);
    // The socket was down while `a` settled; it is back (the app asks for a refresh).
    open = [b];
    actor.send({ type: 'orders.refreshRequested' });
    await flush();
    await flush();
    expect(lookups).toEqual([[1]]);
    expect(parentEvents).toEqual([
      { type: 'toast.requested', toast: { type: 'success', messageKey: 'orders.settled_won', params: { pair: { pair_code: 'EURUSD', pair_human_code: 'EUR/USD' }, amount: { money: 19.2, currency: 'USD' }, profit: { money: 9.2, currency: 'USD' } }, settlement: { currency: 'USD', netMinor: 920 } } },
    ]);
    expect(actor.getSnapshot().context).toMatchObject({ open: [b], unconfirmed: [] });
    expect(actor.getSnapshot().matches({ signedIn: { openOrders: 'watching' } })).toBe(true);
    // A late push of the same settlement does not toast it again.
    actor.send({ type: 'orders.orderUpdated', change: 'settled', order: settled(a, 'won', 19.2) });
    expect(parentEvents).toHaveLength(1);
  });

  it('keeps an order whose lookup failed for the next refresh, and ignores one that is still open', async () => {
    let open = [a];
    let lookupFails = true;
    const { actor, parentEvents, lookups } = withServer(
      (input) => Promise.resolve(input.limit === 100 ? page(open, open.length) : page([], 0)),
      () => (lookupFails ? Promise.reject(new Error('')) : Promise.resolve([a])),
    );
    actor.send({ type: 'orders.sessionStarted' });
    await flush();
    open = [];
    actor.send({ type: 'orders.refreshRequested' });
    await flush();
    await flush();
    expect(actor.getSnapshot().matches({ signedIn: { openOrders: 'loaded' } })).toBe(true);
    expect(actor.getSnapshot().context.unconfirmed).toEqual([a]);
    lookupFails = false;
    actor.send({ type: 'orders.refreshRequested' });
    await flush();
    await flush();
    expect(lookups).toEqual([[1], [1]]);
    expect(parentEvents).toEqual([]);
    expect(actor.getSnapshot().context.unconfirmed).toEqual([]);
  });

  it('keeps only the orders whose lookup gave no answer when others answered', async () => {
    let open = [a, b];
    const { actor, parentEvents } = withServer(
      (input) => Promise.resolve(input.limit === 100 ? page(open, open.length) : page([], 0)),
      // The lookup of b failed; fetchOrdersById answers with the orders that came back.
      () => Promise.resolve([settled(a, 'won', 19.2)]),
    );
    actor.send({ type: 'orders.sessionStarted' });
    await flush();
    open = [];
    actor.send({ type: 'orders.refreshRequested' });
    await flush();
    await flush();
    expect(parentEvents).toHaveLength(1);
    expect(actor.getSnapshot().context.unconfirmed).toEqual([b]);
  });

  it('fetches both lists again when an open order is overdue without its settlement', async () => {
    vi.useFakeTimers();
    try {
      const expiring = makeOrder({ order_id: 7, expires_at_ms: Date.now() + 60_000 });
      const { actor, requests } = withServer(() => Promise.resolve(page([expiring], 1)));
      actor.send({ type: 'orders.sessionStarted' });
      await vi.advanceTimersByTimeAsync(0);
      expect(requests).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(60_000 + SETTLEMENT_GRACE_MS - 1);
      expect(requests).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(requests.map((r) => r.limit)).toEqual([10, 100, 10, 100]);
      // Still open on the server: asked again after the grace period, not in a tight loop.
      await vi.advanceTimersByTimeAsync(SETTLEMENT_GRACE_MS);
      expect(requests).toHaveLength(6);
    } finally {
      vi.clearAllTimers();
      vi.useRealTimers();
    }
  });

  it('leaves the toast of an early close made here to the close flow, and toasts one made elsewhere', () => {
    const { actor, parentEvents } = withServer(() => new Promise(() => {}));
    actor.send({ type: 'orders.sessionStarted' });
    actor.send({ type: 'orders.closeRequested', orderId: 1 });
    actor.send({ type: 'orders.orderUpdated', change: 'settled', order: settled(a, 'closed_early', 4.1) });
    expect(parentEvents).toEqual([]);
    actor.send({ type: 'orders.orderUpdated', change: 'settled', order: settled(b, 'closed_early', 12.5) });
    expect(parentEvents).toEqual([
      { type: 'toast.requested', toast: { type: 'info', messageKey: 'orders.settled_closed_early', params: { pair: { pair_code: 'EURUSD', pair_human_code: 'EUR/USD' }, amount: { money: 12.5, currency: 'USD' } }, settlement: { currency: 'USD', netMinor: 250 } } },
    ]);
  });
});
