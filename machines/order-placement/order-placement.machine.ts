/**
 * The bet panel: amount, bet time and the Up / Down click that places an order (spec sections 2
 * and 5, Order; docs/orders.md for the server's rules).
 *
 * Lifecycle: long-lived, spawned by the app with systemId 'orderPlacement', so the amount and
 * bet time survive leaving the trading screen. The panel (and the keyboard) send intents: what
 * was typed (`amountChanged`, `expiryChanged`), a step (`amountStepped`, `expiryStepped`), a unit
 * (`expiryUnitChanged`), leaving the amount (`amountLeft`); the rules live in bet-rules.ts (steps,
 * presets, which reason the panel shows: `shownProblem`). The amount belongs to a currency
 * (`currency`): when the account currency is another one, the view sends
 * `orderPlacement.currencyChanged {currency}` and the amount restarts at that currency's first
 * preset, so a 10 typed for USD never becomes 10 BTC.
 *
 * `orderPlacement.placeRequested {direction, setup}` carries what the click is about: whether a
 * session exists, the current pair, the account (the balance actor's selected currency and
 * type) and that account's balance. The bet is checked with `betProblem` (the same stake rules
 * as the server, in locale keys): a refused click stays in `ready` with `problem` set, which
 * the panel shows in place of the return (no toast: the reason is already on screen next to
 * the buttons). An acceptable one goes to `placing`, which invokes `createOrder` (the real actor
 * gives every invocation, i.e. every click, a fresh client_request_id and reuses it if it has to
 * retry the request, so a retry never places a second order). Clicks while placing are ignored.
 * Success: a toast with pair, direction, amount and expiry time, and the parent hears
 * `order.placed {order}` (the orders list refreshes). Failure: an error toast with the server's
 * text, or `trading.failed_to_create_order`; except the pair's risk limit (OrderErrorText.riskLimit),
 * which is a reason about this bet: `problem` {field: 'risk'}, shown in the panel's slot.
 */
import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import { OrderErrorText, type Order, type OrderDirection, type TradingAccount } from '../../contract/orders';
import { errorText, moneyParam, pairParam, type ToastRequest } from '../types';
import {
  betProblem,
  convertExpiry,
  expirySeconds,
  firstPreset,
  normalizeAmount,
  stepAmount,
  stepExpiry,
  tradingAccountFor,
  type BetProblem,
  type ExpiryUnit,
  type TradeSetup,
} from './bet-rules';

export type { BetProblem, ExpiryUnit, TradeSetup } from './bet-rules';

/** The locale key of the server's risk-limit refusal (src/i18n/server-texts.ts catalogue `orders`). */
export const RISK_LIMIT_KEY = 'server_texts.orders.risk_limit';

export interface OrderPlacementContext {
  /** The amount as typed (a comma is accepted as the decimal separator). */
  amount: string;
  /** The currency `amount` was chosen for (null until the view names one). */
  currency: string | null;
  expiryValue: number;
  expiryUnit: ExpiryUnit;
  /** The direction of the order being placed (its button shows the spinner). */
  direction: OrderDirection | null;
  /** Why the last click was refused; cleared by the next edit or click. */
  problem: BetProblem | null;
  /** The trader left the amount field or clicked: an empty amount is now worth a reason. */
  touched: boolean;
  /** The last order this panel opened. */
  lastOrder: Order | null;
}

export type OrderPlacementEvent =
  | { type: 'orderPlacement.amountChanged'; amount: string }
  /** - / + on the amount (button or key): one step of the currency's grid, within its min and max bet. */
  | { type: 'orderPlacement.amountStepped'; step: 1 | -1 }
  /** The trader left the amount field. */
  | { type: 'orderPlacement.amountLeft' }
  | { type: 'orderPlacement.expiryChanged'; value: number; unit: ExpiryUnit }
  /** - / + on the bet time (button or key). */
  | { type: 'orderPlacement.expiryStepped'; step: 1 | -1 }
  /** Seconds / minutes: the same bet time in the other unit. */
  | { type: 'orderPlacement.expiryUnitChanged'; unit: ExpiryUnit }
  /** The account currency is now `currency`; the amount restarts at its first preset. */
  /** `perUsd`: the currency's units per USD at the live prices (bet-rules.ts stakePresets), when the feed has one. */
  | { type: 'orderPlacement.currencyChanged'; currency: string; perUsd?: number }
  | { type: 'orderPlacement.placeRequested'; direction: OrderDirection; setup: TradeSetup };

