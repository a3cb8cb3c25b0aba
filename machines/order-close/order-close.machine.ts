/**
 * Closing one open order early, with a confirmation that shows the server's quote (spec
 * section 4, Order: "Closing needs a confirmation"; docs/orders.md section 4). The issue's
 * lifecycle "idle -> confirming -> closing -> closed | failed" maps as follows.
 *
 * `idle` is not a state of this machine: it is the app's `orderCloseFlow.idle`, the region
 * state before a flow starts. Like every wizard (ARCHITECTURE.md section 3) this machine is
 * spawned per flow, by the app on `flow.orderCloseStarted {orderId}` (id and systemId
 * 'orderClose'), and stopped on `flow.orderCloseEnded`; the confirm dialog is open while it
 * lives, so its life starts at `confirming`. Its top-level states:
 * - `confirming`: the dialog asks. `loadingQuote` fetches the order (GET
 *   /api/platform/orders/{id}) with its indicative `close_quote`; the quote is fetched again
 *   every `quoteRefresh` (its validity, 3 s) while the dialog waits in `quoted`. An open order
 *   without a quote (no fresh price, about to expire) waits in `unavailable` and asks again
 *   after `quoteRetry`. A failed fetch is `quoteFailed` (server text or
 *   orders.failed_to_load_details) until `orderClose.retryRequested`. An order that is no
 *   longer open goes straight to `closed` (see there).
 * - `orderClose.confirmed` (with a quote on screen, also while the next quote loads) ->
 *   `closing`: the parent hears `order.closeRequested {orderId}` (so the orders actor leaves
 *   the toast of this close to this flow), then POST /api/platform/orders/{id}/close with
 *   {currency, expected_min}. The quote is indicative and the value moves with every tick, so
 *   the dialog promises "about X, at least Y" with Y = X less CLOSE_SLIPPAGE (1 %) and sends Y
 *   as expected_min: the server pays the value at that moment, and refuses ("Price changed,
 *   please confirm again") rather than pay less than the minimum the trader saw.
 * - `closed` (final). Closed by this flow: `closedOrder` holds the order as closed, a success
 *   toast gives the amount received and the parent hears `order.closed {order}` (the app
 *   refreshes the orders and the balances). Already closed when the quote was asked (settled
 *   at expiry, or closed elsewhere, also after a refused close while the dialog waited):
 *   `closedOrder` stays null and `order` is the closed order with its result and payout
 *   (`isClosedElsewhere`); the quote and any earlier error are dropped, since they no longer
 *   apply, and the dialog shows the result until the trader dismisses it.
 * - `failed`: the dialog stays open with the server's text or orders.failed_to_close_order; a
 *   new quote is fetched after `quoteRefresh` (back in `confirming`; the error stays until the
 *   next confirmation), and the trader may confirm again.
 */
import { assign, fromPromise, sendParent, setup } from 'xstate';
import { CLOSE_QUOTE_VALID_MS, type CloseQuote, type Order, type OrderDetails } from '../../contract/orders';
import { findCurrency } from '../../contract/currencies';
import { fromMinor, mulDivFloor, toMinor } from '../../contract/money';
import { errorText, moneyParam, pairParam, type ToastRequest } from '../types';

export interface OrderCloseInput {
  orderId: number;
}

/** A failure to show: the server's text, or a locale key when it gave none. */
export interface CloseFailure {
  message: string | null;
  key: string;
}

export interface OrderCloseContext {
  orderId: number;
  order: OrderDetails | null;
  quote: CloseQuote | null;
  /** Why the quote could not be fetched. */
  quoteError: CloseFailure | null;
  /** Why the last close was refused; kept until the next confirmation. */
  closeError: CloseFailure | null;
  /** The order as this flow closed it (with the amount paid); null when this flow closed nothing. */
  closedOrder: Order | null;
}

export type OrderCloseEvent = { type: 'orderClose.confirmed' } | { type: 'orderClose.retryRequested' };

export interface FetchOrderInput {
  orderId: number;
}
export interface CloseOrderRequest {
  orderId: number;
  currency: string;
  /** The confirmed quote: the server refuses to pay less. */
  expectedMin: number;
}

export type OrderCloseParentEvent =
  | { type: 'toast.requested'; toast: ToastRequest }
  | { type: 'order.closeRequested'; orderId: number }
  | { type: 'order.closed'; order: Order };

export const QUOTE_RETRY_MS = 1000;
/** How far below the quote the close may still go through (the dialog shows the minimum). */
export const CLOSE_SLIPPAGE_BP = 100;

/** The least the trader accepts for a quote: the quote less CLOSE_SLIPPAGE, toward zero. */
export function minimumAccepted(quote: Pick<CloseQuote, 'amount' | 'currency'>): number {
  const decimals = findCurrency(quote.currency)?.decimals ?? 2;
  const minor = toMinor(quote.amount, decimals) ?? Math.trunc(quote.amount * 10 ** decimals);
  return fromMinor(mulDivFloor(minor, 10_000 - CLOSE_SLIPPAGE_BP, 10_000), decimals);
}
/** In `closed`: the order had closed before this flow could close it (no close of ours). */
export function isClosedElsewhere(context: Pick<OrderCloseContext, 'closedOrder'>): boolean {
  return context.closedOrder === null;
}

const DETAILS_FALLBACK_KEY = 'orders.failed_to_load_details';
const CLOSE_FALLBACK_KEY = 'orders.failed_to_close_order';

