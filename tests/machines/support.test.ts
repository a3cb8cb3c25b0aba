/**
 * The trader's support machine (support.machine): generated paths with full coverage, then
 * behaviour with stub actors: the list loads at login and is forgotten at logout, a new ticket
 * goes first and its thread opens, a reply is added to the thread, a live answer (the
 * support_update push) updates the list's unread count when the thread is not shown and is
 * read at once (unread false, thread read again) when it is.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fromPromise, waitFor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import type { Posted, Thread, Ticket, TicketList } from '../../contract/support';
import { supportMachine, withMessage, withTicket, type NewTicketRequest, type ReplyRequest, type SupportContext } from '../../machines/support/support.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';
import { message, posted, thread, ticket } from './fixtures-support';

const list: TicketList = { tickets: [ticket(1), ticket(2, { unread: true })], unread: 1 };
const request: NewTicketRequest = { category: 'deposit', subject: 'Late', message: 'Where is it?', orderId: null, transactionId: null, files: [] };

const events: AnyEventObject[] = [
  { type: 'support.sessionStarted' },
  { type: 'support.sessionEnded' },
  { type: 'support.refreshRequested' },
  { type: 'support.threadOpened', ticketId: 1 },
  { type: 'support.threadClosed' },
  { type: 'support.replyRequested', body: 'More', files: [] },
  { type: 'support.replyRequested', body: '  ', files: [] },
  { type: 'support.closeRequested' },
  { type: 'support.createRequested', request },
  { type: 'support.formReset' },
  { type: 'support.updated', ticket: ticket(1, { status: 'awaiting_user', unread: true }), message: message(11, 1, { author: 'operator' }) },
  { type: 'support.updated', ticket: ticket(2, { status: 'resolved', unread: true }), message: null },
  { type: 'xstate.done.actor.loadTickets', output: list },
  { type: 'xstate.error.actor.loadTickets', error: { message: 'Unauthorized' } },
  { type: 'xstate.done.actor.loadThread', output: thread(1) },
  { type: 'xstate.error.actor.loadThread', error: { message: 'Ticket not found' } },
  { type: 'xstate.done.actor.syncThread', output: thread(1) },
  { type: 'xstate.error.actor.syncThread', error: { message: '' } },
  { type: 'xstate.done.actor.postReply', output: posted(1) },
  { type: 'xstate.error.actor.postReply', error: { message: 'This ticket is closed' } },
  { type: 'xstate.done.actor.closeTicket', output: ticket(1, { status: 'closed' }) },
  { type: 'xstate.error.actor.closeTicket', error: { message: '' } },
  { type: 'xstate.done.actor.createTicket', output: thread(3) },
  { type: 'xstate.error.actor.createTicket', error: { message: 'Subject is required' } },
];
const byType = (...types: string[]) => events.filter((e) => types.includes(e.type));
/**
 * The events offered in a state: the finishing of what runs there, and each region's own events
 * while the other regions rest (they are independent, so this keeps the graph small without
 * leaving a transition out).
 */
function offered(s: AnyMachineSnapshot): AnyEventObject[] {
  if (s.matches('loggedOut')) return byType('support.sessionStarted');
  const out: AnyEventObject[] = [];
  if (s.matches({ loggedIn: { list: 'loading' } })) out.push(...byType('support.sessionEnded', 'xstate.done.actor.loadTickets', 'xstate.error.actor.loadTickets'));
  else if (s.matches({ loggedIn: { thread: 'closed', form: 'idle' } })) out.push(...byType('support.refreshRequested'));
  if (!s.matches({ loggedIn: { list: 'ready' } })) return out;
  const formIdle = s.matches({ loggedIn: { form: 'idle' } });
  if (formIdle) out.push(...byType('support.threadOpened', 'support.threadClosed'));
  // A push only when it changes something (the same push twice is the same state).
  const context = s.context as SupportContext;
  if (formIdle && (s.matches({ loggedIn: { thread: 'closed' } }) || s.matches({ loggedIn: { thread: { open: { ready: 'idle' } } } }))) {
    out.push(...byType('support.updated').filter((e) => context.tickets[0]?.id !== e.ticket.id));
  }
  if (s.matches({ loggedIn: { thread: 'closed' } })) out.push(...byType(formIdle ? 'support.createRequested' : 'support.formReset'));
  if (s.matches({ loggedIn: { form: 'submitting' } })) out.push(...byType('xstate.done.actor.createTicket', 'xstate.error.actor.createTicket'));
  if (s.matches({ loggedIn: { thread: { open: 'loading' } } })) out.push(...byType('xstate.done.actor.loadThread', 'xstate.error.actor.loadThread'));
  if (s.matches({ loggedIn: { thread: { open: 'syncing' } } })) out.push(...byType('xstate.done.actor.syncThread', 'xstate.error.actor.syncThread'));
  if (s.matches({ loggedIn: { thread: { open: 'failed' } } })) out.push(...byType('support.refreshRequested'));
  if (s.matches({ loggedIn: { thread: { open: { ready: 'idle' } } } })) out.push(...byType('support.replyRequested', 'support.closeRequested'));
  if (s.matches({ loggedIn: { thread: { open: { ready: 'sending' } } } })) out.push(...byType('xstate.done.actor.postReply', 'xstate.error.actor.postReply'));
  if (s.matches({ loggedIn: { thread: { open: { ready: 'closing' } } } })) out.push(...byType('xstate.done.actor.closeTicket', 'xstate.error.actor.closeTicket'));
  return out;
}
const model: PathModel = {
  name: 'support',
  machine: supportMachine,
  events: offered,
  simplePaths: false,
};

