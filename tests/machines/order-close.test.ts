/**
 * Order close: generated paths (quote, refresh, confirm, close, failures), the request it
 * sends (currency and the minimum shown, the quote less 1 %, as expected_min) and what the
 * parent hears. Top-level states: confirming (its quote substates), closing, closed, failed.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fromPromise, type AnyEventObject } from 'xstate';
import type { Order, OrderDetails } from '../../contract/orders';
import { isClosedElsewhere, minimumAccepted, orderCloseMachine, type CloseOrderRequest, type FetchOrderInput } from '../../machines/order-close/order-close.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';
import { details, makeOrder, quote, settled } from './trading-fixtures';

const order = makeOrder({ order_id: 42, amount: 100 });
const closedEarly = settled(order, 'closed_early', 181.34);
const input = { orderId: 42 };

const events: AnyEventObject[] = [
  { type: 'orderClose.confirmed' },
  { type: 'orderClose.retryRequested' },
  { type: 'xstate.done.actor.fetchOrder', output: details(order, quote(181.34)) },
  { type: 'xstate.done.actor.fetchOrder', output: details(order, null) },
  { type: 'xstate.done.actor.fetchOrder', output: details(settled(order, 'won', 192), null) },
  { type: 'xstate.error.actor.fetchOrder', error: { message: 'Order not found' } },
  { type: 'xstate.done.actor.closeOrder', output: closedEarly },
  { type: 'xstate.error.actor.closeOrder', error: { message: 'Price changed, please confirm again' } },
  { type: 'xstate.error.actor.closeOrder', error: null },
];

const model: PathModel = {
  name: 'orderClose',
  machine: orderCloseMachine,
  input,
  events,
  simplePaths: 300,
  simplePathEvents: [events[0], events[1], events[2], events[5], events[6], events[7]],
};

describe('order close machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('orderClose'));
});

describe('the minimum a close accepts', () => {
  it('is the quote less 1 %, rounded toward zero in minor units', () => {
    expect(minimumAccepted({ amount: 181.34, currency: 'USD' })).toBe(179.52);
    expect(minimumAccepted({ amount: 0.01, currency: 'USD' })).toBe(0);
    expect(minimumAccepted({ amount: 100, currency: 'USD' })).toBe(99);
    expect(minimumAccepted({ amount: 0.00012345, currency: 'BTC' })).toBe(0.00012221);
  });
});

describe('closing an order', () => {
  function withServer(options: { fetch: () => Promise<OrderDetails>; close: () => Promise<Order> }) {
    const fetches: FetchOrderInput[] = [];
    const closes: CloseOrderRequest[] = [];
    const machine = orderCloseMachine.provide({
      actors: {
        fetchOrder: fromPromise<OrderDetails, FetchOrderInput>(({ input: i }) => {
          fetches.push(i);
          return options.fetch();
        }),
        closeOrder: fromPromise<Order, CloseOrderRequest>(({ input: i }) => {
          closes.push(i);
          return options.close();
        }),
      },
    });
    return { fetches, closes, ...startUnderParent(machine, input) };
  }
  const flush = () => new Promise((r) => setTimeout(r, 0));

  it('shows the quote, closes with it as the minimum, toasts the amount and tells the parent', async () => {
    const { actor, parentEvents, fetches, closes } = withServer({
      fetch: () => Promise.resolve(details(order, quote(181.34))),
      close: () => Promise.resolve(closedEarly),
    });
    expect(actor.getSnapshot().value).toEqual({ confirming: 'loadingQuote' });
    actor.send({ type: 'orderClose.confirmed' });
    expect(actor.getSnapshot().value).toEqual({ confirming: 'loadingQuote' });
    await flush();
    expect(fetches).toEqual([{ orderId: 42 }]);
    expect(actor.getSnapshot().value).toEqual({ confirming: 'quoted' });
    expect(actor.getSnapshot().context.quote?.amount).toBe(181.34);
    actor.send({ type: 'orderClose.confirmed' });
    await flush();
    expect(closes).toEqual([{ orderId: 42, currency: 'USD', expectedMin: 179.52 }]);
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().status).toBe('done');
    expect(isClosedElsewhere(actor.getSnapshot().context)).toBe(false);
    expect(parentEvents.filter((e) => !e.type.startsWith('xstate.done.actor'))).toEqual([
      { type: 'order.closeRequested', orderId: 42 },
      { type: 'toast.requested', toast: { type: 'success', messageKey: 'orders.order_closed_successfully', params: { pair: { pair_code: 'EURUSD', pair_human_code: 'EUR/USD' }, amount: { money: 181.34, currency: 'USD' } } } },
      { type: 'order.closed', order: closedEarly },
    ]);
  });

  it('refreshes the quote while the dialog waits', async () => {
    vi.useFakeTimers();
    try {
      let amount = 100;
      const { actor, fetches } = withServer({
        fetch: () => Promise.resolve(details(order, quote((amount += 1), { valid_for_ms: 3000 }))),
        close: () => Promise.reject(new Error('unused')),
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().context.quote?.amount).toBe(101);
      await vi.advanceTimersByTimeAsync(3000);
      expect(fetches).toHaveLength(2);
      expect(actor.getSnapshot().context.quote?.amount).toBe(102);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stays open with the server text when the close is refused, and confirms again', async () => {
    let refuse = true;
    const { actor, parentEvents, closes } = withServer({
      fetch: () => Promise.resolve(details(order, quote(50))),
      close: () => (refuse ? Promise.reject(new Error('Price changed, please confirm again')) : Promise.resolve(closedEarly)),
    });
    await flush();
    actor.send({ type: 'orderClose.confirmed' });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.closeError).toEqual({ message: 'Price changed, please confirm again', key: 'orders.failed_to_close_order' });
    expect(parentEvents).toEqual([{ type: 'order.closeRequested', orderId: 42 }]);
    refuse = false;
    actor.send({ type: 'orderClose.confirmed' });
    expect(actor.getSnapshot().context.closeError).toBeNull();
    await flush();
    expect(closes).toHaveLength(2);
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('drops the refusal and the quote when the order turns out closed (it expired while the dialog was open)', async () => {
    vi.useFakeTimers();
    try {
      let open = true;
      const won = settled(order, 'won', 192);
      const { actor, parentEvents } = withServer({
        fetch: () => Promise.resolve(open ? details(order, quote(50, { valid_for_ms: 3000 })) : details(won, null)),
        close: () => Promise.reject(new Error('Price changed, please confirm again')),
      });
      await vi.advanceTimersByTimeAsync(0);
      actor.send({ type: 'orderClose.confirmed' });
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().value).toBe('failed');
      open = false;
      await vi.advanceTimersByTimeAsync(3000);
      expect(actor.getSnapshot().value).toBe('closed');
      expect(actor.getSnapshot().context).toMatchObject({ closeError: null, quote: null, quoteError: null, closedOrder: null });
      expect(actor.getSnapshot().context.order).toMatchObject({ result: 'won', payout: 192 });
      expect(parentEvents.filter((e) => e.type === 'toast.requested')).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says when the order already closed, and when the details cannot be loaded', async () => {
    const done = withServer({ fetch: () => Promise.resolve(details(settled(order, 'lost', 0), null)), close: () => Promise.reject(new Error('unused')) });
    const broken = withServer({ fetch: () => Promise.reject(undefined), close: () => Promise.reject(new Error('unused')) });
    await flush();
    expect(done.actor.getSnapshot().value).toBe('closed');
    expect(done.actor.getSnapshot().status).toBe('done');
    expect(isClosedElsewhere(done.actor.getSnapshot().context)).toBe(true);
    expect(done.actor.getSnapshot().context.order?.result).toBe('lost');
    expect(done.parentEvents.filter((e) => !e.type.startsWith('xstate.done.actor'))).toEqual([]);
    expect(broken.actor.getSnapshot().value).toEqual({ confirming: 'quoteFailed' });
    expect(broken.actor.getSnapshot().context.quoteError).toEqual({ message: null, key: 'orders.failed_to_load_details' });
    broken.actor.send({ type: 'orderClose.confirmed' });
    expect(broken.closes).toEqual([]);
  });
});
