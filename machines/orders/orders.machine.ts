/**
 * The orders panel's data: a paged list (tabs Active / All, account filter All / Real / Demo,
 * 10 a page) and every open order (spec section 2, Orders panel; section 9, page size 10).
 *
 * Lifecycle: long-lived, spawned by the app with systemId 'orders'. `signedOut` until the app
 * says a session started (`orders.sessionStarted`); then `signedIn` runs two regions:
 * - `list`: `loading` (GET /api/platform/orders with status open|all, trading_account, limit 10,
 *   offset) -> `loaded`, or `failed` with the server's text (the view falls back to "Failed to
 *   load orders") and a Retry (`orders.retryRequested`). A page past the end (the last order of
 *   the last page settled) loads the new last page instead.
 * - `openOrders`: every open order of the user (status open, up to 100), for the entry-price
 *   lines on the chart and the count on the Active tab. `failed` keeps the last list; the next
 *   update tries again.
 * A tab, filter or page choice reloads the list. A change to any order (`orders.orderUpdated`
 * from the order_update push or from the bet panel; `orders.refreshRequested` after an early
 * close) reloads both regions; the change is applied to the open orders at once so the chart
 * does not wait for the request. A settled order is announced with a toast: won (payout and
 * profit), lost (the stake), tie or refunded (the stake back); an early close is announced by
 * the close flow itself. `orders.sessionEnded` (logout) forgets everything.
 */
import { assertEvent, assign, enqueueActions, fromPromise, setup } from 'xstate';
import { ORDERS_PAGE_DEFAULT, type Order, type OrderListResponse, type Pagination } from '../../contract/orders';
import { findCurrency } from '../../contract/currencies';
import { errorText, type ToastRequest } from '../types';
import { formatAmount } from '../order-placement/order-placement.machine';

export type OrdersTab = 'active' | 'all';
export type AccountFilter = 'all' | 'real' | 'demo';

export const ORDERS_PAGE_SIZE = ORDERS_PAGE_DEFAULT;
/** How many open orders are kept for the chart lines and the count. */
export const OPEN_ORDERS_LIMIT = 100;

export interface OrdersContext {
  tab: OrdersTab;
  account: AccountFilter;
  /** 1-based. */
  page: number;
  orders: Order[];
  total: number;
  /** The server's text for the last failed load (null: the view shows its fallback). */
  error: string | null;
  /** Which tab, filter and page `orders` belongs to (listKey), so a view can tell old rows from new. */
  loadedFor: string | null;
  /** Every open order, newest first. */
  open: Order[];
}

export type OrderChange = 'opened' | 'settled';

export type OrdersEvent =
  | { type: 'orders.sessionStarted' }
  | { type: 'orders.sessionEnded' }
  | { type: 'orders.tabChosen'; tab: OrdersTab }
  | { type: 'orders.accountChosen'; account: AccountFilter }
  | { type: 'orders.pageChosen'; page: number }
  | { type: 'orders.retryRequested' }
  | { type: 'orders.refreshRequested' }
  | { type: 'orders.orderUpdated'; change: OrderChange; order: Order };

/** GET /api/platform/orders query as the fetchOrders actor receives it. */
export interface FetchOrdersInput {
  status: 'open' | 'all';
  trading_account: 'RealAccount' | 'DemoAccount' | 'all';
  limit: number;
  offset: number;
}

export type OrdersParentEvent = { type: 'toast.requested'; toast: ToastRequest };

const ACCOUNT_QUERY: Record<AccountFilter, FetchOrdersInput['trading_account']> = {
  all: 'all',
  real: 'RealAccount',
  demo: 'DemoAccount',
};

export function listQuery(context: Pick<OrdersContext, 'tab' | 'account' | 'page'>): FetchOrdersInput {
  return {
    status: context.tab === 'active' ? 'open' : 'all',
    trading_account: ACCOUNT_QUERY[context.account],
    limit: ORDERS_PAGE_SIZE,
    offset: (context.page - 1) * ORDERS_PAGE_SIZE,
  };
}

