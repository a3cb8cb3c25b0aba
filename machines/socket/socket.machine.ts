/**
 * The live socket connection (spec section 7, "Live socket"; section 4, "Live connection").
 *
 * Lifecycle: `idle` until a token arrives. `connection` owns the socket: it invokes the callback
 * actor `socketConnection` once and keeps it through its substates, so reaching `connected` does
 * not reopen anything. The first try is `connecting`; a try after a drop is `reconnecting` (tag
 * 'reconnecting', so the view can dim prices). When `connected` (tag 'live') it introduces
 * itself with provide_token, asks get_userdata `userdataDelay` later, pings every
 * `pingInterval`, re-sends the last select_pair and flushes requests queued while offline, and
 * forwards every incoming message to its parent. A drop or a failed connect waits
 * `reconnectDelay` (1 s doubling, capped at 30 s) in `waitingToReconnect`; after 5 failed
 * reconnects it gives up in `failed` until `socket.retryRequested` or a new token.
 * `socket.tokenChanged` with null goes back to `idle` (the socket is closed by leaving
 * `connection`); a new token while connected is re-announced with provide_token.
 */
import { assertEvent, assign, enqueueActions, fromCallback, sendParent, sendTo, setup } from 'xstate';
import type { SocketMessage } from '../types';
import { SOCKET_BACKOFF_BASE_MS, SOCKET_BACKOFF_CAP_MS, SOCKET_MAX_RECONNECTS, SOCKET_PING_INTERVAL_MS, SOCKET_USERDATA_DELAY_MS } from '../../contract/socket';

/** Events the connection actor accepts from the machine. */
export interface SocketEmitEvent {
  type: 'socket.emitRequested';
  event: string;
  payload?: unknown;
}

/** Events the connection actor reports back. */
export type SocketConnectionEvent =
  | { type: 'socket.connected' }
  | { type: 'socket.disconnected'; reason: string }
  | { type: 'socket.connectFailed'; message: string }
  | { type: 'socket.messageReceived'; event: string; payload: unknown };

export type SocketEvent =
  | SocketConnectionEvent
  | SocketEmitEvent
  | { type: 'socket.tokenChanged'; token: string | null }
  | { type: 'socket.retryRequested' }
  /** The server answered a ping (the app routes `pong` here): the server time, when given. */
  | { type: 'socket.pongReceived'; time: number | null };

export interface SocketContext {
  token: string | null;
  /** Reconnect attempts made since the last successful connection (0 while healthy). */
  attempt: number;
  lastError: string | null;
  /** Subscriptions re-sent on every (re)connect, by event name: the last select_pair payload. */
  subscriptions: Record<string, unknown>;
  /** One-shot requests made while offline, by event name (the last one wins), sent on connect. */
  outbox: Record<string, unknown>;
  /** Server time of the last pong (null before the first, or when it carried none). */
  lastPongAt: number | null;
}

export interface SocketConnectionInput {
  token: string;
}

/** The parent hears every incoming message as this event. */
export interface SocketParentEvent extends SocketMessage {
  type: 'socket.messageReceived';
}

/** Reconnect attempts before the connection is given up (spec section 9, contract/socket.ts). */
export const SOCKET_MAX_ATTEMPTS = SOCKET_MAX_RECONNECTS;

/** Wait before reconnect attempt `attempt` (1-based): 1 s, 2 s, 4 s, ... capped at 30 s. */
export function reconnectDelayFor(attempt: number): number {
  return Math.min(SOCKET_BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1), SOCKET_BACKOFF_CAP_MS);
}

/** Events remembered as subscriptions and re-sent on every reconnect. */
const SUBSCRIPTION_EVENTS = ['select_pair'];
/** Events that are pointless later and are dropped while offline. */
const DROPPED_WHILE_OFFLINE = ['ping', 'provide_token', 'get_userdata'];

/** select_pair carries the session token (spec section 7); the machine adds the current one. */
function withToken(event: string, payload: unknown, token: string | null): unknown {
  if (event !== 'select_pair' || typeof payload !== 'object' || payload === null || token === null) return payload;
  return { ...payload, token };
}

function emit(event: string, payload?: unknown): SocketEmitEvent {
  return { type: 'socket.emitRequested', event, payload };
}

