/**
 * The real implementations of what the trading machines name: the REST calls through
 * trading-api.ts (the orders machine's look-up of settlements it missed included) and the
 * watcher that tells the chart when the live socket drops.
 * tradingImplementations() returns the pairs (with its chart), orderPlacement, orders and
 * orderClose machines provided with them, ready to be spread into createImplementations().
 *
 * Failures reach the machines as an Error whose message is the server's text, or empty when
 * the server gave none, so the machines fall back to their own (translated) locale key.
 */
import { fromCallback, fromPromise, type AnyActorRef } from 'xstate';
import type { Order, OrderDetails, OrderListResponse } from '../../contract/orders';
import { chartMachine, type ChartEvent } from '../../machines/chart/chart.machine';
import { pairsMachine } from '../../machines/pairs/pairs.machine';
import { orderPlacementMachine, type CreateOrderInput } from '../../machines/order-placement/order-placement.machine';
import { ordersMachine, type FetchOrdersInput, type FetchSettledOrdersInput } from '../../machines/orders/orders.machine';
import { orderCloseMachine, type CloseOrderRequest, type FetchOrderInput } from '../../machines/order-close/order-close.machine';
import { ApiError, type HttpClient } from './http';
import { createTradingApi, type TradingApi } from './trading-api';
import { retryOnce } from './retry';
import { RETRY_DELAY_MS } from '../../machines/retry-policy';

export interface TradingDeps {
  http?: HttpClient;
  /** For tests: another API object. */
  tradingApi?: TradingApi;
  /** For tests: the pause before a retry (ms). */
  retryDelayMs?: number;
}

/** 24 random hex characters: a client_request_id ("8-64 of A-Za-z0-9_-"). */
export function newClientRequestId(): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  return 'web-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}


/** The failure as the machines read it: the server's text, or nothing (they use a locale key). */
export function serverTextOnly(error: unknown): Error {
  if (error instanceof ApiError) return new Error(error.serverMessage ?? '');
  return new Error('');
}

async function rethrowing<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw serverTextOnly(error);
  }
}

/**
 * The orders by id (GET /api/platform/orders/{id} each): those that answered. Fails only when
 * none did; the orders machine keeps every order without an answer for its next refresh.
 */
export async function fetchOrdersById(api: Pick<TradingApi, 'getOrder'>, orderIds: readonly number[]): Promise<Order[]> {
  const results = await Promise.allSettled(orderIds.map((id) => api.getOrder(id)));
  const found: Order[] = [];
  for (const result of results) {
    if (result.status === 'fulfilled') found.push(result.value);
  }
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (found.length === 0 && failure) throw serverTextOnly(failure.reason);
  return found;
}

function hasTag(actor: AnyActorRef, tag: string): boolean {
  const snapshot: unknown = actor.getSnapshot();
  const check: unknown = typeof snapshot === 'object' && snapshot !== null ? Reflect.get(snapshot, 'hasTag') : undefined;
  return typeof check === 'function' && Boolean(check.call(snapshot, tag));
}

/** Tells the chart when the socket stops being live (it is live again when fresh candles come). */
export const watchConnection = fromCallback<ChartEvent>(({ system, sendBack }) => {
  const socket: AnyActorRef | undefined = system.get('socket');
  if (!socket) return () => {};
  let wasLive = hasTag(socket, 'live');
  const subscription = socket.subscribe(() => {
    const live = hasTag(socket, 'live');
    if (wasLive && !live) sendBack({ type: 'chart.connectionLost' });
    wasLive = live;
  });
  return () => subscription.unsubscribe();
});

export function tradingImplementations(deps: TradingDeps) {
  const api = deps.tradingApi ?? (deps.http ? createTradingApi(deps.http) : null);
  if (!api) throw new Error('tradingImplementations: give the HTTP client (ServiceDeps.http) the trading API is built on');
  const retryDelay = deps.retryDelayMs ?? RETRY_DELAY_MS;
  return {
    pairs: pairsMachine.provide({
      actors: { chart: chartMachine.provide({ actors: { watchConnection } }) },
    }),
    orderPlacement: orderPlacementMachine.provide({
      actors: {
        // One id per invocation, i.e. per click; a retry of this click reuses it.
        createOrder: fromPromise<Order, CreateOrderInput>(({ input }) => {
          const clientRequestId = newClientRequestId();
          return rethrowing(() => retryOnce(() => api.createOrder({ ...input, client_request_id: clientRequestId }), retryDelay));
        }),
      },
    }),
    orders: ordersMachine.provide({
      actors: {
        fetchOrders: fromPromise<OrderListResponse, FetchOrdersInput>(({ input }) => rethrowing(() => api.listOrders(input))),
        fetchSettledOrders: fromPromise<Order[], FetchSettledOrdersInput>(({ input }) => fetchOrdersById(api, input.orderIds)),
      },
    }),
    orderClose: orderCloseMachine.provide({
      actors: {
        fetchOrder: fromPromise<OrderDetails, FetchOrderInput>(({ input }) => rethrowing(() => api.getOrder(input.orderId))),
        closeOrder: fromPromise<Order, CloseOrderRequest>(({ input }) =>
          rethrowing(() => retryOnce(() => api.closeOrder(input.orderId, { currency: input.currency, expected_min: input.expectedMin }), retryDelay)),
        ),
      },
    }),
  };
}
