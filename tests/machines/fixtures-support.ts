/** Tickets, messages and threads for the support machines' tests. */
import type { ConsolePosted, ConsoleThread, Inbox, InboxTicket, Posted, Thread, Ticket, TicketMessage } from '../../contract/support';

export const ticket = (id: number, over: Partial<Ticket> = {}): Ticket => ({
  id,
  category: 'deposit',
  subject: `Ticket ${id}`,
  status: 'open',
  order_id: null,
  transaction_id: null,
  created_at: 1_760_000_000_000 + id,
  updated_at: 1_760_000_000_000 + id,
  first_response_at: null,
  unread: false,
  ...over,
});

export const message = (id: number, ticketId: number, over: Partial<TicketMessage> = {}): TicketMessage => ({
  id,
  ticket_id: ticketId,
  author: 'user',
  author_name: null,
  body: `Message ${id}`,
  internal: false,
  attachments: [],
  created_at: 1_760_000_000_000 + id,
  ...over,
});

export const thread = (id: number): Thread => ({ ticket: ticket(id), messages: [message(10 * id, id)] });
export const posted = (id: number): Posted => ({ ticket: ticket(id, { status: 'awaiting_support' }), message: message(10 * id + 1, id) });

export const inboxTicket = (id: number, over: Partial<InboxTicket> = {}): InboxTicket => ({
  ...ticket(id),
  user_id: 100 + id,
  username: `trader${id}`,
  assignee_id: null,
  assignee_name: null,
  first_response_ms: null,
  messages: 1,
  ...over,
});

export const inbox: Inbox = { tickets: [inboxTicket(1), inboxTicket(2)], pagination: { page: 1, limit: 25, total: 2 } };

export const consoleThread = (id: number): ConsoleThread => ({
  ticket: inboxTicket(id),
  messages: [message(10 * id, id), message(10 * id + 1, id, { author: 'operator', author_name: 'Sam', internal: true, body: 'note' })],
  context: {
    user_id: 100 + id,
    username: `trader${id}`,
    email: `t${id}@example.com`,
    name: 'Ada Lovelace',
    email_verified: true,
    two_factor_enabled: false,
    created_at: 1_760_000_000,
    balances: [{ currency: 'USD', account: 'real', amount: '10' }],
    orders: [],
    transactions: [],
  },
});

export const consolePosted = (id: number): ConsolePosted => ({
  ticket: inboxTicket(id, { status: 'awaiting_user', first_response_ms: 1000 }),
  message: message(10 * id + 2, id, { author: 'operator', author_name: 'Sam' }),
});
