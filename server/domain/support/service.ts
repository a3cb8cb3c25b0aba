/**
 * The support center (contract/support.ts, docs/support-center.md).
 *
 * Trader: open a ticket (category, subject, first message, an optional order and transaction
 * that must be the trader's own; at most TICKETS_PER_HOUR new tickets an hour and
 * OPEN_TICKETS_MAX not closed), read the thread (internal notes are never read for a trader),
 * reply, attach files (the identity documents' rules: judged by content, images re-encoded,
 * PDFs inspected; stored under DATA_DIR/uploads/support), close.
 *
 * Operator (roles support and admin, checked by the route's guard): the inbox (filters, sort,
 * pages, first-response time), the thread with internal notes and the trader's read-only
 * context, assign, reply, note, status. Every operator action appends its audit row (the
 * hash-chained audit_log, domain/audit) in the transaction of the change.
 *
 * Statuses: open (new) -> awaiting_user (support answered) <-> awaiting_support (the trader
 * answered) -> resolved -> closed. A trader's reply re-opens a resolved ticket (awaiting_support);
 * a closed ticket takes no more messages. An operator answer and a status change record
 * `support.updated` in their transaction; delivery.ts pushes it to the trader's sockets and
 * sends Telegram / email per the trader's settings. A note records nothing.
 */
import crypto from 'node:crypto';
import type { Trx } from '../../db';
import fs from 'node:fs/promises';
import {
  ATTACHMENT_MAX_FILES,
  OPEN_TICKETS_MAX,
  SUPPORT_ROLES,
  SupportText,
  TICKETS_PER_HOUR,
  type AttachmentMime,
  type ConsolePosted,
  type ConsoleThread,
  type CreateTicket,
  type Inbox,
  type InboxQuery,
  type InboxTicket,
  type Posted,
  type Thread,
  type Ticket,
  type TicketCategory,
  type TicketList,
  type TicketMessage,
  type TicketStatus,
  type TraderContext,
} from '../../../contract/support';
import { Conflict, NotFound, conflict, invalid, notFound, rateLimited } from '../errors';
import { recordEvent } from '../events';
import { lockUserRow, usernamesOf } from '../auth/repository';
import { prepareDocumentFile, type PreparedFile, type UploadedFile } from '../profile/documents';
import { randomFileName, removeFiles, writeFileAtomic } from '../profile/storage';
import { appendAudit, type AuditActor } from '../audit/service';
import type { SupportDeps } from './deps';
import { startSupportDelivery } from './delivery';
import {
  attachmentsOf,
  findAttachment,
  findTicket,
  inboxPage,
  insertAttachments,
  insertMessage,
  insertTicket,
  lockTicket,
  messagesOf,
  ticketCounts,
  ticketsOf,
  updateTicket,
  type MessageRow,
  type TicketRow,
} from './repository';
import { supportFilePath } from './storage';

const HOUR_MS = 60 * 60 * 1000;
const ACTIVE: TicketStatus[] = ['open', 'awaiting_user', 'awaiting_support'];

const n = (x: number | string | null): number | null => (x === null ? null : Number(x));

/** The ticket as its owner sees it. */
export function ticketWire(row: TicketRow): Ticket {
  const activity = n(row.support_activity_at);
  const read = n(row.user_read_at);
  return {
    id: Number(row.id),
    category: row.category as TicketCategory,
    subject: row.subject,
    status: row.status as TicketStatus,
    order_id: n(row.order_id),
    transaction_id: n(row.transaction_id),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    first_response_at: n(row.first_response_at),
    unread: activity !== null && (read === null || activity > read),
  };
}

export class SupportService {
  private offDelivery: (() => void) | null = null;

  constructor(private readonly deps: SupportDeps) {}

  start(): void {
    const { db, events, log, emitToUser, telegram, mailer, publicUrl } = this.deps;
    this.offDelivery ??= startSupportDelivery({ db, events, log, emitToUser, telegram, mailer, publicUrl, support: this });
  }

