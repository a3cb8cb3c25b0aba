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
 *   lines on the chart and the count on the Active tab. With open orders it is `watching`: if
 *   the earliest expiry plus SETTLEMENT_GRACE_MS passes without its settlement arriving (a push
 *   missed while the socket was down, or the server restarted), both regions are fetched again
 *   (`settlementOverdue`), so a card never stays "Settling..." forever. Without any it is
 *   `loaded`. `failed` keeps the last list; the next update tries again.
 * A tab, filter or page choice reloads the list. A change to any order (`orders.orderUpdated`
 * from the order_update push, a placed order or an early close made here) and
 * `orders.refreshRequested` (the app, whenever the socket is back and authenticated) reload
 * both regions; a change is applied to the open orders at once so the chart does not wait.
 * Settled orders seen here (a push, or a missed one looked up) are kept in `settled` (newest
 * first, at most REMEMBERED_ORDERS) for the chart's win/loss markers.
 *
 * Settlement toasts: won (payout and profit), lost (the stake), tie or refunded (the stake
 * back), closed early (the amount received). A settled push toasts at once. An order the
 * client last saw open that a fresh open list no longer has (its push was missed) is looked up
 * in `confirmingSettlements` (`fetchSettledOrders`, the order by id) and toasted then. Each
 * order toasts at most once (`announced`), and an early close this client asked for
 * (`orders.closeRequested`, from the close flow through the app) is left to the close flow's
 * own toast. `orders.sessionEnded` (logout) forgets everything.
 */
import { assertEvent, assign, enqueueActions, fromPromise, setup } from 'xstate';
import { ORDERS_PAGE_DEFAULT, type Order, type OrderListResponse, type Pagination } from '../../contract/orders';
import { findCurrency } from '../../contract/currencies';
import { errorText, moneyParam, pairParam, type ToastRequest } from '../types';

export type OrdersTab = 'active' | 'all';
export type AccountFilter = 'all' | 'real' | 'demo';

export const ORDERS_PAGE_SIZE = ORDERS_PAGE_DEFAULT;
/** How many open orders are kept for the chart lines and the count. */
export const OPEN_ORDERS_LIMIT = 100;
/**
 * How long after an open order's expiry its settlement may take to arrive before the orders
 * are fetched again; also the least time between two such checks while the server still shows
 * it open.
 */
export const SETTLEMENT_GRACE_MS = 5_000;
/** How many announced settlements and requested closes are remembered (for the once-only toast). */
export const REMEMBERED_ORDERS = 50;
/** The longest timer the browser keeps (setTimeout overflows above it). */
const MAX_TIMER_MS = 2_147_483_647;

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
  /** Orders last seen open that a fresh open list no longer has: their outcome is looked up. */
  unconfirmed: Order[];
  /** Orders whose settlement was toasted, newest last (at most REMEMBERED_ORDERS). */
  announced: number[];
  /** Orders this client asked to close early, newest last: the close flow toasts their close. */
  closedHere: number[];
  /**
   * Orders seen settling in this session (a push or a missed one looked up), newest first, at
   * most REMEMBERED_ORDERS: the chart marks their result where they ended (issue 26).
   */
  settled: Order[];
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
  | { type: 'orders.closeRequested'; orderId: number }
  | { type: 'orders.orderUpdated'; change: OrderChange; order: Order };

/** GET /api/platform/orders query as the fetchOrders actor receives it. */
export interface FetchOrdersInput {
  status: 'open' | 'all';
  trading_account: 'RealAccount' | 'DemoAccount' | 'all';
  limit: number;
  offset: number;
}

