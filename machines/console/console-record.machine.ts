/**
 * One record the console shows (the dashboard's figures, a user's page, the books with their
 * series): read, shown, refreshed on demand and, for live screens, on a timer.
 *
 * Lifecycle: created by the screen for as long as it is on screen, with its input: which
 * `resource`, its `params` (e.g. the user id) and whether it stays `live`.
 * - `loading` reads it (`fetchRecord`) -> `ready.idle`, or `failed` until `record.retryRequested`.
 * - `ready.idle` -(record.refreshRequested, or `refreshInterval` when live)-> `ready.refreshing`:
 *   the record stays on screen while it is read again; a failed refresh keeps the last record and
 *   shows `error` (stale) until the next good read.
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorText } from '../types';

export interface RecordQuery {
  resource: string;
  params: Record<string, string>;
}

export interface ConsoleRecordInput extends RecordQuery {
  live?: boolean;
}

export interface ConsoleRecordContext extends RecordQuery {
  live: boolean;
  data: unknown;
  error: string | null;
}

export type ConsoleRecordEvent = { type: 'record.refreshRequested' } | { type: 'record.retryRequested' };

function missing(name: string): never {
  throw new Error(`consoleRecordMachine: the "${name}" actor has no implementation; supply it with consoleRecordMachine.provide()`);
}

export const consoleRecordMachine = setup({
  types: {
    context: {} as ConsoleRecordContext,
    events: {} as ConsoleRecordEvent,
    input: {} as ConsoleRecordInput,
  },
  actors: {
    fetchRecord: fromPromise<unknown, RecordQuery>(() => missing('fetchRecord')),
  },
  delays: {
    refreshInterval: 15_000,
  },
  actions: {
    assignData: assign((_, params: { data: unknown }) => ({ data: params.data, error: null })),
    assignError: assign((_, params: { error: unknown }) => ({ error: errorText(params.error) ?? 'console.record.load_failed' })),
  },
  guards: {
    isLive: ({ context }) => context.live,
  },
}).createMachine({
  id: 'consoleRecord',
  context: ({ input }) => ({ resource: input.resource, params: input.params, live: input.live ?? false, data: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchRecord',
        src: 'fetchRecord',
        input: ({ context }) => ({ resource: context.resource, params: context.params }),
        onDone: { target: 'ready', actions: { type: 'assignData', params: ({ event }) => ({ data: event.output }) } },
        onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: { 'record.retryRequested': { target: 'loading' } },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'record.refreshRequested': { target: 'refreshing' } },
          after: { refreshInterval: { guard: 'isLive', target: 'refreshing' } },
        },
        refreshing: {
          invoke: {
            id: 'refreshRecord',
            src: 'fetchRecord',
            input: ({ context }) => ({ resource: context.resource, params: context.params }),
            onDone: { target: 'idle', actions: { type: 'assignData', params: ({ event }) => ({ data: event.output }) } },
            onError: { target: 'idle', actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
  },
});

export type ConsoleRecordMachine = typeof consoleRecordMachine;