  stop(): void {
    this.offDelivery?.();
    this.offDelivery = null;
  }

  // ---- wire ---------------------------------------------------------------------------------

  private async messagesWire(rows: MessageRow[]): Promise<TicketMessage[]> {
    const files = await attachmentsOf(
      this.deps.db,
      rows.map((r) => Number(r.id)),
    );
    return rows.map((r) => ({
      id: Number(r.id),
      ticket_id: Number(r.ticket_id),
      author: r.author as TicketMessage['author'],
      author_name: r.author_name,
      body: r.body,
      internal: Number(r.internal) === 1,
      attachments: files
        .filter((f) => Number(f.message_id) === Number(r.id))
        .map((f) => ({ id: Number(f.id), name: f.original_name, size: Number(f.size), mime: f.mime as AttachmentMime })),
      created_at: Number(r.created_at),
    }));
  }

  private async inboxWire(rows: (TicketRow & { messages?: number })[]): Promise<InboxTicket[]> {
    const users = await usernamesOf(
      this.deps.db,
      rows.map((r) => Number(r.user_id)),
    );
    const names = new Map(rows.some((r) => r.assignee_id !== null) ? (await this.deps.operators.list()).map((o) => [o.id, o.username] as const) : []);
    return rows.map((r) => {
      const first = n(r.first_response_at);
      return {
        ...ticketWire(r),
        user_id: Number(r.user_id),
        username: users.get(Number(r.user_id)) ?? '',
        assignee_id: n(r.assignee_id),
        assignee_name: r.assignee_id === null ? null : (names.get(Number(r.assignee_id)) ?? `#${r.assignee_id}`),
        first_response_ms: first === null ? null : first - Number(r.created_at),
        messages: Number(r.messages ?? 0),
      };
    });
  }

  // ---- trader -------------------------------------------------------------------------------

  async list(userId: number): Promise<TicketList> {
    const tickets = (await ticketsOf(this.deps.db, userId, 200)).map(ticketWire);
    return { tickets, unread: tickets.filter((t) => t.unread).length };
  }

  async open(userId: number, input: CreateTicket): Promise<Thread> {
    // The linked ids must be the trader's own: the owning areas answer NotFound otherwise.
    if (input.order_id) {
      await this.deps.orders.get(userId, input.order_id).catch((err: unknown) => {
        throw err instanceof NotFound ? invalid(SupportText.orderNotYours, [{ field: 'order_id', message: SupportText.orderNotYours }]) : err;
      });
    }
    if (input.transaction_id) {
      await this.deps.payments.get(userId, input.transaction_id).catch((err: unknown) => {
        throw err instanceof NotFound ? invalid(SupportText.transactionNotYours, [{ field: 'transaction_id', message: SupportText.transactionNotYours }]) : err;
      });
    }
    const now = this.deps.now();
    const ticket = await this.deps.tx(async (trx) => {
      // The user's row is the lock of their ticket counts (PostgreSQL).
      await lockUserRow(trx, userId);
      const counts = await ticketCounts(trx, userId, now - HOUR_MS);
      if (counts.recent >= TICKETS_PER_HOUR) throw rateLimited(SupportText.tooManyTickets);
      if (counts.open >= OPEN_TICKETS_MAX) throw conflict(SupportText.tooManyOpen);
      const row = await insertTicket(trx, {
        user_id: userId,
        category: input.category,
        subject: input.subject,
        status: 'open',
        order_id: input.order_id ?? null,
        transaction_id: input.transaction_id ?? null,
        created_at: now,
      });
      await insertMessage(trx, { ticket_id: Number(row.id), author: 'user', operator_id: null, author_name: null, body: input.message, internal: false, created_at: now });
      return row;
    });
    return this.thread(userId, Number(ticket.id));
  }