export const orderCloseMachine = setup({
  types: {
    context: {} as OrderCloseContext,
    events: {} as OrderCloseEvent,
    input: {} as OrderCloseInput,
  },
  actors: {
    fetchOrder: fromPromise<OrderDetails, FetchOrderInput>(() => {
      throw new Error('orderCloseMachine: the "fetchOrder" actor has no implementation; supply it with orderCloseMachine.provide()');
    }),
    closeOrder: fromPromise<Order, CloseOrderRequest>(() => {
      throw new Error('orderCloseMachine: the "closeOrder" actor has no implementation; supply it with orderCloseMachine.provide()');
    }),
  },
  delays: {
    quoteRefresh: ({ context }) => context.quote?.valid_for_ms ?? CLOSE_QUOTE_VALID_MS,
    quoteRetry: QUOTE_RETRY_MS,
  },
  guards: {
    isOrderClosed: (_, params: { order: OrderDetails }) => params.order.status !== 'open',
    hasQuote: ({ context }) => context.quote !== null,
    isQuoted: (_, params: { order: OrderDetails }) => params.order.close_quote !== null,
  },
  actions: {
    assignOrder: assign((_, params: { order: OrderDetails }) => ({ order: params.order, quote: params.order.close_quote, quoteError: null })),
    /** The order is no longer open: its result is what counts; a quote or a refusal from before no longer applies. */
    assignSettledOrder: assign((_, params: { order: OrderDetails }) => ({ order: params.order, quote: null, quoteError: null, closeError: null })),
    assignQuoteError: assign((_, params: { message: string | null }) => ({ quoteError: { message: params.message, key: DETAILS_FALLBACK_KEY } })),
    clearCloseError: assign({ closeError: null }),
    assignCloseError: assign((_, params: { message: string | null }) => ({ closeError: { message: params.message, key: CLOSE_FALLBACK_KEY } })),
    assignClosed: assign((_, params: { order: Order }) => ({ closedOrder: params.order })),
    toastClosed: sendParent((_, params: { order: Order }): OrderCloseParentEvent => ({
      type: 'toast.requested',
      toast: {
        type: 'success',
        messageKey: 'orders.order_closed_successfully',
        params: { pair: pairParam(params.order), amount: moneyParam(params.order.payout ?? 0, params.order.currency) },
      },
    })),
    notifyClosing: sendParent(({ context }): OrderCloseParentEvent => ({ type: 'order.closeRequested', orderId: context.orderId })),
    notifyClosed: sendParent((_, params: { order: Order }): OrderCloseParentEvent => ({ type: 'order.closed', order: params.order })),
  },
}).createMachine({
  id: 'orderClose',
  context: ({ input }) => ({
    orderId: input.orderId,
    order: null,
    quote: null,
    quoteError: null,
    closeError: null,
    closedOrder: null,
  }),
  initial: 'confirming',
  states: {
    confirming: {
      description: 'The dialog shows the order and asks; the quote is kept fresh.',
      initial: 'loadingQuote',
      states: {
        loadingQuote: {
          description: 'The quote on screen (if any) stays confirmable while the next one loads.',
          invoke: {
            id: 'fetchOrder',
            src: 'fetchOrder',
            input: ({ context }) => ({ orderId: context.orderId }),
            onDone: [
              {
                guard: { type: 'isOrderClosed', params: ({ event }) => ({ order: event.output }) },
                target: '#orderClose.closed',
                description: 'The order settled (or was closed elsewhere) before this close: its result replaces the quote and any refusal.',
                actions: { type: 'assignSettledOrder', params: ({ event }) => ({ order: event.output }) },
              },
              {
                guard: { type: 'isQuoted', params: ({ event }) => ({ order: event.output }) },
                target: 'quoted',
                actions: { type: 'assignOrder', params: ({ event }) => ({ order: event.output }) },
              },
              { target: 'unavailable', actions: { type: 'assignOrder', params: ({ event }) => ({ order: event.output }) } },
            ],
            onError: { target: 'quoteFailed', actions: { type: 'assignQuoteError', params: ({ event }) => ({ message: errorText(event.error) }) } },
          },
          on: {
            'orderClose.confirmed': { guard: 'hasQuote', target: '#orderClose.closing', actions: 'clearCloseError' },
          },
        },
        quoted: {
          after: { quoteRefresh: 'loadingQuote' },
          on: {
            'orderClose.confirmed': { target: '#orderClose.closing', actions: 'clearCloseError' },
          },
        },
        unavailable: {
          description: 'Open, but the server gives no quote now (no fresh price, or at expiry).',
          after: { quoteRetry: 'loadingQuote' },
        },
        quoteFailed: {
          on: {
            'orderClose.retryRequested': 'loadingQuote',
          },
        },
      },
    },
    closing: {
      entry: 'notifyClosing',
      invoke: {
        id: 'closeOrder',
        src: 'closeOrder',
        input: ({ context }) => ({
          orderId: context.orderId,
          currency: context.order?.currency ?? '',
          expectedMin: context.quote ? minimumAccepted(context.quote) : 0,
        }),
        onDone: {
          target: 'closed',
          actions: [
            { type: 'assignClosed', params: ({ event }) => ({ order: event.output }) },
            { type: 'toastClosed', params: ({ event }) => ({ order: event.output }) },
            { type: 'notifyClosed', params: ({ event }) => ({ order: event.output }) },
          ],
        },
        onError: { target: 'failed', actions: { type: 'assignCloseError', params: ({ event }) => ({ message: errorText(event.error) }) } },
      },
    },
    closed: {
      type: 'final',
      description: 'Closed by this flow (closedOrder), or found already closed when the quote was asked (closedOrder null).',
    },
    failed: {
      description: 'The dialog stays open with the reason; a fresh quote follows.',
      after: { quoteRefresh: 'confirming' },
      on: {
        'orderClose.confirmed': { target: 'closing', actions: 'clearCloseError' },
      },
    },
  },
});

export type OrderCloseMachine = typeof orderCloseMachine;
