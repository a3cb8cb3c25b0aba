/**
 * The bet panel: amount, bet time and the Up / Down click that places an order (spec sections 2
 * and 5, Order; docs/orders.md for the server's rules).
 *
 * Lifecycle: long-lived, spawned by the app with systemId 'orderPlacement', so the amount and
 * bet time survive leaving the trading screen. `ready` holds what the trader typed
 * (`orderPlacement.amountChanged`, `orderPlacement.expiryChanged`); the view computes steps and
 * presets with the pure helpers below and sends the result. The amount belongs to a currency
 * (`currency`): when the account currency is another one, the view sends
 * `orderPlacement.currencyChanged {currency, amount}` with that currency's first preset, so a
 * 10 typed for USD never becomes 10 BTC.
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
import { findCurrency } from '../../contract/currencies';
import { toMinor } from '../../contract/money';
import {
  maxBetMinor,
  minBetMinor,
  OrderErrorText,
  ORDER_MAX_EXPIRY_SECONDS,
  ORDER_MIN_EXPIRY_SECONDS,
  type Order,
  type OrderDirection,
  type TradingAccount,
} from '../../contract/orders';
import type { BalanceType } from '../../contract/user';
import { errorText, type MessageParams, type MoneyParam, type ToastRequest } from '../types';

export type ExpiryUnit = 'seconds' | 'minutes';

/** The locale key of the server's risk-limit refusal (src/i18n/server-texts.ts catalogue `orders`). */
export const RISK_LIMIT_KEY = 'server_texts.orders.risk_limit';

/** Why a click cannot place an order: a locale key, its parameters and the field it is about. */
export interface BetProblem {
  /** `risk`: the server refused the order for its pair's risk limit (docs/money.md); shown in the slot like the others. */
  field: 'session' | 'pair' | 'amount' | 'expiry' | 'risk';
  key: string;
  params?: MessageParams;
}

/** What the view knows at the moment of the click (from the session, pairs and balance actors). */
export interface TradeSetup {
  loggedIn: boolean;
  pair: { pairCode: string; pairHumanCode: string } | null;
  currency: string;
  balanceType: BalanceType;
  /** Balance of the chosen account, decimal in `currency`. */
  available: number;
}

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
  /** The last order this panel opened. */
  lastOrder: Order | null;
}

export type OrderPlacementEvent =
  | { type: 'orderPlacement.amountChanged'; amount: string }
  | { type: 'orderPlacement.expiryChanged'; value: number; unit: ExpiryUnit }
  /** The account currency is now `currency`; `amount` is its first preset. */
  | { type: 'orderPlacement.currencyChanged'; currency: string; amount: string }
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

/** RealBalance is traded on the RealAccount, DemoBalance on the DemoAccount. */
export function tradingAccountFor(balanceType: BalanceType): TradingAccount {
  return balanceType === 'RealBalance' ? 'RealAccount' : 'DemoAccount';
}

/** The bet time in seconds. */
export function expirySeconds(value: number, unit: ExpiryUnit): number {
  return unit === 'minutes' ? value * 60 : value;
}

/** "10,5" -> "10.5"; surrounding spaces dropped. Null when it is not a plain decimal. */
export function normalizeAmount(text: string): string | null {
  const trimmed = text.trim().replace(',', '.');
  return /^\d+(\.\d+)?$/.test(trimmed) ? trimmed : null;
}

/** An amount for a message: rounded toward zero to the currency's decimals, formatted by the view. */
export function moneyParam(amount: number, currency: string): MoneyParam {
  const decimals = findCurrency(currency)?.decimals ?? 2;
  const minor = toMinor(amount, decimals) ?? Math.trunc(amount * 10 ** decimals);
  return { money: minor / 10 ** decimals, currency: currency.toUpperCase() };
}

/** A clock time "HH:mm:ss" in the browser's time zone. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/**
 * Why this bet cannot be placed, or null. The stake rules are the server's (contract/orders.ts:
 * more decimals than the currency has is refused, never rounded; min and max per currency),
 * plus the balance of the chosen account.
 */
export function betProblem(bet: Pick<OrderPlacementContext, 'amount' | 'expiryValue' | 'expiryUnit'>, setup: TradeSetup): BetProblem | null {
  if (!setup.loggedIn) return { field: 'session', key: 'trading.login_to_bet' };
  if (!setup.pair) return { field: 'pair', key: 'trading.no_pair_selected' };
  const amountProblem = stakeProblemKey(bet.amount, setup.currency, setup.available);
  if (amountProblem) return amountProblem;
  return expiryProblem(bet.expiryValue, bet.expiryUnit);
}

/** The bet-time part of betProblem (the view shows it as the trader types). */
export function expiryProblem(value: number, unit: ExpiryUnit): BetProblem | null {
  const seconds = expirySeconds(value, unit);
  if (!Number.isInteger(seconds) || seconds < ORDER_MIN_EXPIRY_SECONDS || seconds > ORDER_MAX_EXPIRY_SECONDS) {
    return { field: 'expiry', key: 'trading.expiry_range' };
  }
  return null;
}

/** The amount part of betProblem (the view shows it under the field as the trader types). */
export function stakeProblemKey(amount: string, currencyCode: string, available: number): BetProblem | null {
  const currency = findCurrency(currencyCode);
  if (!currency) return { field: 'amount', key: 'trading.unknown_currency' };
  if (amount.trim() === '') return { field: 'amount', key: 'trading.amount_required' };
  const normalized = normalizeAmount(amount);
  if (normalized === null) return { field: 'amount', key: 'trading.amount_invalid' };
  const minor = toMinor(normalized, currency.decimals);
  if (minor === null) return { field: 'amount', key: 'trading.amount_decimals', params: { decimals: currency.decimals, currency: currency.iso_code } };
  if (minor <= 0) return { field: 'amount', key: 'trading.amount_positive' };
  const min = minBetMinor(currency);
  const max = maxBetMinor(currency);
  if (minor < min) return { field: 'amount', key: 'trading.amount_min', params: { min: moneyParam(min / 10 ** currency.decimals, currency.iso_code) } };
  if (minor > max) return { field: 'amount', key: 'trading.amount_max', params: { max: moneyParam(max / 10 ** currency.decimals, currency.iso_code) } };
  const balance = toMinor(available, currency.decimals) ?? Math.floor(available * 10 ** currency.decimals);
  if (minor > balance) return { field: 'amount', key: 'trading.insufficient_balance' };
  return null;
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
    params: { pair: order.pair_human_code, amount: moneyParam(order.amount, order.currency), time: clockTime(order.expires_at_ms) },
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
      return { currency: event.currency, amount: event.amount, problem: null };
    }),
    assignExpiry: assign(({ event }) => {
      assertEvent(event, 'orderPlacement.expiryChanged');
      return { expiryValue: event.value, expiryUnit: event.unit, problem: null };
    }),
    assignProblem: assign(({ context, event }) => {
      assertEvent(event, 'orderPlacement.placeRequested');
      return { problem: betProblem(context, event.setup) };
    }),
    startPlacing: assign(({ event }) => {
      assertEvent(event, 'orderPlacement.placeRequested');
      return { direction: event.direction, problem: null };
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
    lastOrder: null,
  },
  on: {
    'orderPlacement.amountChanged': { actions: 'assignAmount' },
    'orderPlacement.expiryChanged': { actions: 'assignExpiry' },
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

export type OrderPlacementMachine = typeof orderPlacementMachine;
