/**
 * The trader's price alerts (issue 16 item 7; contract/alerts.ts).
 *
 * Lifecycle: long-lived, spawned by the app with systemId 'priceAlerts'. `loggedOut` until
 * `alerts.sessionStarted`; then `loading` reads the list (GET /api/v2/alerts) and `ready` keeps
 * it; a failed read waits in `failed` for `alerts.retryRequested`. `alerts.sessionEnded` forgets
 * everything.
 * - `ready.idle` -(alerts.createRequested {pairCode, direction, price})-> `ready.creating` (POST);
 *   success puts the alert first and toasts "Alert set"; a refusal keeps the form's text in
 *   `formError` (the server's words, translated by the view) and goes back to idle.
 * - `ready.idle` -(alerts.deleteRequested {alertId})-> `ready.deleting` (DELETE); success drops it
 *   (a 404 too: it is gone either way); another failure toasts it.
 * - `alerts.fired {alert}` (the price_alert push, on every open session) in any logged-in state
 *   marks the alert fired in the list and toasts the news (warning-coloured, kept 10 s). The
 *   push can arrive before the answer that lists the alert (the create, or a list read): a
 *   fired alert stays fired (`keepFired`).
 * - `alerts.formReset` clears `formError` (the dialog opened again).
 */
import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import type { AlertDirection, PriceAlert } from '../../contract/alerts';
import type { ToastRequest } from '../types';
import { errorText, pairParam } from '../types';

export interface CreateAlertRequest {
  pairCode: string;
  direction: AlertDirection;
  price: string;
}

export interface PriceAlertsContext {
  alerts: PriceAlert[];
  maxPending: number;
  /** The last refusal of a new alert (server text) or a locale key. */
  formError: string | null;
  loadError: string | null;
}

export type PriceAlertsEvent =
  | { type: 'alerts.sessionStarted' }
  | { type: 'alerts.sessionEnded' }
  | { type: 'alerts.retryRequested' }
  | { type: 'alerts.createRequested'; request: CreateAlertRequest }
  | { type: 'alerts.deleteRequested'; alertId: number }
  | { type: 'alerts.fired'; alert: PriceAlert }
  | { type: 'alerts.formReset' };

export type PriceAlertsParentEvent = { type: 'toast.requested'; toast: ToastRequest };

export interface AlertList {
  alerts: PriceAlert[];
  max_pending: number;
}

function missing(name: string): never {
  throw new Error(`priceAlertsMachine: the "${name}" actor has no implementation; supply it with priceAlertsMachine.provide()`);
}

/** Waiting alerts (fired ones stay in the list, marked). */
export function unfiredAlerts(alerts: readonly PriceAlert[]): PriceAlert[] {
  return alerts.filter((a) => a.fired_at_ms === null);
}

/**
 * `alert` as the list should hold it: a waiting copy of an alert `known` already has as fired
 * stays fired. The price_alert push can overtake the answer that lists the alert (it fires on the
 * tick after it is stored, and the socket and the request are two connections), and an answer
 * read before the firing must not undo it.
 */
export function keepFired(alert: PriceAlert, known: readonly PriceAlert[]): PriceAlert {
  if (alert.fired_at_ms !== null) return alert;
  return known.find((a) => a.alert_id === alert.alert_id && a.fired_at_ms !== null) ?? alert;
}

/** The toast of a fired alert; the view formats the prices in the reader's language. */
export function firedToast(alert: PriceAlert): ToastRequest {
  return {
    type: 'warning',
    messageKey: alert.direction === 'above' ? 'alerts.fired_above' : 'alerts.fired_below',
    params: {
      pair: pairParam(alert),
      level: { price: alert.price, precision: alert.precision },
      price: { price: alert.fired_price ?? alert.price, precision: alert.precision },
    },
    duration: 10_000,
  };
}

