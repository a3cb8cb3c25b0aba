/**
 * The support center's queries: the only place that reads or writes `support_tickets`,
 * `support_messages` and `support_attachments`. Every function takes the handle first: the
 * database, or a running transaction's `trx`. The trader's name for the inbox comes from the
 * users table through auth's repository, never from here.
 */
import type { Selectable } from 'kysely';
import { forUpdate, type DB, type Trx } from '../../db';
import type { SupportAttachmentsTable, SupportMessagesTable, SupportTicketsTable } from '../../db/tables/support';
import type { InboxSort } from '../../../contract/support';

export type TicketRow = Selectable<SupportTicketsTable>;
export type MessageRow = Selectable<SupportMessagesTable>;
export type AttachmentRow = Selectable<SupportAttachmentsTable>;

export interface NewTicket {
  user_id: number;
  category: string;
  subject: string;
  status: string;
  order_id: number | null;
  transaction_id: number | null;
  created_at: number;
}

export interface NewMessage {
  ticket_id: number;
  author: 'user' | 'operator' | 'system';
  operator_id: number | null;
  author_name: string | null;
  body: string;
  internal: boolean;
  created_at: number;
}

export type NewAttachment = Omit<AttachmentRow, 'id'>;

export function insertTicket(trx: Trx, t: NewTicket): Promise<TicketRow> {
  return trx
    .insertInto('support_tickets')
    .values({ ...t, assignee_id: null, updated_at: t.created_at, first_response_at: null, support_activity_at: null, user_read_at: t.created_at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function insertMessage(trx: Trx, m: NewMessage): Promise<MessageRow> {
  return trx
    .insertInto('support_messages')
    .values({ ...m, internal: m.internal ? 1 : 0 })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertAttachments(trx: Trx, rows: NewAttachment[]): Promise<void> {
  for (const r of rows) await trx.insertInto('support_attachments').values(r).execute();
}

/** The ticket, or undefined; with userId only the owner's. */
export function findTicket(db: DB | Trx, id: number, userId?: number): Promise<TicketRow | undefined> {
  let q = db.selectFrom('support_tickets').selectAll().where('id', '=', id);
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  return q.executeTakeFirst();
}

/** The ticket locked for an update (PostgreSQL; SQLite runs writes one by one). */
export function lockTicket(trx: Trx, id: number, userId?: number): Promise<TicketRow | undefined> {
  let q = trx.selectFrom('support_tickets').selectAll().where('id', '=', id);
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  return forUpdate(trx, q).executeTakeFirst();
}

export function updateTicket(trx: Trx, id: number, patch: Partial<Omit<TicketRow, 'id' | 'user_id'>>): Promise<TicketRow> {
  return trx.updateTable('support_tickets').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** The owner's tickets, latest activity first. */
export function ticketsOf(db: DB, userId: number, limit: number): Promise<TicketRow[]> {
  return db.selectFrom('support_tickets').selectAll().where('user_id', '=', userId).orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** Tickets opened by the user since `since` (ms), and how many are not closed. */
export async function ticketCounts(trx: Trx, userId: number, since: number): Promise<{ recent: number; open: number }> {
  const row = await trx
    .selectFrom('support_tickets')
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when('created_at', '>=', since).then(1).else(0).end()).as('recent'),
      eb.fn.sum<number>(eb.case().when('status', '!=', 'closed').then(1).else(0).end()).as('open'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { recent: Number(row?.recent ?? 0), open: Number(row?.open ?? 0) };
}

/** The thread's messages in order; internal notes only when asked for. */
export function messagesOf(db: DB | Trx, ticketId: number, withInternal: boolean): Promise<MessageRow[]> {
  let q = db.selectFrom('support_messages').selectAll().where('ticket_id', '=', ticketId);
  if (!withInternal) q = q.where('internal', '=', 0);
  return q.orderBy('id').execute();
}

export function findMessage(db: DB, id: number): Promise<MessageRow | undefined> {
  return db.selectFrom('support_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

export function attachmentsOf(db: DB | Trx, messageIds: number[]): Promise<AttachmentRow[]> {
  if (messageIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('support_attachments').selectAll().where('message_id', 'in', messageIds).orderBy('id').execute();
}

/** One attachment of a ticket, with whether its message is internal (a trader never reads those). */
export function findAttachment(db: DB, ticketId: number, fileId: number): Promise<(AttachmentRow & { internal: number }) | undefined> {
  return db
    .selectFrom('support_attachments as a')
    .innerJoin('support_messages as m', 'm.id', 'a.message_id')
    .selectAll('a')
    .select('m.internal')
    .where('a.id', '=', fileId)
    .where('a.ticket_id', '=', ticketId)
    .executeTakeFirst();
}

export interface InboxFilter {
  statuses: string[] | null;
  /** null: anyone; 0: unassigned; else that operator. */
  assignee: number | null;
  category: string | null;
  sort: InboxSort;
  limit: number;
  offset: number;
}

/** A page of the inbox with each ticket's message count, and the total. */
export async function inboxPage(db: DB, f: InboxFilter): Promise<{ rows: (TicketRow & { messages: number })[]; total: number }> {
  let q = db.selectFrom('support_tickets');
  if (f.statuses) q = q.where('status', 'in', f.statuses);
  if (f.assignee === 0) q = q.where('assignee_id', 'is', null);
  else if (f.assignee !== null) q = q.where('assignee_id', '=', f.assignee);
  if (f.category) q = q.where('category', '=', f.category);
  const totalRow = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  let page = q.selectAll('support_tickets').select((eb) =>
    eb.selectFrom('support_messages').select((m) => m.fn.countAll<number>().as('c')).whereRef('support_messages.ticket_id', '=', 'support_tickets.id').as('messages'),
  );
  switch (f.sort) {
    case 'updated_asc':
      page = page.orderBy('updated_at', 'asc');
      break;
    case 'created_desc':
      page = page.orderBy('created_at', 'desc');
      break;
    case 'created_asc':
      page = page.orderBy('created_at', 'asc');
      break;
    case 'waiting_desc':
      // Unanswered first, the oldest of them first.
      page = page.orderBy((eb) => eb.case().when('first_response_at', 'is', null).then(0).else(1).end(), 'asc').orderBy('created_at', 'asc');
      break;
    default:
      page = page.orderBy('updated_at', 'desc');
  }
  const rows = await page.orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute();
  return { rows: rows.map((r) => ({ ...r, messages: Number(r.messages ?? 0) })), total: Number(totalRow?.n ?? 0) };
}

/** Tickets waiting for the support desk (new, or the trader answered last): the queue's size. */
export async function ticketsAwaitingSupport(db: DB): Promise<number> {
  const row = await db
    .selectFrom('support_tickets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', 'in', ['open', 'awaiting_support'])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
