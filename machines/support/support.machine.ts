/**
 * The trader's support center (contract/support.ts, docs/support-center.md): the ticket list
 * with the unread count (the nav badge), the open thread, and the new-ticket form.
 *
 * Lifecycle: long-lived, spawned by the app with systemId 'support'. `loggedOut` until
 * `support.sessionStarted`; `support.sessionEnded` forgets everything. Logged in, three
 * parallel regions:
 * - `list`: `loading` (GET tickets) -> `ready`, or `failed` until `support.refreshRequested`.
 * - `thread`: `closed` -(support.threadOpened {ticketId})-> `open.loading` -> `open.ready.idle`;
 *   there `support.replyRequested {body, files}` -> `sending` (text, or files with an optional
 *   text), `support.closeRequested` -> `closing`; a refusal stays as `replyError` (the server's
 *   words). `support.threadClosed` closes it.
 * - `form`: `idle` -(support.createRequested {request})-> `submitting` (the ticket, then its
 *   files) -> `idle` with the new ticket first in the list and its thread open
 *   (`support.ticketShown`); a refusal stays as `formError`. `support.formReset` clears it.
 * The `support_update` push (`support.updated {ticket, message}`) updates the ticket in the list
 * and, when its thread is open, adds the message and reads the thread again (marking it read).
 */
import { assertEvent, assign, fromPromise, raise, sendParent, setup } from 'xstate';
import type { Posted, Thread, Ticket, TicketCategory, TicketList, TicketMessage } from '../../contract/support';
import type { ToastRequest } from '../types';
import { errorText } from '../types';

/** A file to attach: a browser File satisfies it (the services read it). */
export interface SupportFile {
  readonly name: string;
  readonly size: number;
  readonly type: string;
}

export interface NewTicketRequest {
  category: TicketCategory;
  subject: string;
  message: string;
  orderId: number | null;
  transactionId: number | null;
  files: readonly SupportFile[];
}

export interface ReplyRequest {
  ticketId: number;
  body: string;
  files: readonly SupportFile[];
}

export interface SupportContext {
  tickets: Ticket[];
  unread: number;
  listError: string | null;
  ticketId: number | null;
  ticket: Ticket | null;
  messages: TicketMessage[];
  threadError: string | null;
  replyError: string | null;
  formError: string | null;
}

export type SupportEvent =
  | { type: 'support.sessionStarted' }
  | { type: 'support.sessionEnded' }
  | { type: 'support.refreshRequested' }
  | { type: 'support.updated'; ticket: Ticket; message: TicketMessage | null }
  | { type: 'support.threadOpened'; ticketId: number }
  | { type: 'support.threadClosed' }
  | { type: 'support.replyRequested'; body: string; files: readonly SupportFile[] }
  | { type: 'support.closeRequested' }
  | { type: 'support.createRequested'; request: NewTicketRequest }
  | { type: 'support.ticketShown'; thread: Thread }
  | { type: 'support.formReset' };

export type SupportParentEvent = { type: 'toast.requested'; toast: ToastRequest };

function missing(name: string): never {
  throw new Error(`supportMachine: the "${name}" actor has no implementation; supply it with supportMachine.provide()`);
}

/** The list with `ticket` put first (replacing its old copy), and the unread count. */
export function withTicket(tickets: readonly Ticket[], ticket: Ticket): { tickets: Ticket[]; unread: number } {
  const next = [ticket, ...tickets.filter((t) => t.id !== ticket.id)];
  return { tickets: next, unread: next.filter((t) => t.unread).length };
}

/** The thread's messages with `message` added once, in order. */
export function withMessage(messages: readonly TicketMessage[], message: TicketMessage): TicketMessage[] {
  if (messages.some((m) => m.id === message.id)) return [...messages];
  return [...messages, message].sort((a, b) => a.id - b.id);
}

const emptyThread = { ticketId: null, ticket: null, messages: [], threadError: null, replyError: null };

