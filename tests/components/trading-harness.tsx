/**
 * For the trading component tests: a real app actor (the real machines) whose side effects are
 * stubs the test controls (the socket, the order REST calls), logged in, with pairs, prices and
 * balances fed the way the socket would, rendered inside the runtime and i18n providers.
 */
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { appMachine, type AppInput } from '../../machines/app/app.machine';
import { withFeatures } from '../support/app-features';
import { sessionMachine, type SaveFrontSettingsInput } from '../../machines/session/session.machine';
import { socketMachine, type SocketEmitEvent } from '../../machines/socket/socket.machine';
import { pairsMachine } from '../../machines/pairs/pairs.machine';
import { chartMachine } from '../../machines/chart/chart.machine';
import { orderPlacementMachine, type CreateOrderInput } from '../../machines/order-placement/order-placement.machine';
import { ordersMachine, type FetchOrdersInput, type FetchSettledOrdersInput } from '../../machines/orders/orders.machine';
import { orderCloseMachine, type CloseOrderRequest, type FetchOrderInput } from '../../machines/order-close/order-close.machine';
import type { Order, OrderDetails, OrderListResponse } from '../../contract/orders';
import type { Pair } from '../../contract/market';
import type { Balances } from '../../contract/user';
import { RuntimeProvider } from '../../src/shared/runtime';
import type { AppRuntime } from '../../src/app/create-app-actor';
import { I18nProvider } from '../../src/i18n';
import { makeUser } from '../machines/fixtures';

export interface TradingServer {
  createOrder: (input: CreateOrderInput) => Promise<Order>;
  listOrders: (input: FetchOrdersInput) => Promise<OrderListResponse>;
  /** The orders machine's look-up of orders that left the open list (by id). */
  lookupOrders: (input: FetchSettledOrdersInput) => Promise<Order[]>;
  getOrder: (input: FetchOrderInput) => Promise<OrderDetails>;
  closeOrder: (input: CloseOrderRequest) => Promise<Order>;
}

export const never = <T,>() => new Promise<T>(() => {});

export function emptyPage(): OrderListResponse {
  return { orders: [], pagination: { total_count: 0, limit: 10, offset: 0, has_more: false, next_offset: null } };
}

export function startTradingApp(server: Partial<TradingServer> = {}, options: { balances?: Balances; loggedIn?: boolean } = {}) {
  const emitted: SocketEmitEvent[] = [];
  const calls = { createOrder: [] as CreateOrderInput[], listOrders: [] as FetchOrdersInput[], getOrder: [] as FetchOrderInput[], closeOrder: [] as CloseOrderRequest[] };
  const logic = appMachine.provide({
    actors: {
      ...withFeatures,
      session: sessionMachine.provide({ actors: { saveFrontSettings: fromPromise<unknown, SaveFrontSettingsInput>(() => Promise.resolve({})) } }),
      socket: socketMachine.provide({
        actors: {
          socketConnection: fromCallback<SocketEmitEvent, { token: string }>(({ receive, sendBack }) => {
            receive((e) => emitted.push(e));
            sendBack({ type: 'socket.connected' });
          }),
        },
      }),
      pairs: pairsMachine.provide({ actors: { chart: chartMachine } }),
      orderPlacement: orderPlacementMachine.provide({
        actors: {
          createOrder: fromPromise<Order, CreateOrderInput>(({ input }) => {
            calls.createOrder.push(input);
            return (server.createOrder ?? never)(input);
          }),
        },
      }),
      orders: ordersMachine.provide({
        actors: {
          fetchOrders: fromPromise<OrderListResponse, FetchOrdersInput>(({ input }) => {
            calls.listOrders.push(input);
            return server.listOrders ? server.listOrders(input) : Promise.resolve(emptyPage());
          }),
          fetchSettledOrders: fromPromise<Order[], FetchSettledOrdersInput>(({ input }) => (server.lookupOrders ? server.lookupOrders(input) : Promise.resolve([]))),
        },
      }),
      orderClose: orderCloseMachine.provide({
        actors: {
          fetchOrder: fromPromise<OrderDetails, FetchOrderInput>(({ input }) => {
            calls.getOrder.push(input);
            return (server.getOrder ?? never)(input);
          }),
          closeOrder: fromPromise<Order, CloseOrderRequest>(({ input }) => {
            calls.closeOrder.push(input);
            return (server.closeOrder ?? never)(input);
          }),
        },
      }),
    },
  });
  const input: AppInput = { persistedSession: null, adminToken: null, storedLanguage: null, storedTheme: null, systemPrefersDark: true };
  const actor = createActor(logic, { input }).start();
  const user = makeUser({ balances: options.balances ?? { USD: { RealBalance: 0, DemoBalance: 10000 } }, front_settings: { current_currency: 'USD', balance_type: 'DemoBalance' } });
  if (options.loggedIn !== false) actor.system.get('session').send({ type: 'session.registered', token: 'tok', refreshToken: null, user });
  const push = (event: string, payload: unknown) => actor.send({ type: 'socket.messageReceived', event, payload });
  const runtime = { actor, services: {} } as unknown as AppRuntime;
  return {
    actor,
    emitted,
    calls,
    push,
    feedPairs(pairs: Pair[], rates: Record<string, number> = {}) {
      push('init_pairs', { pairs });
      push('pairs_rates', { rates: Object.entries(rates).map(([pair_code, current_price]) => ({ pair_code, current_price })) });
    },
    render(ui: ReactNode, language = 'en') {
      return render(
        <RuntimeProvider runtime={runtime}>
          <I18nProvider language={language}>{ui}</I18nProvider>
        </RuntimeProvider>,
      );
    },
    child(id: string) {
      const ref = actor.system.get(id);
      if (!ref) throw new Error(`no actor ${id}`);
      return ref;
    },
  };
}
