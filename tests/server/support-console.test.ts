/**
 * The operator's support inbox against a real server (docs/support-center.md): who may read
 * tickets (support and admin; finance, compliance and risk get 403 and an audit row; a trader
 * token and no cookie get 401), the inbox's filters, sort, pages and first-response time, the
 * thread with internal notes and the trader's context, assign / reply / note / status with their
 * audit rows (the chain still verifies), the answer reaching the trader's socket live while a
 * note never reaches the trader's API, and bad input answered 4xx with nothing changed.
 */
import { describe, expect, it } from 'vitest';
import { nextEvent } from '../support/server';
import { useTestServer } from '../support/server-fixture';
import { consoleLogin, createOperator, type ConsoleClient } from '../support/operators';
import { newUser, userSocket, type TestUser } from './payments-support';
import { SupportText, type ConsoleThread, type Inbox, type InboxTicket, type Thread, type Ticket } from '../../contract/support';
import { verifyAudit } from '../../server/domain/audit/service';

const server = useTestServer({ RATE_LIMIT: 'false' });

async function openTicket(user: TestUser, subject = 'Withdrawal stuck', category = 'withdrawal'): Promise<Thread> {
  const r = await server.api<Thread>('POST', '/api/v2/support/tickets', { category, subject, message: 'Please help.' }, user.token);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data!;
}

async function auditRows(action: string, ticketId: number) {
  return server.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', action).where('target_id', '=', String(ticketId)).execute();
}

async function supportRows() {
  const db = server.ctx.db;
  return {
    tickets: await db.selectFrom('support_tickets').selectAll().execute(),
    messages: await db.selectFrom('support_messages').selectAll().execute(),
  };
}

let support: ConsoleClient;
let supportId: number;

describe('roles', () => {
  it('support and admin read tickets; finance, compliance and risk get 403 with an audit row; traders and strangers 401', async () => {
    const user = await newUser(server);
    const { ticket } = await openTicket(user);
    const op = await createOperator(server, 'support');
    supportId = op.id;
    support = await consoleLogin(server, op);
    const admin = await consoleLogin(server, await createOperator(server, 'admin'));
    expect((await support.api('GET', '/api/console/support/tickets')).status).toBe(200);
    expect((await admin.api('GET', `/api/console/support/tickets/${ticket.id}`)).status).toBe(200);
    for (const role of ['finance', 'compliance', 'risk'] as const) {
      const client = await consoleLogin(server, await createOperator(server, role));
      const r = await client.api('GET', `/api/console/support/tickets/${ticket.id}`);
      expect(r.status, role).toBe(403);
      const reply = await client.api('POST', `/api/console/support/tickets/${ticket.id}/messages`, { body: 'hi', internal: false });
      expect(reply.status, role).toBe(403);
    }
    const refused = await server.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', 'forbidden').where('role', 'in', ['finance', 'compliance', 'risk']).execute();
    expect(refused.length).toBeGreaterThanOrEqual(6);
    expect((await server.api('GET', '/api/console/support/tickets', undefined, user.token)).status).toBe(401);
    expect((await server.api('GET', '/api/console/support/tickets')).status).toBe(401);
    // The trader API never takes the operator's cookie.
    const asOperator = await server.raw('GET', '/api/v2/support/tickets', { headers: { cookie: `op_session=${support.cookie}` } });
    expect(asOperator.status).toBe(401);
    // A write without the CSRF header is refused.
    const noCsrf = await server.raw('POST', `/api/console/support/tickets/${ticket.id}/status`, {
      body: JSON.stringify({ status: 'resolved' }),
      headers: { cookie: `op_session=${support.cookie}`, 'content-type': 'application/json' },
    });
    expect(noCsrf.status).toBe(403);
  });
});