/** Identifies one list query: tab, account filter and page. */
export function listKey(context: Pick<OrdersContext, 'tab' | 'account' | 'page'>): string {
  return `${context.tab}|${context.account}|${context.page}`;
}

export function totalPages(total: number): number {
  return Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE));
}

/**
 * The spec's live estimate of an open order: currency_amount x current price x currency rate -
 * amount in user currency, mirrored for down orders (a down order gains what an up order would
 * lose). Decimal in the order's currency, rounded toward zero to its minor unit.
 */
export function liveEstimate(order: Pick<Order, 'currency_amount' | 'amount_in_user_currency' | 'direction' | 'currency'>, currentPrice: number, rate: number): number {
  const up = order.currency_amount * currentPrice * rate - order.amount_in_user_currency;
  const value = order.direction === 'up' ? up : -up;
  const decimals = findCurrency(order.currency)?.decimals ?? 2;
  const factor = 10 ** decimals;
  // The tiny epsilon absorbs binary noise (9.999999 -> 10) before rounding toward zero.
  const truncated = Math.trunc(value * factor + (value >= 0 ? 1e-6 : -1e-6)) / factor;
  return Object.is(truncated, -0) ? 0 : truncated;
}

/** The toast for a settled order, or null when none is due (an early close toasts itself). */
export function settledToast(order: Order): ToastRequest | null {
  const pair = order.pair_human_code;
  const stake = formatAmount(order.amount, order.currency);
  switch (order.result) {
    case 'won':
      return {
        type: 'success',
        messageKey: 'orders.settled_won',
        params: { pair, amount: formatAmount(order.payout ?? 0, order.currency), profit: formatAmount(order.profit_loss ?? 0, order.currency) },
      };
    case 'lost':
      return { type: 'info', messageKey: 'orders.settled_lost', params: { pair, amount: stake } };
    case 'tie':
      return { type: 'info', messageKey: 'orders.settled_tie', params: { pair, amount: stake } };
    case 'refunded':
      return { type: 'info', messageKey: 'orders.settled_refunded', params: { pair, amount: stake } };
    default:
      return null;
  }
}

function applyChange(open: readonly Order[], change: OrderChange, order: Order): Order[] {
  const others = open.filter((o) => o.order_id !== order.order_id);
  return change === 'opened' && order.status === 'open' ? [order, ...others] : others;
}

