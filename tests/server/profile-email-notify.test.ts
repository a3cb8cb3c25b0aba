/**
 * The profile's email subscription over real HTTP: with `notifications.email` on (also the
 * default of a user who never saved it), a deposit's or withdrawal's status change mails the
 * account's address in the user's language (outbox, no SMTP_URL), also for a change the
 * operator CLI makes in another process; with it off nothing is sent (push and SMS change
 * nothing: they have no sender). The SMTP path is checked against a stand-in transport, and the
 * texts in the three languages.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server-fixture';
import { register, type Registered } from '../support/auth';
import { admin } from './payments-support';
import { Mailer } from '../../server/domain/mail';
import type { DomainEvent } from '../../server/domain/events';
import { emailPaymentStatus } from '../../server/domain/profile/email-notify';
import { paymentStatusEmail } from '../../server/domain/profile/email-texts';

const server = useTestServer({ RATE_LIMIT: 'false' });

const payments = () => server.ctx.services.payments;
const CARD = { currency: 'USD', account_type: 'real', payment_method_id: 'card_visa_mastercard', payment_system: 'cards' };

async function depositOf(u: Registered, amount: number): Promise<number> {
  const r = await server.api('POST', '/api/v2/transactions/deposit', { amount, ...CARD }, u.token);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.transaction_id;
}

async function withdrawalOf(u: Registered, amount: number): Promise<number> {
  const r = await server.api(
    'POST',
    '/api/v2/transactions/withdrawal',
    { amount, ...CARD, payment_details: { requisites: '4111 1111 1111 1111', payment_method: 'card' } },
    u.token,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.transaction_id;
}

/** The email messages kept in the outbox for an address, oldest first. */
function mails(email: string) {
  return server.ctx.db
    .selectFrom('outbox')
    .select(['recipient', 'subject', 'body'])
    .where('channel', '=', 'email')
    .where((eb) => eb(eb.fn('lower', ['recipient']), '=', email.toLowerCase()))
    .orderBy('id')
    .execute();
}

async function waitForMails(email: string, count: number, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const rows = await mails(email);
    if (rows.length >= count) return rows;
    if (Date.now() > end) throw new Error(`expected ${count} mails to ${email}, got ${rows.length}: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const setNotifications = async (u: Registered, notifications: Record<string, boolean>) => {
  const r = await server.api('POST', '/api/v2/profile/personal-data', { notifications }, u.token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.data.notifications).toMatchObject(notifications);
};
const setLanguage = async (u: Registered, language: string) =>
  expect((await server.api('PATCH', '/api/v2/profile/front-settings', { language }, u.token)).status).toBe(200);

/** Mails already in the outbox for the user (the registration's verification mail). */
const baseline = async (u: Registered) => (await mails(u.email)).length;

describe('email subscription on', () => {
  it('mails a deposit status change by default (never saved), in English, with the history link and how to stop', async () => {
    const u = await register(server);
    expect((await server.api('GET', '/api/v2/user/profile', undefined, u.token)).body.data.notifications.email).toBe(true);
    const before = await baseline(u);
    const id = await depositOf(u, 100);
    // Creating the deposit is no status change: no mail yet.
    expect(await mails(u.email)).toHaveLength(before);
    expect((await payments().approve(id)).changed).toBe(true);

    const rows = await waitForMails(u.email, before + 1);
    const mail = rows.at(-1)!;
    expect(mail.subject).toBe(`Deposit #${id} of 100.00 USD is completed`);
    expect(mail.body.split('\n')).toEqual([
      `Hello ${u.username},`,
      '',
      `Deposit #${id} of 100.00 USD is completed.`,
      '',
      'Your transaction history:',
      `${server.ctx.publicUrl()}/profile#transactions`,
      '',
      'You get these emails because email notifications are on in Profile → Personal information → Notifications. Untick "Email" there to stop them.',
      '',
      'The TradeTerminal team',
    ]);
  });

  it('mails each status change of a withdrawal in the user language, with the reason of a refusal', async () => {
    const u = await register(server);
    await setNotifications(u, { email: true });
    await setLanguage(u, 'ru');
    const before = await baseline(u);
    const dep = await depositOf(u, 50);
    await payments().approve(dep);
    const afterDeposit = (await waitForMails(u.email, before + 1)).length;
    expect(afterDeposit).toBe(before + 1);

    const first = await withdrawalOf(u, 20);
    expect((await payments().reject(first, 'Неверные реквизиты')).changed).toBe(true);
    const second = await withdrawalOf(u, 10);
    expect((await payments().approve(second)).changed).toBe(true);

    const rows = (await waitForMails(u.email, afterDeposit + 2)).slice(afterDeposit);
    expect(rows.map((r) => r.subject)).toEqual([`Вывод №${first} на сумму 20.00 USD: операция не выполнена`, `Вывод №${second} на сумму 10.00 USD: операция выполнена`]);
    expect(rows[0].body).toContain(`Здравствуйте, ${u.username}!`);
    expect(rows[0].body).toContain(`Вывод №${first} на сумму 20.00 USD: операция не выполнена. Причина: Неверные реквизиты`);
    expect(rows[0].body).toContain('«Профиль → Личные данные → Уведомления»');
  });

  it('also after a change made by the operator CLI in another process (Spanish)', { timeout: 60_000 }, async () => {
    const u = await register(server);
    await setLanguage(u, 'es');
    const id = await depositOf(u, 25);
    const before = await baseline(u);
    const run = await admin(server, 'tx', 'reject', String(id), '--reason', 'Card declined');
    expect(run.code, run.stderr).toBe(0);
    const mail = (await waitForMails(u.email, before + 1, 20_000)).at(-1)!;
    expect(mail.subject).toBe(`Depósito n.º ${id} por 25.00 USD: fallido`);
    expect(mail.body).toContain(`Hola, ${u.username}:`);
    expect(mail.body).toContain(`Depósito n.º ${id} por 25.00 USD: fallido. Motivo: Card declined`);
  });
});

