/**
 * The operator's support inbox (console-support.machine): generated paths with full coverage,
 * then behaviour with stub actors: the filters reach the request and go back to page 1, a
 * selected ticket's thread loads, an answer or a note is added and the table row follows, an
 * empty answer is never sent.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import type { ConsolePosted, ConsoleThread, Inbox, InboxTicket, TicketStatus } from '../../contract/support';
import { consoleSupportMachine, withRow, type InboxRequest } from '../../machines/console-support/console-support.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, type PathModel } from './harness';
import { consolePosted, consoleThread, inbox, inboxTicket } from './fixtures-support';

const events: AnyEventObject[] = [
  { type: 'inbox.filtersChanged', filters: { status: 'awaiting_support' } },
  { type: 'inbox.pageChanged', page: 2 },
  { type: 'inbox.refreshRequested' },
  { type: 'inbox.ticketSelected', ticketId: 1 },
  { type: 'inbox.ticketClosed' },
  { type: 'inbox.replyRequested', body: 'Hello', internal: false },
  { type: 'inbox.replyRequested', body: ' ', internal: true },
  { type: 'inbox.assignRequested', operatorId: 7 },
  { type: 'inbox.statusRequested', status: 'resolved' },
  { type: 'xstate.done.actor.loadInbox', output: inbox },
  { type: 'xstate.error.actor.loadInbox', error: { message: 'Forbidden' } },
  { type: 'xstate.done.actor.loadThread', output: consoleThread(1) },
  { type: 'xstate.error.actor.loadThread', error: { message: 'Ticket not found' } },
  { type: 'xstate.done.actor.postMessage', output: consolePosted(1) },
  { type: 'xstate.error.actor.postMessage', error: { message: 'This ticket is closed' } },
  { type: 'xstate.done.actor.assignTicket', output: inboxTicket(1, { assignee_id: 7, assignee_name: 'Sam' }) },
  { type: 'xstate.error.actor.assignTicket', error: { message: '' } },
  { type: 'xstate.done.actor.setStatus', output: inboxTicket(1, { status: 'resolved' }) },
  { type: 'xstate.error.actor.setStatus', error: { message: '' } },
];
const byType = (...types: string[]) => events.filter((e) => types.includes(e.type));
/**
 * The events offered in a state: the finishing of what runs there, the inbox's own events while
 * no thread is open and the thread's while the table is read (the regions are independent, so
 * this keeps the graph small without leaving a transition out).
 */
function offered(s: AnyMachineSnapshot): AnyEventObject[] {
  const out: AnyEventObject[] = [];
  if (s.matches({ inbox: 'loading' })) out.push(...byType('xstate.done.actor.loadInbox', 'xstate.error.actor.loadInbox'));
  if (s.matches({ thread: 'closed' })) out.push(...byType('inbox.filtersChanged', 'inbox.pageChanged', 'inbox.refreshRequested'));
  if (!s.matches({ inbox: 'ready' })) return out;
  out.push(...byType('inbox.ticketSelected', 'inbox.ticketClosed'));
  if (s.matches({ thread: { open: 'loading' } })) out.push(...byType('xstate.done.actor.loadThread', 'xstate.error.actor.loadThread'));
  if (s.matches({ thread: { open: { ready: 'idle' } } })) out.push(...byType('inbox.replyRequested', 'inbox.assignRequested', 'inbox.statusRequested'));
  if (s.matches({ thread: { open: { ready: 'posting' } } })) out.push(...byType('xstate.done.actor.postMessage', 'xstate.error.actor.postMessage'));
  if (s.matches({ thread: { open: { ready: 'assigning' } } })) out.push(...byType('xstate.done.actor.assignTicket', 'xstate.error.actor.assignTicket'));
  if (s.matches({ thread: { open: { ready: 'changingStatus' } } })) out.push(...byType('xstate.done.actor.setStatus', 'xstate.error.actor.setStatus'));
  return out;
}
const model: PathModel = {
  name: 'consoleSupport',
  machine: consoleSupportMachine,
  input: {},
  events: offered,
  simplePaths: false,
};

describe('consoleSupport machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('consoleSupport'));
});

function start() {
  const calls = { inbox: [] as InboxRequest[], posts: [] as { ticketId: number; body: string; internal: boolean }[] };
  const actor = createActor(
    consoleSupportMachine.provide({
      actors: {
        loadInbox: fromPromise<Inbox, InboxRequest>(async ({ input }) => {
          calls.inbox.push(input);
          return inbox;
        }),
        loadThread: fromPromise<ConsoleThread, { ticketId: number }>(async ({ input }) => consoleThread(input.ticketId)),
        postMessage: fromPromise<ConsolePosted, { ticketId: number; body: string; internal: boolean }>(async ({ input }) => {
          calls.posts.push(input);
          return consolePosted(input.ticketId);
        }),
        assignTicket: fromPromise<InboxTicket, { ticketId: number; operatorId: number | null }>(async ({ input }) => inboxTicket(input.ticketId, { assignee_id: input.operatorId })),
        setStatus: fromPromise<InboxTicket, { ticketId: number; status: TicketStatus }>(async ({ input }) => inboxTicket(input.ticketId, { status: input.status })),
      },
    }),
    { input: {} },
  );
  actor.start();
  return { actor, calls };
}

describe('consoleSupport behaviour', () => {
  it('sends the filters, back to page 1 when they change', async () => {
    const { actor, calls } = start();
    await waitFor(actor, (s) => s.matches({ inbox: 'ready' }));
    actor.send({ type: 'inbox.pageChanged', page: 3 });
    await waitFor(actor, (s) => s.matches({ inbox: 'ready' }));
    actor.send({ type: 'inbox.filtersChanged', filters: { assignee: 'me', category: 'withdrawal' } });
    await waitFor(actor, (s) => s.matches({ inbox: 'ready' }));
    expect(calls.inbox.map((r) => [r.page, r.assignee, r.category])).toEqual([
      [1, 'all', 'all'],
      [3, 'all', 'all'],
      [1, 'me', 'withdrawal'],
    ]);
  });

  it('answers and notes in the selected thread; an empty answer is not sent; the row follows', async () => {
    const { actor, calls } = start();
    await waitFor(actor, (s) => s.matches({ inbox: 'ready' }));
    actor.send({ type: 'inbox.ticketSelected', ticketId: 1 });
    await waitFor(actor, (s) => s.matches({ thread: { open: { ready: 'idle' } } }));
    actor.send({ type: 'inbox.replyRequested', body: '   ', internal: false });
    expect(actor.getSnapshot().matches({ thread: { open: { ready: 'idle' } } })).toBe(true);
    actor.send({ type: 'inbox.replyRequested', body: ' Done ', internal: false });
    await waitFor(actor, (s) => s.matches({ thread: { open: { ready: 'idle' } } }) && s.context.thread!.messages.length === 3);
    expect(calls.posts).toEqual([{ ticketId: 1, body: 'Done', internal: false }]);
    expect(actor.getSnapshot().context.tickets[0].status).toBe('awaiting_user');
    actor.send({ type: 'inbox.statusRequested', status: 'resolved' });
    await waitFor(actor, (s) => s.context.thread?.ticket.status === 'resolved');
    expect(withRow([inboxTicket(1), inboxTicket(2)], inboxTicket(2, { status: 'closed' }))[1].status).toBe('closed');
  });
});