describe('support machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('support'));
});

function start() {
  const calls = { threads: [] as number[], replies: [] as ReplyRequest[], created: [] as NewTicketRequest[] };
  const { actor } = startUnderParent(
    supportMachine.provide({
      actors: {
        loadTickets: fromPromise<TicketList, void>(async () => list),
        loadThread: fromPromise<Thread, { ticketId: number }>(async ({ input }) => {
          calls.threads.push(input.ticketId);
          return { ticket: ticket(input.ticketId), messages: [message(10 * input.ticketId, input.ticketId), message(11, input.ticketId, { author: 'operator' })] };
        }),
        postReply: fromPromise<Posted, ReplyRequest>(async ({ input }) => {
          calls.replies.push(input);
          return posted(input.ticketId);
        }),
        closeTicket: fromPromise<Ticket, { ticketId: number }>(async ({ input }) => ticket(input.ticketId, { status: 'closed' })),
        createTicket: fromPromise<Thread, NewTicketRequest>(async ({ input }) => {
          calls.created.push(input);
          return thread(3);
        }),
      },
    }),
  );
  return { actor, calls };
}

describe('support behaviour', () => {
  it('loads the list at login with the unread count and forgets it at logout', async () => {
    const { actor } = start();
    actor.send({ type: 'support.sessionStarted' });
    await waitFor(actor, (s) => s.matches({ loggedIn: { list: 'ready' } }));
    expect(actor.getSnapshot().context.unread).toBe(1);
    actor.send({ type: 'support.sessionEnded' });
    expect(actor.getSnapshot().context.tickets).toEqual([]);
  });

  it('a new ticket goes first and its thread opens; a reply is trimmed and added', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'support.sessionStarted' });
    await waitFor(actor, (s) => s.matches({ loggedIn: { list: 'ready' } }));
    actor.send({ type: 'support.createRequested', request });
    await waitFor(actor, (s) => s.matches({ loggedIn: { thread: { open: 'ready' }, form: 'idle' } }) && s.context.ticketId === 3);
    expect(actor.getSnapshot().context.tickets[0].id).toBe(3);
    actor.send({ type: 'support.replyRequested', body: '  hello  ', files: [] });
    await waitFor(actor, (s) => s.matches({ loggedIn: { thread: { open: { ready: 'idle' } } } }) && s.context.messages.length === 2);
    expect(calls.replies[0]).toEqual({ ticketId: 3, body: 'hello', files: [] });
  });

  it('a live answer marks the list unread, or is read at once in the open thread', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'support.sessionStarted' });
    await waitFor(actor, (s) => s.matches({ loggedIn: { list: 'ready' } }));
    actor.send({ type: 'support.updated', ticket: ticket(1, { unread: true, status: 'awaiting_user' }), message: message(11, 1, { author: 'operator' }) });
    expect(actor.getSnapshot().context.unread).toBe(2);
    expect(actor.getSnapshot().context.tickets[0].id).toBe(1);
    actor.send({ type: 'support.threadOpened', ticketId: 1 });
    await waitFor(actor, (s) => s.matches({ loggedIn: { thread: { open: 'ready' } } }));
    actor.send({ type: 'support.updated', ticket: ticket(1, { unread: true, status: 'awaiting_user' }), message: message(12, 1, { author: 'operator', body: 'live' }) });
    expect(actor.getSnapshot().context.messages.map((m) => m.body)).toContain('live');
    expect(actor.getSnapshot().context.tickets.find((t) => t.id === 1)?.unread).toBe(false);
    await waitFor(actor, (s) => s.matches({ loggedIn: { thread: { open: 'ready' } } }));
    expect(calls.threads).toEqual([1, 1]);
  });

  it('helpers: a ticket replaces its old copy first; a message is added once in order', () => {
    expect(withTicket([ticket(1), ticket(2)], ticket(2, { unread: true }))).toEqual({ tickets: [ticket(2, { unread: true }), ticket(1)], unread: 1 });
    expect(withMessage([message(1, 1), message(3, 1)], message(2, 1)).map((m) => m.id)).toEqual([1, 2, 3]);
    expect(withMessage([message(1, 1)], message(1, 1))).toHaveLength(1);
  });
});