  /** The owner's thread (never the internal notes); reading it marks the ticket read. */
  async thread(userId: number, id: number): Promise<Thread> {
    const found = await findTicket(this.deps.db, id, userId);
    if (!found) throw notFound(SupportText.ticketNotFound);
    let row = found;
    const activity = n(found.support_activity_at);
    if (activity !== null && (found.user_read_at === null || activity > Number(found.user_read_at))) {
      row = await this.deps.tx((trx) => updateTicket(trx, id, { user_read_at: this.deps.now() }));
    }
    const messages = await this.messagesWire(await messagesOf(this.deps.db, id, false));
    return { ticket: ticketWire(row), messages };
  }

  /** A trader's reply: the ticket waits for support again (a resolved one re-opens). */
  async reply(userId: number, id: number, body: string): Promise<Posted> {
    return this.postAsUser(userId, id, body, []);
  }

  /** Files (1-5, the documents' rules) with an optional text, as one message of the trader. */
  async attach(userId: number, id: number, files: UploadedFile[], body: string): Promise<Posted> {
    if (files.length === 0) throw invalid(SupportText.filesRequired);
    if (files.length > ATTACHMENT_MAX_FILES) throw invalid(SupportText.tooManyFiles);
    // The ticket first: a stranger's or closed ticket costs no decoding.
    const ticket = await findTicket(this.deps.db, id, userId);
    if (!ticket) throw notFound(SupportText.ticketNotFound);
    if (ticket.status === 'closed') throw conflict(SupportText.ticketClosed);
    const prepared: PreparedFile[] = [];
    for (const f of files) prepared.push(await prepareDocumentFile(f));
    return this.postAsUser(userId, id, body, prepared);
  }

  private async postAsUser(userId: number, id: number, body: string, files: PreparedFile[]): Promise<Posted> {
    const written: string[] = [];
    try {
      const stored: { name: string; mime: string; data: Buffer; storage_name: string }[] = [];
      for (const f of files) {
        const storage_name = randomFileName();
        const target = supportFilePath(this.deps.dataDir, userId, storage_name)!;
        await writeFileAtomic(target, f.data);
        written.push(target);
        stored.push({ ...f, storage_name });
      }
      const now = this.deps.now();
      const { ticket, message } = await this.deps.tx(async (trx) => {
        const row = await lockTicket(trx, id, userId);
        if (!row) throw notFound(SupportText.ticketNotFound);
        if (row.status === 'closed') throw conflict(SupportText.ticketClosed);
        const message = await insertMessage(trx, { ticket_id: id, author: 'user', operator_id: null, author_name: null, body, internal: false, created_at: now });
        await insertAttachments(
          trx,
          stored.map((s) => ({
            ticket_id: id,
            message_id: Number(message.id),
            user_id: userId,
            original_name: s.name,
            storage_name: s.storage_name,
            size: s.data.length,
            mime: s.mime,
            sha256: crypto.createHash('sha256').update(s.data).digest('hex'),
            created_at: now,
          })),
        );
        const ticket = await updateTicket(trx, id, { status: 'awaiting_support', updated_at: now, user_read_at: now });
        return { ticket, message };
      });
      const [wire] = await this.messagesWire([message]);
      return { ticket: ticketWire(ticket), message: wire };
    } catch (err) {
      await removeFiles(written, this.deps.log);
      throw err;
    }
  }

  async close(userId: number, id: number): Promise<Ticket> {
    const now = this.deps.now();
    const row = await this.deps.tx(async (trx) => {
      const row = await lockTicket(trx, id, userId);
      if (!row) throw notFound(SupportText.ticketNotFound);
      if (row.status === 'closed') return row;
      return updateTicket(trx, id, { status: 'closed', updated_at: now, user_read_at: now });
    });
    return ticketWire(row);
  }