export const priceAlertsMachine = setup({
  types: {
    context: {} as PriceAlertsContext,
    events: {} as PriceAlertsEvent,
  },
  actors: {
    loadAlerts: fromPromise<AlertList, void>(() => missing('loadAlerts')),
    createAlert: fromPromise<PriceAlert, CreateAlertRequest>(() => missing('createAlert')),
    /** Resolves with the deleted alert's id. */
    deleteAlert: fromPromise<number, { alertId: number }>(() => missing('deleteAlert')),
  },
  actions: {
    forget: assign({ alerts: [], formError: null, loadError: null }),
    assignList: assign(({ context }, list: AlertList) => {
      const alerts = list.alerts.map((a) => keepFired(a, context.alerts));
      return { alerts: [...unfiredAlerts(alerts), ...alerts.filter((a) => a.fired_at_ms !== null)], maxPending: list.max_pending, loadError: null };
    }),
    assignLoadError: assign((_, params: { error: unknown }) => ({ loadError: errorText(params.error) ?? 'alerts.load_failed' })),
    addAlert: assign(({ context }, alert: PriceAlert) =>
      keepFired(alert, context.alerts) === alert
        ? { alerts: [alert, ...context.alerts.filter((a) => a.alert_id !== alert.alert_id)], formError: null }
        : { formError: null },
    ),
    assignFormError: assign((_, params: { error: unknown }) => ({ formError: errorText(params.error) ?? 'alerts.create_failed' })),
    clearFormError: assign({ formError: null }),
    dropAlert: assign(({ context }, params: { alertId: number }) => ({ alerts: context.alerts.filter((a) => a.alert_id !== params.alertId) })),
    markFired: assign(({ context, event }) => {
      assertEvent(event, 'alerts.fired');
      const others = context.alerts.filter((a) => a.alert_id !== event.alert.alert_id);
      return { alerts: [...unfiredAlerts(others), event.alert, ...others.filter((a) => a.fired_at_ms !== null)] };
    }),
    toast: sendParent((_, params: { toast: ToastRequest }): PriceAlertsParentEvent => ({ type: 'toast.requested', toast: params.toast })),
    toastFired: sendParent(({ event }): PriceAlertsParentEvent => {
      assertEvent(event, 'alerts.fired');
      return { type: 'toast.requested', toast: firedToast(event.alert) };
    }),
  },
  guards: {
    isGone: (_, params: { error: unknown }) => {
      const status: unknown = typeof params.error === 'object' && params.error !== null ? Reflect.get(params.error, 'status') : undefined;
      return status === 404;
    },
  },
}).createMachine({
  id: 'priceAlerts',
  context: { alerts: [], maxPending: 20, formError: null, loadError: null },
  initial: 'loggedOut',
  states: {
    loggedOut: {
      on: { 'alerts.sessionStarted': { target: 'loggedIn' } },
    },
    loggedIn: {
      initial: 'loading',
      on: {
        'alerts.sessionEnded': { target: 'loggedOut', actions: 'forget' },
        'alerts.fired': { actions: ['markFired', 'toastFired'] },
        'alerts.formReset': { actions: 'clearFormError' },
      },
      states: {
        loading: {
          invoke: {
            id: 'loadAlerts',
            src: 'loadAlerts',
            onDone: { target: 'ready', actions: { type: 'assignList', params: ({ event }) => event.output } },
            onError: { target: 'failed', actions: { type: 'assignLoadError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        failed: {
          on: { 'alerts.retryRequested': { target: 'loading' } },
        },
        ready: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'alerts.createRequested': { target: 'creating', actions: 'clearFormError' },
                'alerts.deleteRequested': { target: 'deleting' },
                'alerts.retryRequested': { target: '#priceAlerts.loggedIn.loading' },
              },
            },
            creating: {
              invoke: {
                id: 'createAlert',
                src: 'createAlert',
                input: ({ event }) => {
                  assertEvent(event, 'alerts.createRequested');
                  return event.request;
                },
                onDone: {
                  target: 'idle',
                  actions: [{ type: 'addAlert', params: ({ event }) => event.output }, { type: 'toast', params: { toast: { type: 'success', messageKey: 'alerts.created' } } }],
                },
                onError: { target: 'idle', actions: { type: 'assignFormError', params: ({ event }) => ({ error: event.error }) } },
              },
            },
            deleting: {
              invoke: {
                id: 'deleteAlert',
                src: 'deleteAlert',
                input: ({ event }) => {
                  assertEvent(event, 'alerts.deleteRequested');
                  return { alertId: event.alertId };
                },
                onDone: { target: 'idle', actions: { type: 'dropAlert', params: ({ event }) => ({ alertId: event.output }) } },
                onError: [
                  {
                    guard: { type: 'isGone', params: ({ event }) => ({ error: event.error }) },
                    target: '#priceAlerts.loggedIn.loading',
                  },
                  {
                    target: 'idle',
                    actions: { type: 'toast', params: ({ event }) => ({ toast: { type: 'error', ...(errorText(event.error) ? { message: errorText(event.error)! } : { messageKey: 'alerts.delete_failed' }) } }) },
                  },
                ],
              },
            },
          },
        },
      },
    },
  },
});

export type PriceAlertsMachine = typeof priceAlertsMachine;