export const supportMachine = setup({
  types: {
    context: {} as SupportContext,
    events: {} as SupportEvent,
  },
  actors: {
    loadTickets: fromPromise<TicketList, void>(() => missing('loadTickets')),
    loadThread: fromPromise<Thread, { ticketId: number }>(() => missing('loadThread')),
    postReply: fromPromise<Posted, ReplyRequest>(() => missing('postReply')),
    closeTicket: fromPromise<Ticket, { ticketId: number }>(() => missing('closeTicket')),
    createTicket: fromPromise<Thread, NewTicketRequest>(() => missing('createTicket')),
  },
  actions: {
    forget: assign({ tickets: [], unread: 0, listError: null, formError: null, ...emptyThread }),
    assignList: assign((_, list: TicketList) => ({ tickets: list.tickets, unread: list.unread, listError: null })),
    assignListError: assign((_, params: { error: unknown }) => ({ listError: errorText(params.error) ?? 'support.load_failed' })),
    openThread: assign(({ event }) => {
      assertEvent(event, 'support.threadOpened');
      return { ...emptyThread, ticketId: event.ticketId };
    }),
    closeThread: assign(emptyThread),
    assignThread: assign(({ context }, thread: Thread) => ({
      ticketId: thread.ticket.id,
      ticket: thread.ticket,
      messages: thread.messages,
      threadError: null,
      ...withTicket(context.tickets, thread.ticket),
    })),
    assignThreadError: assign((_, params: { error: unknown }) => ({ threadError: errorText(params.error) ?? 'support.thread_failed' })),
    assignPosted: assign(({ context }, posted: Posted) => ({
      ticket: posted.ticket,
      messages: withMessage(context.messages, posted.message),
      replyError: null,
      ...withTicket(context.tickets, posted.ticket),
    })),
    assignClosed: assign(({ context }, ticket: Ticket) => ({ ticket, replyError: null, ...withTicket(context.tickets, ticket) })),
    assignReplyError: assign((_, params: { error: unknown }) => ({ replyError: errorText(params.error) ?? 'support.reply_failed' })),
    clearReplyError: assign({ replyError: null }),
    applyUpdate: assign(({ context, event }) => {
      assertEvent(event, 'support.updated');
      const shown = context.ticketId === event.ticket.id;
      const ticket = shown ? { ...event.ticket, unread: false } : event.ticket;
      return {
        ...withTicket(context.tickets, ticket),
        ...(shown ? { ticket, messages: event.message ? withMessage(context.messages, event.message) : context.messages } : {}),
      };
    }),
    assignFormError: assign((_, params: { error: unknown }) => ({ formError: errorText(params.error) ?? 'support.create_failed' })),
    clearFormError: assign({ formError: null }),
    showCreated: raise((_, thread: Thread): SupportEvent => ({ type: 'support.ticketShown', thread })),
    toast: sendParent((_, params: { toast: ToastRequest }): SupportParentEvent => ({ type: 'toast.requested', toast: params.toast })),
  },
  guards: {
    isShownTicket: ({ context, event }) => event.type === 'support.updated' && context.ticketId === event.ticket.id,
    hasText: ({ event }) => event.type === 'support.replyRequested' && (event.body.trim() !== '' || event.files.length > 0),
  },
}).createMachine({
  id: 'support',
  context: { tickets: [], unread: 0, listError: null, formError: null, ...emptyThread },
  initial: 'loggedOut',
  states: {
    loggedOut: {
      on: { 'support.sessionStarted': { target: 'loggedIn' } },
    },
    loggedIn: {
      type: 'parallel',
      on: {
        'support.sessionEnded': { target: 'loggedOut', actions: 'forget' },
      },
      states: {
        list: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadTickets',
                src: 'loadTickets',
                onDone: { target: 'ready', actions: { type: 'assignList', params: ({ event }) => event.output } },
                onError: { target: 'failed', actions: { type: 'assignListError', params: ({ event }) => ({ error: event.error }) } },
              },
            },
            ready: {
              on: { 'support.refreshRequested': { target: 'loading' } },
            },
            failed: {
              on: { 'support.refreshRequested': { target: 'loading' } },
            },
          },
        },
        thread: {
          initial: 'closed',
          on: {
            'support.threadOpened': { target: '.open', actions: 'openThread', reenter: true },
            'support.ticketShown': { target: '.open.ready', actions: { type: 'assignThread', params: ({ event }) => event.thread } },
            'support.threadClosed': { target: '.closed', actions: 'closeThread' },
          },
          states: {
            closed: {
              on: { 'support.updated': { actions: 'applyUpdate' } },
            },
            open: {
              initial: 'loading',
              on: {
                'support.updated': [{ guard: 'isShownTicket', target: '.syncing', actions: 'applyUpdate' }, { actions: 'applyUpdate' }],
              },
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
                syncing: {
                  // A live answer arrived while the thread is shown: read it again (marks it read).
                  invoke: {
                    id: 'syncThread',
                    src: 'loadThread',
                    input: ({ context }) => ({ ticketId: context.ticketId ?? 0 }),
                    onDone: { target: 'ready', actions: { type: 'assignThread', params: ({ event }) => event.output } },
                    onError: { target: 'ready' },
                  },
                },
                failed: {
                  on: { 'support.refreshRequested': { target: 'loading' } },
                },
                ready: {
                  initial: 'idle',
                  states: {
                    idle: {
                      on: {
                        'support.replyRequested': { guard: 'hasText', target: 'sending', actions: 'clearReplyError' },
                        'support.closeRequested': { target: 'closing' },
                      },
                    },
                    sending: {
                      invoke: {
                        id: 'postReply',
                        src: 'postReply',
                        input: ({ context, event }) => {
                          assertEvent(event, 'support.replyRequested');
                          return { ticketId: context.ticketId ?? 0, body: event.body.trim(), files: event.files };
                        },
                        onDone: { target: 'idle', actions: { type: 'assignPosted', params: ({ event }) => event.output } },
                        onError: { target: 'idle', actions: { type: 'assignReplyError', params: ({ event }) => ({ error: event.error }) } },
                      },
                    },
                    closing: {
                      invoke: {
                        id: 'closeTicket',
                        src: 'closeTicket',
                        input: ({ context }) => ({ ticketId: context.ticketId ?? 0 }),
                        onDone: {
                          target: 'idle',
                          actions: [{ type: 'assignClosed', params: ({ event }) => event.output }, { type: 'toast', params: { toast: { type: 'success', messageKey: 'support.closed_toast' } } }],
                        },
                        onError: { target: 'idle', actions: { type: 'assignReplyError', params: ({ event }) => ({ error: event.error }) } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
        form: {
          initial: 'idle',
          on: { 'support.formReset': { actions: 'clearFormError' } },
          states: {
            idle: {
              on: { 'support.createRequested': { target: 'submitting', actions: 'clearFormError' } },
            },
            submitting: {
              invoke: {
                id: 'createTicket',
                src: 'createTicket',
                input: ({ event }) => {
                  assertEvent(event, 'support.createRequested');
                  return event.request;
                },
                onDone: {
                  target: 'idle',
                  actions: [
                    { type: 'showCreated', params: ({ event }) => event.output },
                    { type: 'toast', params: { toast: { type: 'success', messageKey: 'support.created_toast' } } },
                  ],
                },
                onError: { target: 'idle', actions: { type: 'assignFormError', params: ({ event }) => ({ error: event.error }) } },
              },
            },
          },
        },
      },
    },
  },
});

export type SupportMachine = typeof supportMachine;
