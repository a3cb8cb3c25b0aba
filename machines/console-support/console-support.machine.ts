/**
 * The operator's support inbox (console; contract/support.ts, docs/support-center.md): the
 * ticket table with its filters, sort and page, and the selected thread with the trader's
 * context, where the operator answers, writes internal notes, takes the ticket and sets its
 * status.
 *
 * Lifecycle: started by the console's Support screen (src/console/support), stopped with it.
 * Two parallel regions:
 * - `inbox`: `loading` (GET /api/console/support/tickets with the filters) -> `ready`, or
 *   `failed`; `inbox.filtersChanged {filters}` (back to page 1), `inbox.pageChanged {page}` and
 *   `inbox.refreshRequested` read it again.
 * - `thread`: `closed` -(inbox.ticketSelected {ticketId})-> `open.loading` -> `open.ready.idle`;
 *   there `inbox.replyRequested {body, internal}` -> `posting`, `inbox.assignRequested
 *   {operatorId}` -> `assigning`, `inbox.statusRequested {status}` -> `changingStatus`; each
 *   answer updates the thread and the ticket's row in the table; a refusal stays as
 *   `actionError` (the server's words). `inbox.ticketClosed` closes the thread.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { ConsolePosted, ConsoleThread, Inbox, InboxQueryInput, InboxTicket, TicketMessage, TicketStatus } from '../../contract/support';
import { errorText } from '../types';

export interface InboxFilters {
  status: NonNullable<InboxQueryInput['status']>;
  assignee: string;
  category: NonNullable<InboxQueryInput['category']>;
  sort: NonNullable<InboxQueryInput['sort']>;
}

export interface ConsoleSupportContext {
  filters: InboxFilters;
  page: number;
  limit: number;
  tickets: InboxTicket[];
  total: number;
  inboxError: string | null;
  ticketId: number | null;
  thread: ConsoleThread | null;
  threadError: string | null;
  actionError: string | null;
}

export interface ConsoleSupportInput {
  filters?: Partial<InboxFilters>;
  limit?: number;
}

export type ConsoleSupportEvent =
  | { type: 'inbox.filtersChanged'; filters: Partial<InboxFilters> }
  | { type: 'inbox.pageChanged'; page: number }
  | { type: 'inbox.refreshRequested' }
  | { type: 'inbox.ticketSelected'; ticketId: number }
  | { type: 'inbox.ticketClosed' }
  | { type: 'inbox.replyRequested'; body: string; internal: boolean }
  | { type: 'inbox.assignRequested'; operatorId: number | null }
  | { type: 'inbox.statusRequested'; status: TicketStatus };

export interface InboxRequest extends InboxFilters {
  page: number;
  limit: number;
}

export const DEFAULT_INBOX_FILTERS: InboxFilters = { status: 'active', assignee: 'all', category: 'all', sort: 'updated_desc' };

function missing(name: string): never {
  throw new Error(`consoleSupportMachine: the "${name}" actor has no implementation; supply it with consoleSupportMachine.provide()`);
}

/** The table with the ticket's row replaced (when it is on this page). */
export function withRow(tickets: readonly InboxTicket[], ticket: InboxTicket): InboxTicket[] {
  return tickets.map((t) => (t.id === ticket.id ? ticket : t));
}

function withMessage(messages: readonly TicketMessage[], message: TicketMessage): TicketMessage[] {
  return messages.some((m) => m.id === message.id) ? [...messages] : [...messages, message];
}