/** The orders to look up by id (GET /api/platform/orders/{id}); the actor answers those it found. */
export interface FetchSettledOrdersInput {
  orderIds: number[];
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

/** The toast for a settled order, or null when none is due (still open). */
export function settledToast(order: Order): ToastRequest | null {
  const toast = settledToastText(order);
  if (!toast) return null;
  // Its net result, so settlements arriving together collapse into one toast (machines/toasts).
  const decimals = findCurrency(order.currency)?.decimals ?? 2;
  const netMinor = Math.round((order.profit_loss ?? 0) * 10 ** decimals);
  return { ...toast, settlement: { currency: order.currency.toUpperCase(), netMinor } };
}

function settledToastText(order: Order): ToastRequest | null {
  const pair = pairParam(order);
  const stake = moneyParam(order.amount, order.currency);
  switch (order.result) {
    case 'won':
      return {
        type: 'success',
        messageKey: 'orders.settled_won',
        params: { pair, amount: moneyParam(order.payout ?? 0, order.currency), profit: moneyParam(order.profit_loss ?? 0, order.currency) },
      };
    case 'lost':
      return { type: 'info', messageKey: 'orders.settled_lost', params: { pair, amount: stake } };
    case 'tie':
      return { type: 'info', messageKey: 'orders.settled_tie', params: { pair, amount: stake } };
    case 'refunded':
      return { type: 'info', messageKey: 'orders.settled_refunded', params: { pair, amount: stake } };
    case 'closed_early':
      return { type: 'info', messageKey: 'orders.settled_closed_early', params: { pair, amount: moneyParam(order.payout ?? 0, order.currency) } };
    default:
      return null;
  }
}

/**
 * The toast due for a settlement the client learnt about, or null: none for an order already
 * announced, none for an early close this client asked for (the close flow toasts it).
 */
export function settlementToastFor(order: Order, context: Pick<OrdersContext, 'announced' | 'closedHere'>): ToastRequest | null {
  if (order.status === 'open' || context.announced.includes(order.order_id)) return null;
  if (order.result === 'closed_early' && context.closedHere.includes(order.order_id)) return null;
  return settledToast(order);
}

/**
 * When the open orders should be fetched again if no settlement arrives: the earliest expiry
 * plus SETTLEMENT_GRACE_MS from `now`, at least SETTLEMENT_GRACE_MS away (an order the server
 * still shows open after its expiry is asked about again every SETTLEMENT_GRACE_MS).
 */
export function settlementCheckDelay(open: readonly Pick<Order, 'expires_at_ms'>[], now: number): number {
  if (open.length === 0) return MAX_TIMER_MS;
  const earliest = Math.min(...open.map((o) => o.expires_at_ms));
  return Math.min(MAX_TIMER_MS, Math.max(SETTLEMENT_GRACE_MS, earliest + SETTLEMENT_GRACE_MS - now));
}

/** Orders of `before` missing from `after` (by id). */
function vanished(before: readonly Order[], after: readonly Order[]): Order[] {
  const still = new Set(after.map((o) => o.order_id));
  return before.filter((o) => !still.has(o.order_id));
}

function remember(list: readonly number[], id: number): number[] {
  return [...list.filter((x) => x !== id), id].slice(-REMEMBERED_ORDERS);
}

/** `settled` with `order` first when it is closed (at most REMEMBERED_ORDERS). */
export function rememberSettled(settled: readonly Order[], order: Order): Order[] {
  if (order.status === 'open') return [...settled];
  return [order, ...settled.filter((o) => o.order_id !== order.order_id)].slice(0, REMEMBERED_ORDERS);
}

function applyChange(open: readonly Order[], change: OrderChange, order: Order): Order[] {
  const others = open.filter((o) => o.order_id !== order.order_id);
  return change === 'opened' && order.status === 'open' ? [order, ...others] : others;
}

/** Signed out: the default view and nothing known (also what logout returns to). */
function emptyContext(): OrdersContext {
  return { tab: 'active', account: 'all', page: 1, orders: [], total: 0, error: null, loadedFor: null, open: [], unconfirmed: [], announced: [], closedHere: [], settled: [] };
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
    fetchSettledOrders: fromPromise<Order[], FetchSettledOrdersInput>(() => {
      throw new Error('ordersMachine: the "fetchSettledOrders" actor has no implementation; supply it with ordersMachine.provide()');
    }),
  },
  delays: {
    settlementOverdue: ({ context }) => settlementCheckDelay(context.open, Date.now()),
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
    hasUnconfirmed: ({ context }, params: { response: OrderListResponse }) =>
      context.unconfirmed.length > 0 || vanished(context.open, params.response.orders).length > 0,
    hasOpenOrders: (_, params: { orders: Order[] }) => params.orders.length > 0,
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
    assignOpen: assign(({ context }, params: { response: OrderListResponse }) => {
      const known = new Set(context.unconfirmed.map((o) => o.order_id));
      const missing = vanished(context.open, params.response.orders).filter((o) => !known.has(o.order_id));
      return { open: params.response.orders, unconfirmed: [...context.unconfirmed, ...missing] };
    }),
    applyChange: assign(({ context, event }) => {
      assertEvent(event, 'orders.orderUpdated');
      return {
        open: applyChange(context.open, event.change, event.order),
        settled: event.change === 'settled' ? rememberSettled(context.settled, event.order) : context.settled,
      };
    }),
    toastSettled: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'orders.orderUpdated');
      if (event.change !== 'settled') return;
      const toast = settlementToastFor(event.order, context);
      if (toast) enqueue.sendParent({ type: 'toast.requested', toast } satisfies OrdersParentEvent);
      enqueue.assign({ announced: remember(context.announced, event.order.order_id) });
    }),
    announceSettled: enqueueActions(({ context, enqueue }, params: { orders: Order[] }) => {
      const asked = new Set(context.unconfirmed.map((o) => o.order_id));
      let announced = context.announced;
      let settled = context.settled;
      for (const order of params.orders) {
        if (!asked.has(order.order_id) || order.status === 'open') continue;
        settled = rememberSettled(settled, order);
        const toast = settlementToastFor(order, { announced, closedHere: context.closedHere });
        if (toast) enqueue.sendParent({ type: 'toast.requested', toast } satisfies OrdersParentEvent);
        announced = remember(announced, order.order_id);
      }
      // An order whose lookup failed (no answer among the orders) stays for the next refresh.
      const answered = new Set(params.orders.map((o) => o.order_id));
      enqueue.assign({ announced, settled, unconfirmed: context.unconfirmed.filter((o) => !answered.has(o.order_id)) });
    }),
    rememberClose: assign(({ context, event }) => {
      assertEvent(event, 'orders.closeRequested');
      return { closedHere: remember(context.closedHere, event.orderId) };
    }),
    forget: assign(() => emptyContext()),
  },
}).createMachine({
  id: 'orders',
  context: () => emptyContext(),

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
        'orders.refreshRequested': {
          target: ['.list.loading', '.openOrders.loading'],
          description: 'After an early close, and whenever the socket is back (a settlement may have been missed meanwhile).',
        },
        'orders.orderUpdated': {
          target: ['.list.loading', '.openOrders.loading'],
          description: 'Applied to the open orders at once, then both lists are fetched again.',
          actions: ['applyChange', 'toastSettled'],
        },
        'orders.closeRequested': {
          description: 'This client closes the order early: the close flow toasts it, so its closed_early settlement does not.',
          actions: 'rememberClose',
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
                onDone: [
                  {
                    guard: { type: 'hasUnconfirmed', params: ({ event }) => ({ response: event.output }) },
                    target: 'confirmingSettlements',
                    description: 'An order last seen open is gone from the list: its settlement push was missed.',
                    actions: { type: 'assignOpen', params: ({ event }) => ({ response: event.output }) },
                  },
                  {
                    guard: { type: 'hasOpenOrders', params: ({ event }) => ({ orders: event.output.orders }) },
                    target: 'watching',
                    actions: { type: 'assignOpen', params: ({ event }) => ({ response: event.output }) },
                  },
                  { target: 'loaded', actions: { type: 'assignOpen', params: ({ event }) => ({ response: event.output }) } },
                ],
                onError: { target: 'failed' },
              },
            },
            confirmingSettlements: {
              description: 'Looks up, by id, the orders that left the open list without a settlement push, to toast their outcome.',
              invoke: {
                id: 'fetchSettledOrders',
                src: 'fetchSettledOrders',
                input: ({ context }): FetchSettledOrdersInput => ({ orderIds: context.unconfirmed.map((o) => o.order_id) }),
                onDone: [
                  {
                    guard: { type: 'hasOpenOrders', params: ({ context }) => ({ orders: context.open }) },
                    target: 'watching',
                    actions: { type: 'announceSettled', params: ({ event }) => ({ orders: event.output }) },
                  },
                  { target: 'loaded', actions: { type: 'announceSettled', params: ({ event }) => ({ orders: event.output }) } },
                ],
                onError: [
                  {
                    guard: { type: 'hasOpenOrders', params: ({ context }) => ({ orders: context.open }) },
                    target: 'watching',
                    description: 'The orders stay unconfirmed: the next refresh looks them up again.',
                  },
                  { target: 'loaded', description: 'The orders stay unconfirmed: the next refresh looks them up again.' },
                ],
              },
            },
            watching: {
              description: 'Open orders shown: if the earliest expiry plus the grace passes without its settlement, both regions are fetched again.',
              after: {
                settlementOverdue: { target: ['#orders.signedIn.list.loading', '#orders.signedIn.openOrders.loading'] },
              },
            },
            loaded: {
              description: 'No open orders.',
            },
            failed: {
              description: 'The last known open orders stay; the next change or refresh tries again.',
            },
          },
        },
      },
    },
  },
});
