/**
 * Toasts (spec section 2, "Toasts (success, error, warning, info), dismissed on click";
 * section 9: default 3000 ms, 0 or less means no auto-dismiss, success 3 s and error 5 s in the
 * app shell).
 *
 * Lifecycle: long-lived, spawned by the app. `empty` or `showing`. Each `toast.requested` adds an
 * entry with an id from a counter in context and, when its duration is positive, raises a
 * delayed `toast.dismissed` to itself after `toastDuration` (the toast's own duration); a manual
 * dismiss cancels that timer. At most MAX_TOASTS are kept: the oldest goes first.
 */
import { assertEvent, assign, cancel, enqueueActions, setup } from 'xstate';
import type { MessageParams, ToastRequest, ToastType } from '../types';

export interface Toast {
  id: number;
  messageKey?: string;
  message?: string;
  params?: MessageParams;
  type: ToastType;
  /** Milliseconds until it dismisses itself; 0 or less: it stays until dismissed. */
  duration: number;
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
      return { toasts: [...context.toasts, toast].slice(-MAX_TOASTS), nextId: context.nextId + 1 };
    }),
    scheduleDismiss: enqueueActions(({ context, enqueue }) => {
      const toast = newestToast(context);
      if (!toast) return;
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
        'toast.dismissed': [
          { guard: 'isLastToast', target: 'empty', actions: ['cancelDismissTimer', 'removeToast'] },
          { actions: ['cancelDismissTimer', 'removeToast'] },
        ],
      },
    },
  },
});
