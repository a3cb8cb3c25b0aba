/**
 * The real implementations of what the support machine names (contract/support.ts): the
 * trader's ticket REST calls on the SPA's http client, every answer checked with its schema. A
 * failure carries the server's text, or the machine's locale key when the server gave none.
 * Files go as multipart FormData (the browser sets the boundary): a new ticket is created first,
 * then its files are sent as the ticket's next message.
 */
import { fromPromise } from 'xstate';
import { PostedSchema, ThreadSchema, TicketListSchema, TicketSchema, type Posted, type Thread, type Ticket, type TicketList } from '../../contract/support';
import * as v from 'valibot';
import { supportMachine, type NewTicketRequest, type ReplyRequest, type SupportFile } from '../../machines/support/support.machine';
import type { HttpClient } from './http';
import { apiClient } from './api-client';
import { UPLOAD_TIMEOUT_MS } from './profile-api';

export const SUPPORT_FALLBACK = {
  list: 'support.load_failed',
  thread: 'support.thread_failed',
  create: 'support.create_failed',
  reply: 'support.reply_failed',
  close: 'support.close_failed',
} as const;

const isBlob = (f: SupportFile): f is SupportFile & Blob => typeof Blob !== 'undefined' && f instanceof Blob;

export function createSupportApi(http: HttpClient) {
  const { parsed } = apiClient(http);
  const ticketPath = (id: number) => `/api/v2/support/tickets/${encodeURIComponent(String(id))}`;
  const api = {
    list: (): Promise<TicketList> => parsed(TicketListSchema, SUPPORT_FALLBACK.list, '/api/v2/support/tickets', { method: 'GET' }),
    thread: (id: number): Promise<Thread> => parsed(ThreadSchema, SUPPORT_FALLBACK.thread, ticketPath(id), { method: 'GET' }),
    reply: (id: number, body: string): Promise<Posted> => parsed(PostedSchema, SUPPORT_FALLBACK.reply, `${ticketPath(id)}/messages`, { method: 'POST', body: { body } }),
    attach(id: number, files: readonly SupportFile[], body: string): Promise<Posted> {
      const form = new FormData();
      for (const f of files) if (isBlob(f)) form.append('files', f, f.name);
      if (body) form.append('body', body);
      return parsed(PostedSchema, SUPPORT_FALLBACK.reply, `${ticketPath(id)}/attachments`, { method: 'POST', body: form, timeout: UPLOAD_TIMEOUT_MS });
    },
    async close(id: number): Promise<Ticket> {
      const { ticket } = await parsed(v.object({ ticket: TicketSchema }), SUPPORT_FALLBACK.close, `${ticketPath(id)}/close`, { method: 'POST', body: {} });
      return ticket;
    },
    async create(request: NewTicketRequest): Promise<Thread> {
      const thread = await parsed(ThreadSchema, SUPPORT_FALLBACK.create, '/api/v2/support/tickets', {
        method: 'POST',
        body: {
          category: request.category,
          subject: request.subject,
          message: request.message,
          ...(request.orderId ? { order_id: request.orderId } : {}),
          ...(request.transactionId ? { transaction_id: request.transactionId } : {}),
        },
      });
      if (request.files.length === 0) return thread;
      const posted = await api.attach(thread.ticket.id, request.files, '');
      return { ticket: posted.ticket, messages: [...thread.messages, posted.message] };
    },
  };
  return api;
}

/** `{ support }` for the feature chunk (feature-actors.ts). */
export function supportImplementations(deps: { http: HttpClient }) {
  const api = createSupportApi(deps.http);
  return {
    support: supportMachine.provide({
      actors: {
        loadTickets: fromPromise<TicketList, void>(() => api.list()),
        loadThread: fromPromise<Thread, { ticketId: number }>(({ input }) => api.thread(input.ticketId)),
        postReply: fromPromise<Posted, ReplyRequest>(({ input }) => (input.files.length > 0 ? api.attach(input.ticketId, input.files, input.body) : api.reply(input.ticketId, input.body))),
        closeTicket: fromPromise<Ticket, { ticketId: number }>(({ input }) => api.close(input.ticketId)),
        createTicket: fromPromise<Thread, NewTicketRequest>(({ input }) => api.create(input)),
      },
    }),
  };
}