describe('the inbox', () => {
  it('filters by status, assignee and category, sorts, pages and shows the first-response time', async () => {
    const user = await newUser(server);
    const a = (await openTicket(user, 'Deposit A', 'deposit')).ticket;
    const b = (await openTicket(user, 'Verification B', 'verification')).ticket;
    const c = (await openTicket(user, 'Deposit C', 'deposit')).ticket;
    expect((await support.api('POST', `/api/console/support/tickets/${b.id}/assign`, { operator_id: supportId })).status).toBe(200);
    expect((await support.api('POST', `/api/console/support/tickets/${c.id}/messages`, { body: 'Looking into it', internal: false })).status).toBe(201);

    const mine = await support.api<Inbox>('GET', '/api/console/support/tickets?assignee=me');
    expect(mine.body.data!.tickets.map((t) => t.id)).toEqual([b.id]);
    expect(mine.body.data!.tickets[0].assignee_name).not.toBeNull();
    const deposits = await support.api<Inbox>('GET', `/api/console/support/tickets?category=deposit&status=all&sort=created_asc&limit=100`);
    const ids = deposits.body.data!.tickets.map((t) => t.id);
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(c.id));
    expect(ids).not.toContain(b.id);
    const answered = deposits.body.data!.tickets.find((t) => t.id === c.id)!;
    expect(answered.status).toBe('awaiting_user');
    expect(answered.first_response_ms).toBeGreaterThanOrEqual(0);
    expect(deposits.body.data!.tickets.find((t) => t.id === a.id)!.first_response_ms).toBeNull();
    const waiting = await support.api<Inbox>('GET', '/api/console/support/tickets?status=awaiting_user');
    expect(waiting.body.data!.tickets.every((t) => t.status === 'awaiting_user')).toBe(true);
    const page1 = await support.api<Inbox>('GET', '/api/console/support/tickets?status=all&limit=2&page=1');
    const page2 = await support.api<Inbox>('GET', '/api/console/support/tickets?status=all&limit=2&page=2');
    expect(page1.body.data!.tickets).toHaveLength(2);
    expect(page1.body.data!.pagination.total).toBeGreaterThanOrEqual(4);
    expect(page2.body.data!.tickets[0].id).not.toBe(page1.body.data!.tickets[1].id);
    for (const q of ['status=lost', 'sort=random', 'limit=0', 'page=x', 'assignee=bob', 'extra=1']) {
      const r = await support.api('GET', `/api/console/support/tickets?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.success).toBe(false);
    }
  });
});

describe('the thread', () => {
  it('answers live to the trader, keeps notes internal, writes audit rows, and the chain verifies', async () => {
    const user = await newUser(server);
    const { ticket } = await openTicket(user);
    const socket = await userSocket(server, user.token);

    const thread = await support.api<ConsoleThread>('GET', `/api/console/support/tickets/${ticket.id}`);
    expect(thread.status).toBe(200);
    expect(thread.body.data!.context).toMatchObject({ user_id: user.userId, email_verified: false });
    expect(thread.body.data!.context.balances.length).toBeGreaterThan(0);
    expect(await auditRows('support.ticket.view', ticket.id)).toHaveLength(1);

    const note = await support.api('POST', `/api/console/support/tickets/${ticket.id}/messages`, { body: 'Note: <script>alert(1)</script> check KYC', internal: true });
    expect(note.status).toBe(201);
    const live = nextEvent<{ ticket: Ticket; message: { body: string } }>(socket, 'support_update');
    const answer = await support.api<{ ticket: InboxTicket }>('POST', `/api/console/support/tickets/${ticket.id}/messages`, { body: 'We have sent it again.', internal: false });
    expect(answer.status).toBe(201);
    expect(answer.body.data!.ticket.first_response_ms).not.toBeNull();
    const got = await live;
    expect(got.message.body).toBe('We have sent it again.');
    expect(got.ticket).toMatchObject({ id: ticket.id, status: 'awaiting_user', unread: true });

    const mine = await server.api<Thread>('GET', `/api/v2/support/tickets/${ticket.id}`, undefined, user.token);
    expect(mine.body.data!.messages.map((m) => m.author)).toEqual(['user', 'operator']);
    expect(JSON.stringify(mine.body)).not.toContain('check KYC');
    const full = await support.api<ConsoleThread>('GET', `/api/console/support/tickets/${ticket.id}`);
    expect(full.body.data!.messages.filter((m) => m.internal).map((m) => m.body)).toEqual(['Note: <script>alert(1)</script> check KYC']);

    expect((await support.api('POST', `/api/console/support/tickets/${ticket.id}/assign`, { operator_id: supportId })).status).toBe(200);
    const resolved = await support.api<{ ticket: InboxTicket }>('POST', `/api/console/support/tickets/${ticket.id}/status`, { status: 'resolved' });
    expect(resolved.body.data!.ticket.status).toBe('resolved');
    for (const action of ['support.ticket.note', 'support.ticket.reply', 'support.ticket.assign', 'support.ticket.status']) {
      const rows = await auditRows(action, ticket.id);
      expect(rows, action).toHaveLength(1);
      expect(rows[0]).toMatchObject({ operator_id: supportId, role: 'support', target_type: 'ticket', source: 'console' });
    }
    expect((await auditRows('support.ticket.status', ticket.id))[0].before_json).toContain('awaiting_user');
    expect(await verifyAudit(server.ctx.db)).toMatchObject({ ok: true, brokenId: null });
  });

  it('refuses bad input with a 4xx envelope and changes nothing', async () => {
    const user = await newUser(server);
    const { ticket } = await openTicket(user);
    const finance = await createOperator(server, 'finance');
    const before = await supportRows();
    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', `/api/console/support/tickets/${ticket.id}/messages`, { body: '', internal: false }, 400, SupportText.messageRequired],
      ['POST', `/api/console/support/tickets/${ticket.id}/messages`, { body: 'x'.repeat(5001) }, 400, SupportText.messageTooLong],
      ['POST', `/api/console/support/tickets/${ticket.id}/messages`, { body: 'hi', internal: 'yes' }, 400, 'internal must be true or false'],
      ['POST', `/api/console/support/tickets/${ticket.id}/status`, { status: 'open' }, 400, SupportText.statusInvalid],
      ['POST', `/api/console/support/tickets/${ticket.id}/status`, { status: 'resolved', why: 1 }, 400, SupportText.unknownField],
      ['POST', `/api/console/support/tickets/${ticket.id}/assign`, { operator_id: 'me' }, 400, 'operator_id must be a number or null'],
      ['POST', `/api/console/support/tickets/${ticket.id}/assign`, { operator_id: 99999 }, 400, SupportText.operatorNotFound],
      ['POST', `/api/console/support/tickets/${ticket.id}/assign`, { operator_id: finance.id }, 400, SupportText.operatorNotFound],
      ['POST', '/api/console/support/tickets/999999/status', { status: 'resolved' }, 404, SupportText.ticketNotFound],
      ['GET', '/api/console/support/tickets/abc', undefined, 400, 'Id must be a positive whole number'],
    ];
    for (const [method, url, body, status, message] of cases) {
      const r = await support.api(method, url, body);
      expect(r.status, `${url} ${JSON.stringify(body)}`).toBe(status);
      expect(r.body).toMatchObject({ success: false, data: null, error: message });
    }
    expect(await supportRows()).toEqual(before);
  });
});