export const consoleSupportMachine = setup({
  types: {
    context: {} as ConsoleSupportContext,
    events: {} as ConsoleSupportEvent,
    input: {} as ConsoleSupportInput,
  },
  actors: {
    loadInbox: fromPromise<Inbox, InboxRequest>(() => missing('loadInbox')),
    loadThread: fromPromise<ConsoleThread, { ticketId: number }>(() => missing('loadThread')),
    postMessage: fromPromise<ConsolePosted, { ticketId: number; body: string; internal: boolean }>(() => missing('postMessage')),
    assignTicket: fromPromise<InboxTicket, { ticketId: number; operatorId: number | null }>(() => missing('assignTicket')),
    setStatus: fromPromise<InboxTicket, { ticketId: number; status: TicketStatus }>(() => missing('setStatus')),
  },
  actions: {
    assignFilters: assign(({ context, event }) => {
      assertEvent(event, 'inbox.filtersChanged');
      return { filters: { ...context.filters, ...event.filters }, page: 1 };
    }),
    assignPage: assign(({ event }) => {
      assertEvent(event, 'inbox.pageChanged');
      return { page: Math.max(1, Math.floor(event.page)) };
    }),
    assignInbox: assign((_, inbox: Inbox) => ({ tickets: inbox.tickets, total: inbox.pagination.total, inboxError: null })),
    assignInboxError: assign((_, params: { error: unknown }) => ({ inboxError: errorText(params.error) ?? 'console_support.load_failed' })),
    selectTicket: assign(({ event }) => {
      assertEvent(event, 'inbox.ticketSelected');
      return { ticketId: event.ticketId, thread: null, threadError: null, actionError: null };
    }),
    closeTicket: assign({ ticketId: null, thread: null, threadError: null, actionError: null }),
    assignThread: assign(({ context }, thread: ConsoleThread) => ({ thread, threadError: null, tickets: withRow(context.tickets, thread.ticket) })),
    assignThreadError: assign((_, params: { error: unknown }) => ({ threadError: errorText(params.error) ?? 'console_support.thread_failed' })),
    assignPosted: assign(({ context }, posted: ConsolePosted) => ({
      thread: context.thread ? { ...context.thread, ticket: posted.ticket, messages: withMessage(context.thread.messages, posted.message) } : null,
      tickets: withRow(context.tickets, posted.ticket),
      actionError: null,
    })),
    assignTicket: assign(({ context }, ticket: InboxTicket) => ({
      thread: context.thread ? { ...context.thread, ticket } : null,
      tickets: withRow(context.tickets, ticket),
      actionError: null,
    })),
    assignActionError: assign((_, params: { error: unknown }) => ({ actionError: errorText(params.error) ?? 'console_support.action_failed' })),
    clearActionError: assign({ actionError: null }),
  },
  guards: {
    hasBody: ({ event }) => event.type === 'inbox.replyRequested' && event.body.trim() !== '',
  },
}).createMachine({
  id: 'consoleSupport',
  context: ({ input }) => ({
    filters: { ...DEFAULT_INBOX_FILTERS, ...input?.filters },
    page: 1,
    limit: input?.limit ?? 25,
    tickets: [],
    total: 0,
    inboxError: null,
    ticketId: null,
    thread: null,
    threadError: null,
    actionError: null,
  }),
  type: 'parallel',
  states: {
    inbox: {
      initial: 'loading',
      on: {
        'inbox.filtersChanged': { target: '.loading', actions: 'assignFilters', reenter: true },
        'inbox.pageChanged': { target: '.loading', actions: 'assignPage', reenter: true },
        'inbox.refreshRequested': { target: '.loading', reenter: true },
      },
      states: {
        loading: {
          invoke: {
            id: 'loadInbox',
            src: 'loadInbox',
            input: ({ context }) => ({ ...context.filters, page: context.page, limit: context.limit }),
            onDone: { target: 'ready', actions: { type: 'assignInbox', params: ({ event }) => event.output } },
            onError: { target: 'failed', actions: { type: 'assignInboxError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        ready: {},
        failed: {},
      },
    },
    thread: {
      initial: 'closed',
      on: {
        'inbox.ticketSelected': { target: '.open', actions: 'selectTicket', reenter: true },
        'inbox.ticketClosed': { target: '.closed', actions: 'closeTicket' },
      },
      states: {
        closed: {},
        open: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadThread',
                src: 'loadThread',
                input: ({ context }) => ({ ticketId: context.ticketId ?? 0 }),
                onDone: { target: 'ready', actions: { type: 'assignThread', params: ({ event }) => event.output } },
                onError: { target: 'failed', actions: { type: 'assignThreadError', params: ({ event }) => ({ error: event.error }) } },
              },
            },
            failed: {},
            ready: {
              initial: 'idle',
              states: {
                idle: {
                  on: {
                    'inbox.replyRequested': { guard: 'hasBody', target: 'posting', actions: 'clearActionError' },
                    'inbox.assignRequested': { target: 'assigning', actions: 'clearActionError' },
                    'inbox.statusRequested': { target: 'changingStatus', actions: 'clearActionError' },
                  },
                },
                posting: {
                  invoke: {
                    id: 'postMessage',
                    src: 'postMessage',
                    input: ({ context, event }) => {
                      assertEvent(event, 'inbox.replyRequested');
                      return { ticketId: context.ticketId ?? 0, body: event.body.trim(), internal: event.internal };
                    },
                    onDone: { target: 'idle', actions: { type: 'assignPosted', params: ({ event }) => event.output } },
                    onError: { target: 'idle', actions: { type: 'assignActionError', params: ({ event }) => ({ error: event.error }) } },
                  },
                },
                assigning: {
                  invoke: {
                    id: 'assignTicket',
                    src: 'assignTicket',
                    input: ({ context, event }) => {
                      assertEvent(event, 'inbox.assignRequested');
                      return { ticketId: context.ticketId ?? 0, operatorId: event.operatorId };
                    },
                    onDone: { target: 'idle', actions: { type: 'assignTicket', params: ({ event }) => event.output } },
                    onError: { target: 'idle', actions: { type: 'assignActionError', params: ({ event }) => ({ error: event.error }) } },
                  },
                },
                changingStatus: {
                  invoke: {
                    id: 'setStatus',
                    src: 'setStatus',
                    input: ({ context, event }) => {
                      assertEvent(event, 'inbox.statusRequested');
                      return { ticketId: context.ticketId ?? 0, status: event.status };
                    },
                    onDone: { target: 'idle', actions: { type: 'assignTicket', params: ({ event }) => event.output } },
                    onError: { target: 'idle', actions: { type: 'assignActionError', params: ({ event }) => ({ error: event.error }) } },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
});

export type ConsoleSupportMachine = typeof consoleSupportMachine;
