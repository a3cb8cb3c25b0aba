/**
 * Toasts (spec section 2, "Toasts (success, error, warning, info), dismissed on click";
 * section 9: default 3000 ms, 0 or less means no auto-dismiss, success 3 s and error 5 s in the
 * app shell).
 *
 * Lifecycle: long-lived, spawned by the app. `empty` or `showing`. Each `toast.requested` adds an
 * entry with an id from a counter in context and, when its duration is positive, raises a
 * delayed `toast.dismissed` to itself after `toastDuration` (the toast's own duration); a manual
 * dismiss cancels that timer. At most MAX_TOASTS are kept: the oldest goes first.
 *
 * Settlements collapse (issue 26): a request that carries a `settlement` while a settlement
 * toast of the same currency still shows joins it instead of stacking: one toast counts the
 * trades and sums their net result ("3 trades closed: +$12.40"), it moves to the newest place
 * and its timer starts again.
 */
import { assertEvent, assign, cancel, enqueueActions, setup } from 'xstate';
import { findCurrency } from '../../contract/currencies';
import type { MessageParams, ToastRequest, ToastType } from '../types';

export interface Toast {
  id: number;
  messageKey?: string;
  message?: string;
  params?: MessageParams;
  type: ToastType;
  /** Milliseconds until it dismisses itself; 0 or less: it stays until dismissed. */
  duration: number;
  /** Settled orders this toast speaks for: how many, in which currency, their net result (minor units). */
  settlement?: { currency: string; netMinor: number; count: number };
}

export interface ToastsContext {
  toasts: Toast[];
  nextId: number;
}

export type ToastsEvent = { type: 'toast.requested'; toast: ToastRequest } | { type: 'toast.dismissed'; id: number };

export const MAX_TOASTS = 5;

/** Default durations by type (ms). */
export const TOAST_DURATIONS: Record<ToastType, number> = {
  success: 3000,
  error: 5000,
  warning: 3000,
  info: 3000,
};

export function toastDuration(request: ToastRequest): number {
  return request.duration ?? TOAST_DURATIONS[request.type];
}

const timerId = (id: number) => `toast.dismiss.${id}`;

/** The settlement toast showing in a currency, if any. */
export function settlementToastIn(toasts: readonly Toast[], currency: string): Toast | undefined {
  return toasts.find((t) => t.settlement?.currency === currency);
}

/** One toast for several settled orders: their count and net result, signed ("+$12.40"). */
export function collapsedSettlement(previous: NonNullable<Toast['settlement']>, netMinor: number): Pick<Toast, 'messageKey' | 'params' | 'type' | 'settlement'> {
  const total = previous.netMinor + netMinor;
  const count = previous.count + 1;
  const decimals = findCurrency(previous.currency)?.decimals ?? 2;
  return {
    type: total > 0 ? 'success' : 'info',
    messageKey: 'orders.settled_many',
    params: { count, sign: total > 0 ? '+' : '', amount: { money: total / 10 ** decimals, currency: previous.currency.toUpperCase() } },
    settlement: { currency: previous.currency, netMinor: total, count },
  };
}

function newestToast(context: ToastsContext): Toast | undefined {
  return context.toasts[context.toasts.length - 1];
}

export const toastsMachine = setup({
  types: {
    context: {} as ToastsContext,
    events: {} as ToastsEvent,
  },
  delays: {
    toastDuration: ({ context }) => newestToast(context)?.duration ?? TOAST_DURATIONS.info,
  },
  actions: {
    addToast: assign(({ context, event }) => {
      assertEvent(event, 'toast.requested');
      const { messageKey, message, params, type } = event.toast;
      const toast: Toast = { id: context.nextId, type, duration: toastDuration(event.toast) };
      if (messageKey !== undefined) toast.messageKey = messageKey;
      if (message !== undefined) toast.message = message;
      if (params !== undefined) toast.params = params;
      if (event.toast.settlement) toast.settlement = { ...event.toast.settlement, count: 1 };
      return { toasts: [...context.toasts, toast].slice(-MAX_TOASTS), nextId: context.nextId + 1 };
    }),
    joinSettlement: assign(({ context, event }) => {
      assertEvent(event, 'toast.requested');
      const request = event.toast.settlement;
      const previous = request && settlementToastIn(context.toasts, request.currency);
      if (!request || !previous?.settlement) return {};
      const joined: Toast = { id: previous.id, duration: toastDuration(event.toast), ...collapsedSettlement(previous.settlement, request.netMinor) };
      return { toasts: [...context.toasts.filter((t) => t.id !== previous.id), joined] };
    }),
    cancelJoinedTimer: cancel(({ context }) => timerId(newestToast(context)?.id ?? 0)),
    scheduleDismiss: enqueueActions(({ context, enqueue }) => {
      const toast = newestToast(context);
      if (!toast || toast.duration <= 0) return;
      enqueue.raise({ type: 'toast.dismissed', id: toast.id }, { id: timerId(toast.id), delay: 'toastDuration' });
    }),
    removeToast: assign(({ context, event }) => {
      assertEvent(event, 'toast.dismissed');
      return { toasts: context.toasts.filter((t) => t.id !== event.id) };
    }),
    cancelDismissTimer: cancel(({ event }) => {
      assertEvent(event, 'toast.dismissed');
      return timerId(event.id);
    }),
  },
  guards: {
    joinsSettlement: ({ context, event }) => {
      assertEvent(event, 'toast.requested');
      const request = event.toast.settlement;
      return request !== undefined && settlementToastIn(context.toasts, request.currency) !== undefined;
    },
    hasAutoDismiss: ({ event }) => {
      assertEvent(event, 'toast.requested');
      return toastDuration(event.toast) > 0;
    },
    isLastToast: ({ context, event }) => {
      assertEvent(event, 'toast.dismissed');
      return context.toasts.every((t) => t.id === event.id);
    },
  },
}).createMachine({
  id: 'toasts',
  context: { toasts: [], nextId: 1 },
  initial: 'empty',
  on: {
    'toast.requested': [
      { guard: 'hasAutoDismiss', target: '.showing', actions: ['addToast', 'scheduleDismiss'] },
      { target: '.showing', description: 'A duration of 0 or less: it stays until dismissed.', actions: 'addToast' },
    ],
  },
  states: {
    empty: {},
    showing: {
      on: {
        'toast.requested': {
          guard: 'joinsSettlement',
          description: 'A settlement while another in its currency shows: one toast for both, its timer started again.',
          actions: ['joinSettlement', 'cancelJoinedTimer', 'scheduleDismiss'],
        },
        'toast.dismissed': [
          { guard: 'isLastToast', target: 'empty', actions: ['cancelDismissTimer', 'removeToast'] },
          { actions: ['cancelDismissTimer', 'removeToast'] },
        ],
      },
    },
  },
});