  /** One attached file: the owner's (userId) or, for an operator (null), any ticket's. A trader never reads a note's file. */
  async readAttachment(userId: number | null, ticketId: number, fileId: number): Promise<{ name: string; mime: AttachmentMime; data: Buffer }> {
    const ticket = await findTicket(this.deps.db, ticketId, userId ?? undefined);
    if (!ticket) throw notFound(SupportText.attachmentNotFound);
    const row = await findAttachment(this.deps.db, ticketId, fileId);
    if (!row || (userId !== null && Number(row.internal) === 1)) throw notFound(SupportText.attachmentNotFound);
    const p = supportFilePath(this.deps.dataDir, Number(row.user_id), row.storage_name);
    if (!p) throw notFound(SupportText.attachmentNotFound);
    try {
      return { name: row.original_name, mime: row.mime as AttachmentMime, data: await fs.readFile(p) };
    } catch {
      throw notFound(SupportText.attachmentNotFound);
    }
  }

  /** The push of `support.updated` for the trader: the ticket and the operator's message (null: a status change). */
  async updateFor(ticketId: number, messageId: number | null): Promise<{ userId: number; ticket: Ticket; message: TicketMessage | null } | null> {
    const row = await findTicket(this.deps.db, ticketId);
    if (!row) return null;
    let message: TicketMessage | null = null;
    if (messageId !== null) {
      const rows = (await messagesOf(this.deps.db, ticketId, false)).filter((m) => Number(m.id) === messageId);
      if (rows.length === 0) return null; // a note (never pushed) or gone
      [message] = await this.messagesWire(rows);
    }
    return { userId: Number(row.user_id), ticket: ticketWire(row), message };
  }

  // ---- operator -----------------------------------------------------------------------------

  async inbox(actor: AuditActor, q: InboxQuery): Promise<Inbox> {
    const assignee = q.assignee === 'all' ? null : q.assignee === 'none' ? 0 : q.assignee === 'me' ? (actor.operatorId ?? -1) : Number(q.assignee);
    const statuses = q.status === 'all' ? null : q.status === 'active' ? ACTIVE : [q.status];
    const { rows, total } = await inboxPage(this.deps.db, {
      statuses,
      assignee,
      category: q.category === 'all' ? null : q.category,
      sort: q.sort,
      limit: q.limit,
      offset: (q.page - 1) * q.limit,
    });
    return { tickets: await this.inboxWire(rows), pagination: { page: q.page, limit: q.limit, total } };
  }

  private async inboxTicket(id: number): Promise<InboxTicket> {
    const row = await findTicket(this.deps.db, id);
    if (!row) throw notFound(SupportText.ticketNotFound);
    const count = (await messagesOf(this.deps.db, id, true)).length;
    const [wire] = await this.inboxWire([{ ...row, messages: count }]);
    return wire;
  }

  /** The thread with notes and the trader's read-only context; the look is audited. */
  async consoleThread(actor: AuditActor, id: number): Promise<ConsoleThread> {
    const ticket = await this.inboxTicket(id);
    const messages = await this.messagesWire(await messagesOf(this.deps.db, id, true));
    const context = await this.traderContext(ticket.user_id);
    // Reading a trader's thread and context is an action too (who looked at whose data).
    await this.deps.tx((trx) => this.audit(trx, actor, 'support.ticket.view', id));
    return { ticket, messages, context };
  }

  async traderContext(userId: number): Promise<TraderContext> {
    const [profile, balances, orders, transactions] = await Promise.all([
      this.deps.profile.getProfile(userId),
      this.deps.accounts.balances(userId),
      this.deps.orders.list(userId, { status: 'all', trading_account: 'all', limit: 10, offset: 0 }),
      this.deps.payments.list(userId, { page: 1, limit: 10, type: 'all', status: 'all', account: 'all' }),
    ]);
    return {
      user_id: profile.user_id,
      username: profile.username,
      email: profile.email,
      name: `${profile.first_name} ${profile.last_name}`.trim(),
      email_verified: profile.email_verified,
      two_factor_enabled: profile.two_factor_enabled,
      created_at: profile.created_at,
      balances: Object.entries(balances).flatMap(([currency, b]) => [
        { currency, account: 'real', amount: String(b.RealBalance) },
        { currency, account: 'demo', amount: String(b.DemoBalance) },
      ]),
      orders: orders.orders.map((o) => ({
        order_id: o.order_id,
        pair: o.pair_human_code,
        direction: o.direction,
        status: o.status,
        result: o.result,
        amount: String(o.amount),
        currency: o.currency,
        created_at: o.created_at,
      })),
      transactions: transactions.transactions.map((t) => ({
        id: t.id,
        type: t.transaction_type,
        status: t.approval_status,
        amount: String(t.amount),
        currency: t.currency_code,
        created_at: t.created_at,
      })),
    };
  }

