/**
 * The support inbox's REST calls (contract/support.ts, /api/console/support/...): the console's
 * own cookie (same origin, sent by the browser) and the x-console CSRF header on every request;
 * every answer checked with its schema. The machine's actors are built here, so the inbox view
 * never touches the network.
 */
import * as v from 'valibot';
import { fromPromise } from 'xstate';
import { CONSOLE_CSRF_HEADER } from '../../../contract/console';
import { ConsolePostedSchema, ConsoleThreadSchema, InboxSchema, InboxTicketSchema, type TicketStatus } from '../../../contract/support';
import { consoleSupportMachine, type InboxRequest } from '../../../machines/console-support/console-support.machine';

async function call<S extends v.GenericSchema>(schema: S, fallback: string, path: string, init: { method: string; body?: unknown } = { method: 'GET' }): Promise<v.InferOutput<S>> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method,
      credentials: 'same-origin',
      headers: { [CONSOLE_CSRF_HEADER]: '1', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    throw new Error(fallback);
  }
  const body: unknown = await res.json().catch(() => null);
  const envelope = v.safeParse(v.object({ success: v.boolean(), data: v.unknown(), error: v.nullable(v.string()) }), body);
  if (!res.ok || !envelope.success || !envelope.output.success) throw Object.assign(new Error(envelope.success && envelope.output.error ? envelope.output.error : fallback), { status: res.status });
  const parsed = v.safeParse(schema, envelope.output.data);
  if (!parsed.success) throw new Error(fallback);
  return parsed.output;
}

const ticketPath = (id: number) => `/api/console/support/tickets/${encodeURIComponent(String(id))}`;

/** The inbox machine with its real actors. */
export function supportInboxLogic() {
  return consoleSupportMachine.provide({
    actors: {
      loadInbox: fromPromise(({ input }: { input: InboxRequest }) => {
        const q = new URLSearchParams({ status: input.status, assignee: input.assignee, category: input.category, sort: input.sort, page: String(input.page), limit: String(input.limit) });
        return call(InboxSchema, 'console_support.load_failed', `/api/console/support/tickets?${q}`);
      }),
      loadThread: fromPromise(({ input }: { input: { ticketId: number } }) => call(ConsoleThreadSchema, 'console_support.thread_failed', ticketPath(input.ticketId))),
      postMessage: fromPromise(({ input }: { input: { ticketId: number; body: string; internal: boolean } }) =>
        call(ConsolePostedSchema, 'console_support.action_failed', `${ticketPath(input.ticketId)}/messages`, { method: 'POST', body: { body: input.body, internal: input.internal } }),
      ),
      assignTicket: fromPromise(async ({ input }: { input: { ticketId: number; operatorId: number | null } }) => {
        const { ticket } = await call(v.object({ ticket: InboxTicketSchema }), 'console_support.action_failed', `${ticketPath(input.ticketId)}/assign`, { method: 'POST', body: { operator_id: input.operatorId } });
        return ticket;
      }),
      setStatus: fromPromise(async ({ input }: { input: { ticketId: number; status: TicketStatus } }) => {
        const { ticket } = await call(v.object({ ticket: InboxTicketSchema }), 'console_support.action_failed', `${ticketPath(input.ticketId)}/status`, { method: 'POST', body: { status: input.status } });
        return ticket;
      }),
    },
  });
}
