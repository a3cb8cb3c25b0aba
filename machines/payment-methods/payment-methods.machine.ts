/**
 * The payment-method catalogue (spec section 7: get_payment_methods -> init_payment_systems;
 * section 9: the loading flag is cleared after 10 s if nothing arrives).
 *
 * Lifecycle: long-lived, spawned by the app with the systemId 'paymentMethods'. It holds the
 * whole catalogue as the server sends it (bounds in each method's own currency); views filter
 * and convert it for a currency and direction with `methodsFor` (amounts.ts), at the rates the
 * server sent with the list (attached to each method: docs/money.md "Exchange rates"). The app sends
 * `paymentMethods.loadRequested` whenever a deposit or withdraw flow starts; `loading` asks the
 * parent to emit `get_payment_methods` on the socket (the socket queues it while offline) and
 * waits `loadTimeout` for `init_payment_systems`, which the app routes here as
 * `paymentMethods.received` (accepted in any state: the server may push it unasked). After the
 * timeout the list stays as it was: `ready` when one was loaded before, else `unavailable`.
 */
import type { RateTable } from '../../contract/currencies';
import { assertEvent, assign, sendParent, setup } from 'xstate';
import { GET_PAYMENT_METHODS_EVENT, type PaymentMethod } from '../../contract/payments';
import { PAYMENT_METHODS_LOADING_TIMEOUT_MS } from '../../contract/socket';
import type { SocketEmitEvent } from '../socket/socket.machine';

/** Spec section 9: the loading flag is cleared after 10 s if nothing arrives. */
export const PAYMENT_METHODS_TIMEOUT_MS = PAYMENT_METHODS_LOADING_TIMEOUT_MS;

export interface PaymentMethodsContext {
  /** The catalogue, each method carrying the payload's rates (so its limits convert at the server's prices). */
  methods: PaymentMethod[];
}

export type PaymentMethodsEvent =
  | { type: 'paymentMethods.loadRequested' }
  /** `rates`: the server's rate table of the payload (absent from an older server: the configured rates). */
  | { type: 'paymentMethods.received'; methods: PaymentMethod[]; rates?: RateTable };

/** The parent forwards this to the socket actor. */
export type PaymentMethodsParentEvent = SocketEmitEvent;

export const paymentMethodsMachine = setup({
  types: {
    context: {} as PaymentMethodsContext,
    events: {} as PaymentMethodsEvent,
  },
  actions: {
    assignMethods: assign(({ event }) => {
      assertEvent(event, 'paymentMethods.received');
      const { rates } = event;
      return { methods: rates ? event.methods.map((m) => ({ ...m, rates })) : event.methods };
    }),
    requestMethods: sendParent(
      (): PaymentMethodsParentEvent => ({ type: 'socket.emitRequested', event: GET_PAYMENT_METHODS_EVENT, payload: {} }),
    ),
  },
  guards: {
    hasMethods: ({ context }) => context.methods.length > 0,
  },
  delays: {
    loadTimeout: PAYMENT_METHODS_TIMEOUT_MS,
  },
}).createMachine({
  id: 'paymentMethods',
  context: { methods: [] },
  initial: 'idle',
  on: {
    'paymentMethods.received': {
      target: '.ready',
      description: 'The catalogue, asked for or pushed; replaces the previous one.',
      actions: 'assignMethods',
    },
  },
  states: {
    idle: {
      description: 'Nothing asked yet.',
      on: { 'paymentMethods.loadRequested': 'loading' },
    },
    loading: {
      tags: ['loading'],
      entry: 'requestMethods',
      description: 'Waiting for init_payment_systems; a second request meanwhile is not sent again.',
      after: {
        loadTimeout: [
          { guard: 'hasMethods', target: 'ready', description: 'Nothing new arrived: keep the list loaded before.' },
          { target: 'unavailable' },
        ],
      },
    },
    ready: {
      on: { 'paymentMethods.loadRequested': 'loading' },
    },
    unavailable: {
      description: 'Nothing arrived within loadTimeout; the view offers a retry.',
      on: { 'paymentMethods.loadRequested': 'loading' },
    },
  },
});