export const ordersMachine = setup({
  types: {
    context: {} as OrdersContext,
    events: {} as OrdersEvent,
  },
  actors: {
    fetchOrders: fromPromise<OrderListResponse, FetchOrdersInput>(() => {
      throw new Error('ordersMachine: the "fetchOrders" actor has no implementation; supply it with ordersMachine.provide()');
    }),
  },
  guards: {
    isOtherTab: ({ context, event }) => {
      assertEvent(event, 'orders.tabChosen');
      return event.tab !== context.tab;
    },
    isOtherAccount: ({ context, event }) => {
      assertEvent(event, 'orders.accountChosen');
      return event.account !== context.account;
    },
    isOtherPage: ({ context, event }) => {
      assertEvent(event, 'orders.pageChosen');
      return Number.isInteger(event.page) && event.page >= 1 && event.page !== context.page;
    },
    isPageBeyondEnd: ({ context }, params: { pagination: Pagination; count: number }) =>
      params.count === 0 && context.page > 1 && context.page > totalPages(params.pagination.total_count),
  },
  actions: {
    assignTab: assign(({ event }) => {
      assertEvent(event, 'orders.tabChosen');
      return { tab: event.tab, page: 1 };
    }),
    assignAccount: assign(({ event }) => {
      assertEvent(event, 'orders.accountChosen');
      return { account: event.account, page: 1 };
    }),
    assignPage: assign(({ event }) => {
      assertEvent(event, 'orders.pageChosen');
      return { page: event.page };
    }),
    assignList: assign(({ context }, params: { response: OrderListResponse }) => ({
      orders: params.response.orders,
      total: params.response.pagination.total_count,
      error: null,
      loadedFor: listKey(context),
    })),
    assignLastPage: assign((_, params: { pagination: Pagination }) => ({ page: totalPages(params.pagination.total_count) })),
    assignError: assign((_, params: { message: string | null }) => ({ error: params.message })),
    assignOpen: assign((_, params: { response: OrderListResponse }) => ({ open: params.response.orders })),
    applyChange: assign(({ context, event }) => {
      assertEvent(event, 'orders.orderUpdated');
      return { open: applyChange(context.open, event.change, event.order) };
    }),
    toastSettled: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'orders.orderUpdated');
      if (event.change !== 'settled') return;
      const toast = settledToast(event.order);
      if (toast) enqueue.sendParent({ type: 'toast.requested', toast } satisfies OrdersParentEvent);
    }),
    forget: assign({ tab: 'active', account: 'all', page: 1, orders: [], total: 0, error: null, loadedFor: null, open: [] }),
  },
}).createMachine({
  id: 'orders',
  context: {
    tab: 'active',
    account: 'all',
    page: 1,
    orders: [],
    total: 0,
    error: null,
    loadedFor: null,
    open: [],
  },
  initial: 'signedOut',
  states: {
    signedOut: {
      on: {
        'orders.sessionStarted': 'signedIn',
      },
    },
    signedIn: {
      type: 'parallel',
      on: {
        'orders.sessionEnded': { target: 'signedOut', actions: 'forget' },
        'orders.refreshRequested': { target: ['.list.loading', '.openOrders.loading'] },
        'orders.orderUpdated': {
          target: ['.list.loading', '.openOrders.loading'],
          description: 'Applied to the open orders at once, then both lists are fetched again.',
          actions: ['applyChange', 'toastSettled'],
        },
      },
      states: {
        list: {
          initial: 'loading',
          description: 'A tab, filter or page choice reloads only this region (a running load restarts).',
          on: {
            'orders.tabChosen': { guard: 'isOtherTab', target: '.loading', actions: 'assignTab' },
            'orders.accountChosen': { guard: 'isOtherAccount', target: '.loading', actions: 'assignAccount' },
            'orders.pageChosen': { guard: 'isOtherPage', target: '.loading', actions: 'assignPage' },
          },
          states: {
            loading: {
              description: 'The previous page stays readable (dimmed) while the new one loads.',
              invoke: {
                id: 'fetchOrders',
                src: 'fetchOrders',
                input: ({ context }) => listQuery(context),
                onDone: [
                  {
                    guard: { type: 'isPageBeyondEnd', params: ({ event }) => ({ pagination: event.output.pagination, count: event.output.orders.length }) },
                    target: 'loading',
                    reenter: true,
                    description: 'The page emptied (its orders settled): load the new last page.',
                    actions: { type: 'assignLastPage', params: ({ event }) => ({ pagination: event.output.pagination }) },
                  },
                  { target: 'loaded', actions: { type: 'assignList', params: ({ event }) => ({ response: event.output }) } },
                ],
                onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }) => ({ message: errorText(event.error) }) } },
              },
            },
            loaded: {},
            failed: {
              on: { 'orders.retryRequested': 'loading' },
            },
          },
        },
        openOrders: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'fetchOpenOrders',
                src: 'fetchOrders',
                input: (): FetchOrdersInput => ({ status: 'open', trading_account: 'all', limit: OPEN_ORDERS_LIMIT, offset: 0 }),
                onDone: { target: 'loaded', actions: { type: 'assignOpen', params: ({ event }) => ({ response: event.output }) } },
                onError: { target: 'failed' },
              },
            },
            loaded: {},
            failed: {
              description: 'The last known open orders stay; the next change or refresh tries again.',
            },
          },
        },
      },
    },
  },
});

export type OrdersMachine = typeof ordersMachine;