/** POST /api/v2/orders as the createOrder actor receives it. */
export interface CreateOrderInput {
  pair_code: string;
  direction: OrderDirection;
  amount: number;
  currency: string;
  trading_account: TradingAccount;
  expiry: number;
}

export type OrderPlacementParentEvent = { type: 'toast.requested'; toast: ToastRequest } | { type: 'order.placed'; order: Order };

export const DEFAULT_AMOUNT = '10';
export const DEFAULT_EXPIRY = { value: 1, unit: 'minutes' as ExpiryUnit };
const CREATE_FALLBACK_KEY = 'trading.failed_to_create_order';

/** A clock time "HH:mm:ss" in the browser's time zone. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

function orderRequest(context: OrderPlacementContext, direction: OrderDirection, setup: TradeSetup): CreateOrderInput {
  return {
    pair_code: setup.pair?.pairCode ?? '',
    direction,
    amount: Number(normalizeAmount(context.amount) ?? NaN),
    currency: setup.currency.toUpperCase(),
    trading_account: tradingAccountFor(setup.balanceType),
    expiry: expirySeconds(context.expiryValue, context.expiryUnit),
  };
}

/** The toast that confirms an opened order. */
export function orderOpenedToast(order: Order): ToastRequest {
  return {
    type: 'success',
    messageKey: order.direction === 'up' ? 'trading.order_opened_up' : 'trading.order_opened_down',
    params: { pair: pairParam(order), amount: moneyParam(order.amount, order.currency), time: clockTime(order.expires_at_ms) },
  };
}

