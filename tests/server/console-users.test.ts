/**
 * The console's user screens and risk screens against a real server: search and detail, block
 * and unblock (a blocked user's sessions end and login is refused), open-as-user (a one-time
 * admin link, read-only for money, the user told by email, audited), CSV exports that neutralise
 * formulas, the dashboard, risk limits and pairs (a raise and an enable need a second operator).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server';
import { register, type Registered } from '../support/auth';
import { consoleLogin, createOperator, type ConsoleClient } from '../support/operators';
import { fundReal, startMoneyServer } from './payments-support';
import sharp from 'sharp';
import { ConsoleText } from '../../contract/console';

let server: TestServer;
let support: ConsoleClient;
let compliance: ConsoleClient;
let risk1: ConsoleClient;
let risk2: ConsoleClient;
let finance: ConsoleClient;

beforeAll(async () => {
  server = await startMoneyServer();
  support = await consoleLogin(server, await createOperator(server, 'support'));
  compliance = await consoleLogin(server, await createOperator(server, 'compliance'));
  risk1 = await consoleLogin(server, await createOperator(server, 'risk'));
  risk2 = await consoleLogin(server, await createOperator(server, 'risk'));
  finance = await consoleLogin(server, await createOperator(server, 'finance'));
});
afterAll(async () => {
  await server.close();
});

const login = (u: Registered) => server.api('POST', '/api/platform/auth/login', { username: u.username, password: u.password });

describe('users', () => {
  it('searches by id, email and username, and shows one user with balances and transactions', async () => {
    const u = await register(server);
    await fundReal(server, { userId: u.userId, token: u.token }, 20);
    const byId = await support.api('GET', `/api/console/users?q=${u.userId}`);
    expect(byId.body.data.users.some((x: { id: number }) => x.id === u.userId)).toBe(true);
    const byEmail = await support.api('GET', `/api/console/users?q=${encodeURIComponent(u.email.toUpperCase())}`);
    expect(byEmail.body.data.users.map((x: { id: number }) => x.id)).toEqual([u.userId]);
    const page = await support.api('GET', '/api/console/users?sort=created_at&dir=asc&per_page=1&page=1');
    expect(page.body.data.users).toHaveLength(1);
    expect(page.body.data.pagination.total).toBeGreaterThanOrEqual(1);
    const detail = await support.api('GET', `/api/console/users/${u.userId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data.user.username).toBe(u.username);
    expect(detail.body.data.balances.find((b: { account: string; currency: string }) => b.account === 'real' && b.currency === 'USD').amount_minor).toBe(2_000);
    expect(detail.body.data.transactions).toHaveLength(1);
    expect((await support.api('GET', '/api/console/users/99999999')).status).toBe(404);
  });

  it('block ends the sessions and refuses login; unblock lets the user in again; both audited', async () => {
    const u = await register(server);
    expect((await support.api('POST', `/api/console/users/${u.userId}/block`, { reason: 'fraud check' })).status).toBe(403);
    expect((await compliance.api('POST', `/api/console/users/${u.userId}/block`, {})).status).toBe(400);
    const blocked = await compliance.api('POST', `/api/console/users/${u.userId}/block`, { reason: 'fraud check' });
    expect(blocked.status).toBe(200);
    expect(blocked.body.data.user.blocked_reason).toBe('fraud check');
    expect((await server.api('GET', '/api/platform/auth/me', undefined, u.token)).status).toBe(401);
    const refused = await login(u);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(ConsoleText.userBlocked);
    expect((await compliance.api('POST', `/api/console/users/${u.userId}/block`, { reason: 'again' })).status).toBe(409);
    expect((await compliance.api('POST', `/api/console/users/${u.userId}/unblock`, { reason: 'cleared' })).status).toBe(200);
    expect((await login(u)).status).toBe(200);
    const rows = await server.ctx.db.selectFrom('audit_log').select(['action', 'reason']).where('target_type', '=', 'user').where('target_id', '=', String(u.userId)).orderBy('id').execute();
    expect(rows).toEqual([
      { action: 'user.block', reason: 'fraud check' },
      { action: 'user.unblock', reason: 'cleared' },
    ]);
  });

  it('open as user: a one-time link to a read-only admin session, the user notified, audited', async () => {
    const u = await register(server);
    await fundReal(server, { userId: u.userId, token: u.token }, 50);
    expect((await support.api('POST', `/api/console/users/${u.userId}/open-as`, {})).status).toBe(400);
    const r = await support.api('POST', `/api/console/users/${u.userId}/open-as`, { reason: 'ticket 7: cannot find an order' });
    expect(r.status).toBe(200);
    expect(r.body.data.expires_at_ms - Date.now()).toBeGreaterThan(14 * 60_000);
    const token = new URL(r.body.data.link).searchParams.get('token')!;
    const session = await server.api('POST', '/api/admin/session', { token });
    expect(session.status).toBe(200);
    expect(session.body.data.session_type).toBe('admin');
    expect((await server.api('POST', '/api/admin/session', { token })).status).toBe(401);
    const admin = session.body.data.token as string;
    expect((await server.api('GET', '/api/platform/auth/me', undefined, admin)).status).toBe(200);
    const order = await server.api('POST', '/api/v2/orders', { pair_code: 'EURUSD', direction: 'up', amount: 1, expiration: 60, account_type: 'real' }, admin);
    expect(order.status).toBe(403);
    expect(order.body.error).toBe(ConsoleText.adminReadOnly);
    const w = await server.api('POST', '/api/v2/transactions/withdrawal', { amount: 10, currency: 'USD', payment_method_id: 'card_visa_mastercard', account_type: 'real', payment_system: 'cards', payment_details: { requisites: '4111 1111 1111 1111', payment_method: 'card' } }, admin);
    expect(w.status).toBe(403);
    const d = await server.api('POST', '/api/v2/transactions/deposit', { amount: 10, currency: 'USD', payment_method_id: 'card_visa_mastercard', account_type: 'real', payment_system: 'cards' }, admin);
    expect(d.status).toBe(403);
    const mail = await server.ctx.db.selectFrom('outbox').selectAll().where('recipient', '=', u.email).orderBy('id', 'desc').executeTakeFirst();
    expect(mail?.subject).toBe('Our support team opened your account');
    const audit = await server.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', 'user.open_as').where('target_id', '=', String(u.userId)).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].reason).toBe('ticket 7: cannot find an order');
    // Finance may not open a user's account.
    expect((await finance.api('POST', `/api/console/users/${u.userId}/open-as`, { reason: 'x' })).status).toBe(403);
  });

  it('CSV exports neutralise formula injection', async () => {
    const u = await register(server);
    await compliance.api('POST', `/api/console/users/${u.userId}/block`, { reason: '=HYPERLINK("http://evil.example","click")' });
    const res = await compliance.raw('GET', `/api/console/users?q=${u.userId}&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
    const text = await res.text();
    expect(text.split('\r\n')[0]).toMatch(/^id,username,email/);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
    const audit = await (await compliance.raw('GET', '/api/console/audit?format=csv&action=user.block')).text();
    expect(audit).toContain(`'=HYPERLINK`);
  });
});

describe('KYC queue', () => {
  it('lists uploaded documents, serves a file as an attachment, approves and rejects with a reason; audited', async () => {
    const u = await register(server);
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#888' } }).png().toBuffer();
    const fd = new FormData();
    fd.append('type', 'utility_bill');
    fd.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), '<img src=x onerror=alert(1)>.png');
    const up = await server.raw('POST', '/api/v2/documents/upload', { body: fd, headers: { authorization: `Bearer ${u.token}` } });
    expect(up.status).toBe(201);
    const doc = (await up.json()).data.document as { id: number };

    expect((await support.api('GET', '/api/console/kyc')).status).toBe(403);
    const queue = await compliance.api('GET', '/api/console/kyc?status=pending&per_page=100');
    expect(queue.status).toBe(200);
    const listed = queue.body.data.documents.find((d: { id: number }) => d.id === doc.id);
    expect(listed.files).toHaveLength(1);

    const file = await compliance.raw('GET', `/api/console/kyc/files/${listed.files[0].id}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await file.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    expect((await compliance.raw('GET', '/api/console/kyc/files/99999999')).status).toBe(404);

    expect((await compliance.api('POST', `/api/console/kyc/${doc.id}/reject`, {})).status).toBe(400);
    const rejected = await compliance.api('POST', `/api/console/kyc/${doc.id}/reject`, { reason: 'The photo is blurred' });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body.data.document.status).toBe('rejected');
    expect((await compliance.api('POST', `/api/console/kyc/${doc.id}/approve`, {})).status).toBe(409);
    const actions = (await server.ctx.db.selectFrom('audit_log').select('action').where('target_type', '=', 'document').where('target_id', '=', String(doc.id)).orderBy('id').execute()).map((r) => r.action);
    expect(actions).toEqual(['kyc.file_view', 'kyc.reject']);
  });
});

describe('dashboard, risk limits and pairs', () => {
  it('the dashboard answers today figures, queues and health', async () => {
    const r = await finance.api('GET', '/api/console/dashboard');
    expect(r.status).toBe(200);
    expect(r.body.data.queues).toEqual(expect.objectContaining({ support_open: 0 }));
    expect(typeof r.body.data.health.settlement.ok).toBe('boolean');
    expect(r.body.data.deposits.count).toBeGreaterThanOrEqual(1);
  });

  it('lowering a limit applies at once; raising it waits for a second risk operator', async () => {
    const lower = await risk1.api('POST', '/api/console/risk/EURUSD', { limit_usd: '1000', reason: 'volatile' });
    expect(lower.status, JSON.stringify(lower.body)).toBe(200);
    expect(lower.body.data.done).toBe(true);
    const raise = await risk1.api('POST', '/api/console/risk/EURUSD', { limit_usd: '5000', reason: 'calmer' });
    expect(raise.body.data.done).toBe(false);
    const limits = await risk1.api('GET', '/api/console/risk');
    expect(limits.body.data.pairs.find((p: { pair: string }) => p.pair === 'EURUSD').limit_usd_minor).toBe(100_000);
    expect((await risk2.api('POST', `/api/console/approvals/${raise.body.data.approval.id}/approve`, {})).status).toBe(200);
    const after = await risk1.api('GET', '/api/console/risk');
    expect(after.body.data.pairs.find((p: { pair: string }) => p.pair === 'EURUSD').limit_usd_minor).toBe(500_000);
    expect((await risk1.api('POST', '/api/console/risk/NOPE1', { limit_usd: '1', reason: 'x' })).status).toBe(404);
    expect((await compliance.api('POST', '/api/console/risk/EURUSD', { limit_usd: '1', reason: 'x' })).status).toBe(403);
  });

  it('disabling a pair applies at once; enabling it needs a second operator', async () => {
    const off = await risk1.api('POST', '/api/console/pairs/GBPUSD/disable', { reason: 'feed issue' });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const pairs = async () => (await risk1.api('GET', '/api/console/pairs')).body.data.pairs.find((p: { code: string }) => p.code === 'GBPUSD').enabled;
    expect(await pairs()).toBe(false);
    const on = await risk1.api('POST', '/api/console/pairs/GBPUSD/enable', { reason: 'feed back' });
    expect(on.body.data.done).toBe(false);
    expect(await pairs()).toBe(false);
    const list = await risk2.api('GET', '/api/console/approvals?kind=pair_enable');
    expect(list.body.data.approvals[0].requested_by_name).toBeTruthy();
    expect((await risk2.api('POST', `/api/console/approvals/${on.body.data.approval.id}/approve`, {})).status).toBe(200);
    expect(await pairs()).toBe(true);
  });
});
