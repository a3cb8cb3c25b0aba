/**
 * The trader's side of the support center against a real server (docs/support-center.md):
 * opening a ticket (validation with the envelope and nothing stored, linked ids must be the
 * trader's own, the hourly cap), the thread (owner only, internal notes never in it), replies,
 * attachments under the identity documents' rules (type by content, size, count; served as an
 * attachment with nosniff, to the owner only), closing, and the live `support_update` push when
 * support answers, with the email per the trader's settings.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { nextEvent } from '../support/server';
import { useTestServer } from '../support/server-fixture';
import { deposit, newUser, userSocket, type TestUser } from './payments-support';
import { TICKETS_PER_HOUR, SupportText, type Thread, type Ticket } from '../../contract/support';
import type { AuditActor } from '../../server/domain/audit/service';
import { createOperator } from '../support/operators';

const server = useTestServer({ RATE_LIMIT: 'false' });


function open(user: TestUser, body: Record<string, unknown>) {
  return server.api<Thread>('POST', '/api/v2/support/tickets', body, user.token);
}

const VALID = { category: 'deposit', subject: 'My deposit is late', message: 'I paid an hour ago.' };

async function supportRows() {
  const db = server.ctx.db;
  return {
    tickets: await db.selectFrom('support_tickets').selectAll().execute(),
    messages: await db.selectFrom('support_messages').selectAll().execute(),
    attachments: await db.selectFrom('support_attachments').selectAll().execute(),
  };
}

function upload(user: TestUser, ticketId: number, files: { name: string; data: Buffer; type?: string }[], body?: string) {
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }), f.name);
  if (body !== undefined) form.append('body', body);
  return server.raw('POST', `/api/v2/support/tickets/${ticketId}/attachments`, { body: form, headers: { authorization: `Bearer ${user.token}` } });
}

const png = () => sharp({ create: { width: 30, height: 20, channels: 3, background: '#3366cc' } }).png().toBuffer();

describe('opening a ticket', () => {
  it('refuses bad input with a 4xx envelope and stores nothing', async () => {
    const user = await newUser(server);
    const before = await supportRows();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ ...VALID, category: 'lottery' }, 400, SupportText.categoryInvalid],
      [{ ...VALID, subject: '   ' }, 400, SupportText.subjectRequired],
      [{ ...VALID, subject: 'x'.repeat(121) }, 400, SupportText.subjectTooLong],
      [{ ...VALID, message: '' }, 400, SupportText.messageRequired],
      [{ ...VALID, message: 'x'.repeat(5001) }, 400, SupportText.messageTooLong],
      [{ ...VALID, order_id: -3 }, 400, SupportText.orderNotYours],
      [{ ...VALID, order_id: 987654 }, 400, SupportText.orderNotYours],
      [{ ...VALID, transaction_id: 'abc' }, 400, SupportText.transactionNotYours],
      [{ ...VALID, transaction_id: 987654 }, 400, SupportText.transactionNotYours],
      [{ ...VALID, admin: true }, 400, SupportText.unknownField],
    ];
    for (const [body, status, message] of cases) {
      const r = await open(user, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body).toMatchObject({ success: false, data: null, error: message, error_message: message });
    }
    const bad = await server.api('POST', '/api/v2/support/tickets', '{"category":', user.token);
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
    expect((await server.api('POST', '/api/v2/support/tickets', VALID)).status).toBe(401);
    expect(await supportRows()).toEqual(before);
  });

  it('opens a ticket with the first message; a linked transaction must be the trader\'s own', async () => {
    const user = await newUser(server);
    const stranger = await newUser(server);
    const dep = await deposit(server, user, { amount: 50, currency: 'USD', payment_method_id: 'card_visa_mastercard', payment_system: 'cards' });
    expect(dep.status).toBe(201);
    const txId = dep.body.data.transaction_id as number;

    const refused = await open(stranger, { ...VALID, transaction_id: txId });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([{ field: 'transaction_id', message: SupportText.transactionNotYours }]);

    const r = await open(user, { ...VALID, subject: '  Late deposit  ', transaction_id: String(txId) });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const { ticket, messages } = r.body.data!;
    expect(ticket).toMatchObject({ category: 'deposit', subject: 'Late deposit', status: 'open', transaction_id: txId, order_id: null, first_response_at: null, unread: false });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ author: 'user', body: VALID.message, internal: false, attachments: [] });

    const list = await server.api<{ tickets: Ticket[]; unread: number }>('GET', '/api/v2/support/tickets', undefined, user.token);
    expect(list.body.data!.tickets.map((t) => t.id)).toEqual([ticket.id]);
    expect((await server.api('GET', `/api/v2/support/tickets/${ticket.id}`, undefined, stranger.token)).status).toBe(404);
    expect((await server.api<{ tickets: Ticket[] }>('GET', '/api/v2/support/tickets', undefined, stranger.token)).body.data!.tickets).toEqual([]);
  });

  it(`caps new tickets at ${TICKETS_PER_HOUR} an hour per trader (429)`, async () => {
    const user = await newUser(server);
    for (let i = 0; i < TICKETS_PER_HOUR; i++) expect((await open(user, { ...VALID, subject: `Question ${i}` })).status).toBe(201);
    const r = await open(user, VALID);
    expect(r.status).toBe(429);
    expect(r.body.error).toBe(SupportText.tooManyTickets);
    expect((await server.api<{ tickets: Ticket[] }>('GET', '/api/v2/support/tickets', undefined, user.token)).body.data!.tickets).toHaveLength(TICKETS_PER_HOUR);
  });
});

describe('the thread', () => {
  it('replies, closes, and a closed ticket takes no more messages', async () => {
    const user = await newUser(server);
    const { ticket } = (await open(user, VALID)).body.data!;
    const reply = await server.api('POST', `/api/v2/support/tickets/${ticket.id}/messages`, { body: 'Any news?' }, user.token);
    expect(reply.status).toBe(201);
    expect(reply.body.data.ticket.status).toBe('awaiting_support');
    expect((await server.api('POST', `/api/v2/support/tickets/${ticket.id}/messages`, { body: '' }, user.token)).status).toBe(400);
    const closed = await server.api('POST', `/api/v2/support/tickets/${ticket.id}/close`, {}, user.token);
    expect(closed.body.data.ticket.status).toBe('closed');
    const late = await server.api('POST', `/api/v2/support/tickets/${ticket.id}/messages`, { body: 'One more thing' }, user.token);
    expect(late.status).toBe(409);
    expect(late.body.error).toBe(SupportText.ticketClosed);
  });

  it('an operator answer reaches the trader live (support_update) and by email; internal notes never reach the trader', async () => {
    const user = await newUser(server);
    const { ticket } = (await open(user, VALID)).body.data!;
    const socket = await userSocket(server, user.token);
    const svc = server.ctx.services.support;
    const op = await createOperator(server, 'support');
    const OPERATOR: AuditActor = { operatorId: op.id, name: op.username, role: 'support', source: 'console' };

    const pushes: unknown[] = [];
    socket.on('support_update', (p) => pushes.push(p));
    await svc.operatorPost(OPERATOR, ticket.id, 'Internal: check the PSP dashboard <b>first</b>', true);
    const live = nextEvent<{ ticket: Ticket; message: { body: string; author: string; internal: boolean } }>(socket, 'support_update');
    await svc.operatorPost(OPERATOR, ticket.id, 'Your deposit is credited now.', false);
    await server.ctx.events.poke();
    const got = await live;
    expect(got.ticket).toMatchObject({ id: ticket.id, status: 'awaiting_user', unread: true });
    expect(got.message).toMatchObject({ author: 'operator', body: 'Your deposit is credited now.', internal: false });
    expect(pushes).toHaveLength(1);

    const list = await server.api<{ tickets: Ticket[]; unread: number }>('GET', '/api/v2/support/tickets', undefined, user.token);
    expect(list.body.data!.unread).toBe(1);
    const thread = await server.api<Thread>('GET', `/api/v2/support/tickets/${ticket.id}`, undefined, user.token);
    expect(thread.body.data!.messages.map((m) => m.body)).toEqual([VALID.message, 'Your deposit is credited now.']);
    expect(JSON.stringify(thread.body)).not.toContain('PSP dashboard');
    expect(thread.body.data!.ticket.unread).toBe(false);
    expect(thread.body.data!.ticket.first_response_at).not.toBeNull();

    const mail = await server.ctx.db.selectFrom('outbox').selectAll().where('subject', 'like', `%ticket #${ticket.id}%`).execute();
    expect(mail).toHaveLength(1);
    expect(mail[0].body ?? '').not.toContain('credited');
  });
});

describe('attachments', () => {
  it('stores an image re-encoded and serves it to the owner only, as an attachment with nosniff', async () => {
    const user = await newUser(server);
    const stranger = await newUser(server);
    const { ticket } = (await open(user, VALID)).body.data!;
    const res = await upload(user, ticket.id, [{ name: '<img src=x onerror=alert(1)>.png', data: await png(), type: 'image/png' }], 'Screenshot');
    expect(res.status).toBe(201);
    const posted = (await res.json()).data;
    expect(posted.message.body).toBe('Screenshot');
    const file = posted.message.attachments[0];
    expect(file.mime).toBe('image/png');
    expect(file.name).not.toMatch(/[<>=]/);
    const url = `/api/v2/support/tickets/${ticket.id}/attachments/${file.id}`;
    const got = await server.raw('GET', url, { headers: { authorization: `Bearer ${user.token}` } });
    expect(got.status).toBe(200);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect((await sharp(Buffer.from(await got.arrayBuffer())).metadata()).format).toBe('png');
    expect((await server.raw('GET', url, { headers: { authorization: `Bearer ${stranger.token}` } })).status).toBe(404);
  });

  it('refuses a bad type, too many or too large files with a 4xx and stores nothing', async () => {
    const user = await newUser(server);
    const { ticket } = (await open(user, VALID)).body.data!;
    const before = await supportRows();
    const script = await upload(user, ticket.id, [{ name: 'photo.jpg', data: Buffer.from('#!/bin/sh\nrm -rf /\n'), type: 'image/jpeg' }]);
    expect(script.status).toBe(400);
    expect((await script.json()).error).toBe('Unsupported file type');
    const gif = await sharp({ create: { width: 5, height: 5, channels: 3, background: '#00aa00' } }).gif().toBuffer();
    expect((await upload(user, ticket.id, [{ name: 'a.gif', data: gif }])).status).toBe(400);
    const many = await png();
    const six = await upload(user, ticket.id, Array.from({ length: 6 }, (_, i) => ({ name: `${i}.png`, data: many })));
    expect(six.status).toBe(400);
    const big = Buffer.concat([await png(), Buffer.alloc(10 * 1024 * 1024 + 1)]);
    const large = await upload(user, ticket.id, [{ name: 'big.png', data: big }]);
    expect(large.status).toBe(413);
    expect((await upload(user, ticket.id, [])).status).toBe(400);
    expect(await supportRows()).toEqual(before);
  });
});
