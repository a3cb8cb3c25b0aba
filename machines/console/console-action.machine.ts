/**
 * An operator's action on one thing, with its reason: approve or reject a withdrawal, a deposit,
 * a document or a four-eyes request; block or unblock a user; open the trader app as a user;
 * add an operator, change a role, disable one; enable or disable a pair; verify the audit chain.
 * One machine for all of them, so every money-moving or irreversible action has the same steps:
 * say what will happen, take the reason, send, show the outcome.
 *
 * Lifecycle: created by a screen for as long as it is on screen; one action at a time.
 * - `idle` -(action.started {action, target, reasonRequired, fields})-> `confirming`: the dialog
 *   shows what will happen and who approves it.
 * - `confirming` -(action.confirmed {reason, fields})-> `submitting` (`performAction`) when the
 *   reason is given (or not required), else stays with 'console.action.reason_required'.
 *   `action.cancelled` -> `idle`.
 * - `submitting` -> `finished` with the outcome: done now, awaiting a second operator's
 *   approval (four eyes), or a one-time secret to show once (the open-as-user link, a new
 *   operator's password and TOTP secret). It emits `action.completed` so the screen re-reads its
 *   lists. A refusal (e.g. 403: "you requested this, another operator must approve"; the wrong
 *   role) goes back to `confirming` with the server's words.
 * - `finished` -(action.dismissed)-> `idle` forgets the outcome (and with it any secret).
 */
import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import { errorText } from '../types';
import type { ActionOutcome, ActionRequest } from './console.types';

export interface ConsoleActionContext {
  action: string | null;
  target: string | null;
  reasonRequired: boolean;
  fields: Record<string, string>;
  outcome: ActionOutcome | null;
  /** The refusal of the last try (server text) or a locale key. */
  error: string | null;
}

export type ConsoleActionEvent =
  | { type: 'action.started'; action: string; target: string; reasonRequired: boolean; fields?: Record<string, string> }
  | { type: 'action.confirmed'; reason: string; fields?: Record<string, string> }
  | { type: 'action.cancelled' }
  | { type: 'action.dismissed' };

export type ConsoleActionEmitted = { type: 'action.completed'; action: string; target: string; outcome: ActionOutcome };

function missing(name: string): never {
  throw new Error(`consoleActionMachine: the "${name}" actor has no implementation; supply it with consoleActionMachine.provide()`);
}

const EMPTY: ConsoleActionContext = { action: null, target: null, reasonRequired: false, fields: {}, outcome: null, error: null };

export const consoleActionMachine = setup({
  types: {
    context: {} as ConsoleActionContext,
    events: {} as ConsoleActionEvent,
    emitted: {} as ConsoleActionEmitted,
  },
  actors: {
    performAction: fromPromise<ActionOutcome, ActionRequest>(() => missing('performAction')),
  },
  actions: {
    assignStart: assign(({ event }) => {
      assertEvent(event, 'action.started');
      return { action: event.action, target: event.target, reasonRequired: event.reasonRequired, fields: event.fields ?? {}, outcome: null, error: null };
    }),
    noteReasonRequired: assign({ error: 'console.action.reason_required' }),
    assignOutcome: assign((_, outcome: ActionOutcome) => ({ outcome, error: null })),
    assignError: assign((_, params: { error: unknown }) => ({ error: errorText(params.error) ?? 'console.action.failed' })),
    forget: assign(EMPTY),
    emitCompleted: emit(({ context }, outcome: ActionOutcome): ConsoleActionEmitted => ({
      type: 'action.completed',
      action: context.action ?? '',
      target: context.target ?? '',
      outcome,
    })),
  },
  guards: {
    hasReason: ({ context, event }) => {
      assertEvent(event, 'action.confirmed');
      return !context.reasonRequired || event.reason.trim().length > 0;
    },
  },
}).createMachine({
  id: 'consoleAction',
  context: EMPTY,
  initial: 'idle',
  states: {
    idle: {
      on: { 'action.started': { target: 'confirming', actions: 'assignStart' } },
    },
    confirming: {
      description: 'What will happen and who approves it; the reason is asked here.',
      on: {
        'action.confirmed': [{ guard: 'hasReason', target: 'submitting' }, { actions: 'noteReasonRequired' }],
        'action.cancelled': { target: 'idle', actions: 'forget' },
      },
    },
    submitting: {
      invoke: {
        id: 'performAction',
        src: 'performAction',
        input: ({ context, event }) => {
          assertEvent(event, 'action.confirmed');
          return { action: context.action ?? '', target: context.target ?? '', reason: event.reason.trim(), fields: { ...context.fields, ...event.fields } };
        },
        onDone: {
          target: 'finished',
          actions: [
            { type: 'assignOutcome', params: ({ event }) => event.output },
            { type: 'emitCompleted', params: ({ event }) => event.output },
          ],
        },
        onError: { target: 'confirming', actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    finished: {
      description: 'The outcome: done, awaiting a second approval, or a secret shown once.',
      on: { 'action.dismissed': { target: 'idle', actions: 'forget' } },
    },
  },
});

export type ConsoleActionMachine = typeof consoleActionMachine;