export const orderPlacementMachine = setup({
  types: {
    context: {} as OrderPlacementContext,
    events: {} as OrderPlacementEvent,
  },
  actors: {
    createOrder: fromPromise<Order, CreateOrderInput>(() => {
      throw new Error('orderPlacementMachine: the "createOrder" actor has no implementation; supply it with orderPlacementMachine.provide()');
    }),
  },
  guards: {
    isOtherCurrency: ({ context, event }) => {
      assertEvent(event, 'orderPlacement.currencyChanged');
      return context.currency !== event.currency;
    },
    isBetRefused: ({ context, event }) => {
      assertEvent(event, 'orderPlacement.placeRequested');
      return betProblem(context, event.setup) !== null;
    },
    isRiskRefusal: (_, params: { message: string | null }) => params.message === OrderErrorText.riskLimit,
  },
  actions: {
    assignAmount: assign(({ event }) => {
      assertEvent(event, 'orderPlacement.amountChanged');
      return { amount: event.amount, problem: null };
    }),
    assignCurrency: assign(({ event }) => {
      assertEvent(event, 'orderPlacement.currencyChanged');
      return { currency: event.currency, amount: firstPreset(event.currency, event.perUsd), problem: null };
    }),
    stepAmount: assign(({ context, event }) => {
      assertEvent(event, 'orderPlacement.amountStepped');
      return { amount: stepAmount(context.amount, context.currency ?? '', event.step), problem: null };
    }),
    markTouched: assign({ touched: true }),
    stepExpiry: assign(({ context, event }) => {
      assertEvent(event, 'orderPlacement.expiryStepped');
      return { expiryValue: stepExpiry(context.expiryValue, context.expiryUnit, event.step), problem: null };
    }),
    convertExpiry: assign(({ context, event }) => {
      assertEvent(event, 'orderPlacement.expiryUnitChanged');
      return { expiryValue: convertExpiry(context.expiryValue, context.expiryUnit, event.unit), expiryUnit: event.unit, problem: null };
    }),
    assignExpiry: assign(({ event }) => {
      assertEvent(event, 'orderPlacement.expiryChanged');
      return { expiryValue: event.value, expiryUnit: event.unit, problem: null };
    }),
    assignProblem: assign(({ context, event }) => {
      assertEvent(event, 'orderPlacement.placeRequested');
      return { problem: betProblem(context, event.setup), touched: true };
    }),
    startPlacing: assign(({ event }) => {
      assertEvent(event, 'orderPlacement.placeRequested');
      return { direction: event.direction, problem: null, touched: true };
    }),
    assignRiskProblem: assign({ problem: (): BetProblem => ({ field: 'risk', key: RISK_LIMIT_KEY }) }),
    finishPlacing: assign((_, params: { order: Order | null }) => ({ direction: null, lastOrder: params.order ?? null })),
    toastOpened: sendParent((_, params: { order: Order }): OrderPlacementParentEvent => ({ type: 'toast.requested', toast: orderOpenedToast(params.order) })),
    notifyPlaced: sendParent((_, params: { order: Order }): OrderPlacementParentEvent => ({ type: 'order.placed', order: params.order })),
    toastFailed: sendParent((_, params: { message: string | null }): OrderPlacementParentEvent => ({
      type: 'toast.requested',
      toast: params.message ? { type: 'error', message: params.message } : { type: 'error', messageKey: CREATE_FALLBACK_KEY },
    })),
  },
}).createMachine({
  id: 'orderPlacement',
  context: {
    amount: DEFAULT_AMOUNT,
    currency: null,
    expiryValue: DEFAULT_EXPIRY.value,
    expiryUnit: DEFAULT_EXPIRY.unit,
    direction: null,
    problem: null,
    touched: false,
    lastOrder: null,
  },
  on: {
    'orderPlacement.amountChanged': { actions: 'assignAmount' },
    'orderPlacement.amountStepped': { actions: 'stepAmount' },
    'orderPlacement.amountLeft': { actions: 'markTouched' },
    'orderPlacement.expiryChanged': { actions: 'assignExpiry' },
    'orderPlacement.expiryStepped': { actions: 'stepExpiry' },
    'orderPlacement.expiryUnitChanged': { actions: 'convertExpiry' },
    'orderPlacement.currencyChanged': {
      guard: 'isOtherCurrency',
      description: 'Another account currency: its first preset replaces the amount.',
      actions: 'assignCurrency',
    },
  },
  initial: 'ready',
  states: {
    ready: {
      on: {
        'orderPlacement.placeRequested': [
          { guard: 'isBetRefused', description: 'Nothing is sent; the panel shows the reason next to the buttons.', actions: 'assignProblem' },
          { target: 'placing', actions: 'startPlacing' },
        ],
      },
    },
    placing: {
      description: 'One order at a time: further clicks are ignored until the server answers.',
      invoke: {
        id: 'createOrder',
        src: 'createOrder',
        input: ({ context, event }) => {
          assertEvent(event, 'orderPlacement.placeRequested');
          return orderRequest(context, event.direction, event.setup);
        },
        onDone: {
          target: 'ready',
          actions: [
            { type: 'finishPlacing', params: ({ event }) => ({ order: event.output }) },
            { type: 'toastOpened', params: ({ event }) => ({ order: event.output }) },
            { type: 'notifyPlaced', params: ({ event }) => ({ order: event.output }) },
          ],
        },
        onError: [
          {
            guard: { type: 'isRiskRefusal', params: ({ event }) => ({ message: errorText(event.error) }) },
            description: "The pair's risk limit refused the order: the reason goes in the panel's slot, not a toast.",
            target: 'ready',
            actions: [{ type: 'finishPlacing', params: ({ context }) => ({ order: context.lastOrder }) }, 'assignRiskProblem'],
          },
          {
            target: 'ready',
            actions: [
              { type: 'finishPlacing', params: ({ context }) => ({ order: context.lastOrder }) },
              { type: 'toastFailed', params: ({ event }) => ({ message: errorText(event.error) }) },
            ],
          },
        ],
      },
    },
  },
});