  async assign(actor: AuditActor, id: number, operatorId: number | null): Promise<InboxTicket> {
    if (operatorId !== null) {
      // Only a live operator who may answer tickets can hold one.
      const target = await this.deps.operators.get(operatorId).catch((err: unknown) => {
        throw err instanceof NotFound ? invalid(SupportText.operatorNotFound, [{ field: 'operator_id', message: SupportText.operatorNotFound }]) : err;
      });
      if (target.disabled_at_ms !== null || !(target.role === 'admin' || (SUPPORT_ROLES as readonly string[]).includes(target.role))) {
        throw invalid(SupportText.operatorNotFound, [{ field: 'operator_id', message: SupportText.operatorNotFound }]);
      }
    }
    const now = this.deps.now();
    await this.deps.tx(async (trx) => {
      const row = await lockTicket(trx, id);
      if (!row) throw notFound(SupportText.ticketNotFound);
      await updateTicket(trx, id, { assignee_id: operatorId, updated_at: now });
      await this.audit(trx, actor, 'support.ticket.assign', id, { before: { assignee_id: n(row.assignee_id) }, after: { assignee_id: operatorId } });
    });
    return this.inboxTicket(id);
  }

  /** An operator's answer (the trader is told) or internal note (operators only). */
  async operatorPost(actor: AuditActor, id: number, body: string, internal: boolean): Promise<ConsolePosted> {
    const now = this.deps.now();
    const message = await this.deps.tx(async (trx) => {
      const row = await lockTicket(trx, id);
      if (!row) throw notFound(SupportText.ticketNotFound);
      if (row.status === 'closed' && !internal) throw new Conflict(SupportText.ticketClosed);
      const message = await insertMessage(trx, { ticket_id: id, author: 'operator', operator_id: actor.operatorId, author_name: actor.name, body, internal, created_at: now });
      if (internal) {
        await updateTicket(trx, id, { updated_at: now });
      } else {
        await updateTicket(trx, id, {
          status: 'awaiting_user',
          updated_at: now,
          support_activity_at: now,
          first_response_at: row.first_response_at ?? now,
        });
        await recordEvent(trx, 'support.updated', Number(row.user_id), { ticket_id: id, message_id: Number(message.id) }, now);
      }
      await this.audit(trx, actor, internal ? 'support.ticket.note' : 'support.ticket.reply', id, { after: { message_id: Number(message.id), status: internal ? row.status : 'awaiting_user' } });
      return message;
    });
    const [wire] = await this.messagesWire([message]);
    return { ticket: await this.inboxTicket(id), message: wire };
  }

  async setStatus(actor: AuditActor, id: number, status: TicketStatus): Promise<InboxTicket> {
    const now = this.deps.now();
    await this.deps.tx(async (trx) => {
      const row = await lockTicket(trx, id);
      if (!row) throw notFound(SupportText.ticketNotFound);
      if (row.status === status) return;
      await updateTicket(trx, id, { status, updated_at: now, support_activity_at: now });
      await recordEvent(trx, 'support.updated', Number(row.user_id), { ticket_id: id, message_id: null }, now);
      await this.audit(trx, actor, 'support.ticket.status', id, { before: { status: row.status }, after: { status } });
    });
    return this.inboxTicket(id);
  }

  private async audit(trx: Trx, actor: AuditActor, action: string, ticketId: number, change: { before?: unknown; after?: unknown } = {}): Promise<void> {
    await appendAudit(trx, actor, { action, targetType: 'ticket', targetId: ticketId, ...change }, this.deps.now());
  }
}