export const socketMachine = setup({
  types: {
    context: {} as SocketContext,
    events: {} as SocketEvent,
  },
  actors: {
    socketConnection: fromCallback<SocketEmitEvent, SocketConnectionInput>(() => {
      throw new Error('socketMachine: the "socketConnection" actor has no implementation; supply it with socketMachine.provide()');
    }),
  },
  delays: {
    userdataDelay: SOCKET_USERDATA_DELAY_MS,
    pingInterval: SOCKET_PING_INTERVAL_MS,
    reconnectDelay: ({ context }) => reconnectDelayFor(context.attempt),
  },
  guards: {
    isTokenCleared: ({ event }) => {
      assertEvent(event, 'socket.tokenChanged');
      return event.token === null;
    },
    hasAttemptsLeft: ({ context }) => context.attempt < SOCKET_MAX_ATTEMPTS,
  },
  actions: {
    assignToken: assign(({ event }) => {
      assertEvent(event, 'socket.tokenChanged');
      return { token: event.token };
    }),
    resetAttempts: assign({ attempt: 0, lastError: null }),
    countAttempt: assign(({ context }) => ({ attempt: context.attempt + 1 })),
    assignError: assign(({ event }) => {
      assertEvent(event, ['socket.disconnected', 'socket.connectFailed']);
      return { lastError: event.type === 'socket.disconnected' ? event.reason : event.message };
    }),
    rememberSubscription: assign(({ context, event }) => {
      assertEvent(event, 'socket.emitRequested');
      if (!SUBSCRIPTION_EVENTS.includes(event.event)) return {};
      return { subscriptions: { ...context.subscriptions, [event.event]: event.payload } };
    }),
    queueEmit: assign(({ context, event }) => {
      assertEvent(event, 'socket.emitRequested');
      if (SUBSCRIPTION_EVENTS.includes(event.event) || DROPPED_WHILE_OFFLINE.includes(event.event)) return {};
      return { outbox: { ...context.outbox, [event.event]: event.payload } };
    }),
    clearOutbox: assign({ outbox: {} }),
    assignPong: assign(({ event }) => {
      assertEvent(event, 'socket.pongReceived');
      return { lastPongAt: event.time };
    }),
    forwardEmit: sendTo('socketConnection', ({ context, event }) => {
      assertEvent(event, 'socket.emitRequested');
      return emit(event.event, withToken(event.event, event.payload, context.token));
    }),
    sendProvideToken: sendTo('socketConnection', ({ context }) => emit('provide_token', { token: context.token ?? '' })),
    sendGetUserdata: sendTo('socketConnection', ({ context }) => emit('get_userdata', { token: context.token ?? '' })),
    sendPing: sendTo('socketConnection', () => emit('ping')),
    resendSubscriptions: enqueueActions(({ context, enqueue }) => {
      for (const [event, payload] of Object.entries(context.subscriptions)) {
        enqueue.sendTo('socketConnection', emit(event, withToken(event, payload, context.token)));
      }
    }),
    flushOutbox: enqueueActions(({ context, enqueue }) => {
      for (const [event, payload] of Object.entries(context.outbox)) enqueue.sendTo('socketConnection', emit(event, payload));
    }),
    forwardMessage: sendParent(({ event }): SocketParentEvent => {
      assertEvent(event, 'socket.messageReceived');
      return { type: 'socket.messageReceived', event: event.event, payload: event.payload };
    }),
  },
}).createMachine({
  id: 'socket',
  context: {
    token: null,
    attempt: 0,
    lastError: null,
    subscriptions: {},
    outbox: {},
    lastPongAt: null,
  },
  initial: 'idle',
  on: {
    'socket.pongReceived': { actions: 'assignPong' },
    'socket.tokenChanged': [
      { guard: 'isTokenCleared', target: '.idle', actions: 'assignToken' },
      { target: '.connection', description: 'A new session: connect afresh.', actions: ['assignToken', 'resetAttempts'] },
    ],
    'socket.emitRequested': {
      description: 'Offline: select_pair is remembered, one-shot requests are queued, pings are dropped.',
      actions: ['rememberSubscription', 'queueEmit'],
    },
  },
  states: {
    idle: {
      description: 'No token, no socket.',
    },
    connection: {
      description: 'The socket exists for as long as this state is active.',
      invoke: {
        id: 'socketConnection',
        src: 'socketConnection',
        input: ({ context }) => ({ token: context.token ?? '' }),
      },
      initial: 'connecting',
      states: {
        connecting: {
          description: 'The first try of this session.',
          on: { 'socket.connected': 'connected' },
        },
        reconnecting: {
          tags: ['reconnecting'],
          description: 'A try after a drop; prices are stale meanwhile.',
          on: { 'socket.connected': 'connected' },
        },
        connected: {
          tags: ['live'],
          entry: ['resetAttempts', 'sendProvideToken', 'resendSubscriptions', 'flushOutbox', 'clearOutbox'],
          initial: 'handshaking',
          states: {
            handshaking: {
              after: {
                userdataDelay: { target: 'streaming', actions: 'sendGetUserdata' },
              },
            },
            streaming: {
              after: {
                pingInterval: { target: 'streaming', reenter: true, actions: 'sendPing' },
              },
            },
          },
          on: {
            'socket.emitRequested': { actions: ['rememberSubscription', 'forwardEmit'] },
            'socket.tokenChanged': [
              { guard: 'isTokenCleared', target: '#socket.idle', actions: 'assignToken' },
              { description: 'A refreshed token: re-introduce ourselves on the same socket.', actions: ['assignToken', 'sendProvideToken'] },
            ],
          },
        },
      },
      on: {
        'socket.messageReceived': { actions: 'forwardMessage' },
        'socket.disconnected': [
          { guard: 'hasAttemptsLeft', target: 'waitingToReconnect', actions: ['countAttempt', 'assignError'] },
          { target: 'failed', actions: 'assignError' },
        ],
        'socket.connectFailed': [
          { guard: 'hasAttemptsLeft', target: 'waitingToReconnect', actions: ['countAttempt', 'assignError'] },
          { target: 'failed', actions: 'assignError' },
        ],
        'socket.tokenChanged': [
          { guard: 'isTokenCleared', target: 'idle', actions: 'assignToken' },
          { target: 'connection', reenter: true, description: 'Connect again with the new token.', actions: 'assignToken' },
        ],
      },
    },
    waitingToReconnect: {
      tags: ['reconnecting'],
      after: {
        reconnectDelay: { target: 'connection.reconnecting' },
      },
      on: {
        'socket.retryRequested': { target: 'connection.reconnecting' },
      },
    },
    failed: {
      description: 'Gave up after the last reconnect attempt.',
      on: {
        'socket.retryRequested': { target: 'connection', actions: 'resetAttempts' },
      },
    },
  },
});