describe('email subscription off', () => {
  it('sends nothing, whatever push and SMS say; switched on again, mail flows again', async () => {
    const off = await register(server);
    await setNotifications(off, { email: false, push: true, sms: true });
    const control = await register(server);
    const offBefore = await baseline(off);
    const controlBefore = await baseline(control);

    const dep = await depositOf(off, 40);
    await payments().approve(dep);
    const w = await withdrawalOf(off, 15);
    await payments().reject(w, 'No');
    // Events are delivered in order: once the control user's later mail is out, the
    // unsubscribed user's events have been handled too.
    const controlDeposit = await depositOf(control, 10);
    await payments().approve(controlDeposit);
    await waitForMails(control.email, controlBefore + 1);
    expect(await mails(off.email)).toHaveLength(offBefore);

    await setNotifications(off, { email: true });
    const again = await withdrawalOf(off, 10);
    await payments().approve(again);
    const rows = await waitForMails(off.email, offBefore + 1);
    expect(rows.slice(offBefore).map((r) => r.subject)).toEqual([`Withdrawal #${again} of 10.00 USD is completed`]);
  });
});

describe('delivery', () => {
  it('goes through SMTP when the mailer has a transport', async () => {
    const u = await register(server);
    await setLanguage(u, 'es');
    const id = await depositOf(u, 30);
    const sent: { from: string; to: string; subject: string; text: string }[] = [];
    const mailer = new Mailer({
      db: server.ctx.db,
      from: 'TradeTerminal <no-reply@trade.example>',
      now: () => Date.now(),
      log: { error: () => undefined },
      transport: { sendMail: async (m) => void sent.push(m) },
    });
    const event: DomainEvent<'payment.status'> = {
      id: 0,
      type: 'payment.status',
      userId: u.userId,
      payload: { transaction_id: id, status: 'expired', transaction_type: 'deposit' },
      createdAt: Date.now(),
    };
    const deps = { db: server.ctx.db, mailer, log: { warn: () => undefined, error: () => undefined }, publicUrl: () => 'https://trade.example' };
    expect(await emailPaymentStatus(deps, event)).toBe(true);
    await mailer.flush();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ from: 'TradeTerminal <no-reply@trade.example>', to: u.email, subject: `Depósito n.º ${id} por 30.00 USD: caducado` });
    expect(sent[0].text).toContain('https://trade.example/profile#transactions');

    // Someone else's transaction, or an unsubscribed owner: nothing.
    const other = await register(server);
    expect(await emailPaymentStatus(deps, { ...event, userId: other.userId })).toBe(false);
    await setNotifications(u, { email: false });
    expect(await emailPaymentStatus(deps, event)).toBe(false);
    expect(sent).toHaveLength(1);
  });
});

describe('texts', () => {
  const p = { id: 7, type: 'deposit' as const, status: 'cancelled', amount: '12.50', currency: 'EUR', reason: 'Abandoned', username: 'ada', historyUrl: 'https://x/profile#transactions' };
  it('has a subject without the reason and a body with it, in en, ru and es', () => {
    expect(paymentStatusEmail('en', 'a@b.co', p)).toMatchObject({ to: 'a@b.co', subject: 'Deposit #7 of 12.50 EUR was cancelled' });
    expect(paymentStatusEmail('en', 'a@b.co', p).text).toContain('Deposit #7 of 12.50 EUR was cancelled. Reason: Abandoned');
    expect(paymentStatusEmail('ru', 'a@b.co', p).subject).toBe('Пополнение №7 на сумму 12.50 EUR: операция отменена');
    expect(paymentStatusEmail('es', 'a@b.co', { ...p, type: 'withdrawal', status: 'processing' }).subject).toBe('Retiro n.º 7 por 12.50 EUR: en proceso');
  });
});
