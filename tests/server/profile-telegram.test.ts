/**
 * Telegram over real HTTP on a server with a hand-driven clock and price feed: link codes and
 * the deep link, the bot webhook with the right and a wrong secret, expired and reused codes,
 * moving a Telegram account between users, unlinking, the CLI child process completing a link
 * as the bot would, and the notifier writing to the outbox (channel 'telegram', no bot token)
 * after a settled order and after a payment status change, in the user's language. The Bot API
 * sender is checked against a stand-in fetch (no network in tests).
 */
import { describe, expect, it } from 'vitest';
import { makeUser, waitClosed, winCredit, type TestUser, useOrdersServer } from '../support/orders-harness';
import { admin } from './payments-support';
import { TELEGRAM_CODE_PATTERN } from '../../contract/profile';
import type { Order } from '../../contract/orders';
import { BotApiSender, setWebhook } from '../../server/domain/profile/telegram';

const s = useOrdersServer();

const api = (method: string, url: string, body?: unknown, token?: string, headers?: Record<string, string>) =>
  s.server.api(method, url, body, token, headers);
const secretHeader = () => ({ 'x-telegram-bot-api-secret-token': s.server.ctx.secrets.telegramWebhookSecret });

let nextTelegramId = 5_000_000 + Math.floor(Math.random() * 1_000_000);
let updateId = 1;

function startUpdate(code: string, from: { id: number; username?: string; language_code?: string; first_name?: string }, chatType = 'private') {
  return {
    update_id: updateId++,
    message: {
      message_id: updateId,
      date: Math.floor(Date.now() / 1000),
      from: { is_bot: false, first_name: from.first_name ?? 'Alice', ...from },
      chat: { id: from.id, type: chatType, first_name: 'Alice' },
      text: `/start ${code}`,
      entities: [{ type: 'bot_command', offset: 0, length: 6 }],
    },
  };
}

const webhook = (body: unknown, headers: Record<string, string> = secretHeader()) => api('POST', '/api/v2/telegram/webhook', body, undefined, headers);
const newCode = async (u: TestUser) => {
  const r = await api('POST', '/api/v2/telegram/link', undefined, u.token);
  expect(r.status).toBe(200);
  return r.body.data as { code: string; deep_link: string; expires_at: number };
};
const status = async (u: TestUser) => (await api('GET', '/api/v2/telegram/link', undefined, u.token)).body.data;

/** Telegram messages kept in the outbox for one chat, oldest first. */
async function telegramOutbox(chatId: number) {
  return s.server.ctx.db
    .selectFrom('outbox')
    .selectAll()
    .where('channel', '=', 'telegram')
    .where('recipient', '=', String(chatId))
    .orderBy('id')
    .execute();
}

async function waitForMessages(chatId: number, count: number, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const rows = await telegramOutbox(chatId);
    if (rows.length >= count) return rows;
    if (Date.now() > end) throw new Error(`expected ${count} telegram messages to ${chatId}, got ${rows.length}: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function linkedUser(language?: string): Promise<{ user: TestUser; telegramId: number }> {
  const user = await makeUser(s);
  if (language) expect((await api('PATCH', '/api/v2/profile/front-settings', { language }, user.token)).status).toBe(200);
  const { code } = await newCode(user);
  const telegramId = nextTelegramId++;
  const r = await webhook(startUpdate(code, { id: telegramId, username: `tg${telegramId}`, language_code: 'en' }));
  expect(r.status).toBe(200);
  expect(r.body.data).toEqual({ handled: 'linked' });
  return { user, telegramId };
}

describe('link codes', () => {
  it('POST /telegram/link answers a one-time code with the bot deep link; GET shows it pending', async () => {
    const u = await makeUser(s);
    const link = await newCode(u);
    expect(link.code).toMatch(TELEGRAM_CODE_PATTERN);
    expect(link.deep_link).toBe(`https://t.me/${s.server.ctx.config.telegramBotName}?start=${link.code}`);
    expect(link.expires_at).toBe(Math.floor((s.clock!.t + 10 * 60_000) / 1000));
    expect(await status(u)).toEqual({ linked: false, telegram: null, pending_code: link.code, deep_link: link.deep_link, expires_at: link.expires_at });
    const stored = await s.server.ctx.db.selectFrom('telegram_link_codes').selectAll().where('user_id', '=', u.id).execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(link.code);

    // A new code replaces the old one.
    const second = await newCode(u);
    expect((await status(u)).pending_code).toBe(second.code);
    expect(await s.server.ctx.db.selectFrom('telegram_link_codes').select('id').where('user_id', '=', u.id).execute()).toHaveLength(1);
    expect((await api('POST', '/api/v2/telegram/link', { code: 'mine' }, u.token)).status).toBe(400);
    expect((await api('POST', '/api/v2/telegram/link')).status).toBe(401);
  });
});

describe('POST /api/v2/telegram/webhook', () => {
  it('refuses a missing or wrong secret with 401 and links nothing', async () => {
    const u = await makeUser(s);
    const { code } = await newCode(u);
    const update = startUpdate(code, { id: nextTelegramId++ });
    const attempts: Record<string, string>[] = [{}, { 'x-telegram-bot-api-secret-token': 'guess' }, { 'x-telegram-bot-api-secret-token': s.server.ctx.secrets.oxapayWebhookSecret }];
    for (const headers of attempts) {
      const r = await webhook(update, headers);
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ success: false, data: null, error: 'Unauthorized', error_message: 'Unauthorized' });
    }
    // Even a broken body meets the secret check first.
    expect((await webhook('{not json', { 'x-telegram-bot-api-secret-token': 'guess' })).status).toBe(401);
    expect((await status(u)).linked).toBe(false);
  });

  it('links the Telegram account of "/start <code>", replies through the outbox, and the code works once', async () => {
    const u = await makeUser(s);
    const { code } = await newCode(u);
    const tgId = nextTelegramId++;
    const r = await webhook(startUpdate(code, { id: tgId, username: 'alice_t', first_name: 'Alice', language_code: 'en-GB' }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toEqual({ handled: 'linked' });

    const st = await status(u);
    expect(st).toEqual({
      linked: true,
      telegram: { id: tgId, username: 'alice_t', first_name: 'Alice', last_name: null, language: 'en-GB', linked_at: Math.floor(s.clock!.t / 1000) },
      pending_code: null,
      deep_link: null,
      expires_at: null,
    });
    const profile = await api('GET', '/api/v2/user/profile', undefined, u.token);
    expect(profile.body.data.telegram).toEqual(st.telegram);
    const [reply] = await telegramOutbox(tgId);
    expect(reply.body).toContain('Telegram is connected to your TradeTerminal account');
    const event = await s.server.ctx.db.selectFrom('domain_events').selectAll().where('type', '=', 'telegram.linked').where('user_id', '=', u.id).executeTakeFirst();
    expect(JSON.parse(event!.payload)).toEqual({ telegram_id: String(tgId) });

    // The same code again (a redelivery or someone else): "Link code expired", nothing changes.
    const again = await webhook(startUpdate(code, { id: nextTelegramId++ }));
    expect(again.body.data).toEqual({ handled: 'expired' });
    expect((await status(u)).telegram.id).toBe(tgId);
  });

  it('says "Link code expired" for an unknown or expired code, in the Telegram user language', async () => {
    const u = await makeUser(s);
    const { code } = await newCode(u);
    const stranger = nextTelegramId++;
    expect((await webhook(startUpdate('A'.repeat(24), { id: stranger }))).body.data).toEqual({ handled: 'expired' });
    expect((await telegramOutbox(stranger)).at(-1)?.body).toMatch(/^Link code expired\./);

    s.clock!.advance(10 * 60_000);
    const late = nextTelegramId++;
    expect((await webhook(startUpdate(code, { id: late, language_code: 'ru' }))).body.data).toEqual({ handled: 'expired' });
    expect((await telegramOutbox(late)).at(-1)?.body).toMatch(/^Срок действия кода привязки истёк/);
    expect((await status(u)).linked).toBe(false);
  });

  it('validates the update and ignores what it does not handle', async () => {
    expect((await webhook({ update_id: 'x' })).status).toBe(400);
    expect((await webhook({ update_id: 1, message: { message_id: 1, chat: { id: 'me' } } })).status).toBe(400);
    expect((await webhook({ update_id: updateId++, edited_message: { text: 'hi' } })).body.data).toEqual({ handled: 'ignored' });
    const id = nextTelegramId++;
    const plain = startUpdate('x', { id });
    plain.message.text = 'hello bot';
    expect((await webhook(plain)).body.data).toEqual({ handled: 'ignored' });
    const bare = startUpdate('x', { id });
    bare.message.text = '/start';
    expect((await webhook(bare)).body.data).toEqual({ handled: 'help' });
    expect((await telegramOutbox(id)).at(-1)?.body).toContain('Profile → Telegram');
    const group = startUpdate('B'.repeat(24), { id }, 'group');
    expect((await webhook(group)).body.data).toEqual({ handled: 'not_private' });
  });

  it('moves a Telegram account that links again to another user', async () => {
    const { user: a, telegramId } = await linkedUser();
    const b = await makeUser(s);
    const { code } = await newCode(b);
    expect((await webhook(startUpdate(code, { id: telegramId }))).body.data).toEqual({ handled: 'linked' });
    expect((await status(a)).linked).toBe(false);
    expect((await status(b)).telegram.id).toBe(telegramId);
  });
});

describe('POST /api/v2/telegram/unlink', () => {
  it('disconnects, tells the chat, and is idempotent', async () => {
    const { user, telegramId } = await linkedUser();
    const r = await api('POST', '/api/v2/telegram/unlink', undefined, user.token);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ linked: false, telegram: null });
    expect((await telegramOutbox(telegramId)).at(-1)?.body).toContain('Telegram is disconnected');
    expect((await api('POST', '/api/v2/telegram/unlink', undefined, user.token)).body.data.linked).toBe(false);
    expect((await api('GET', '/api/v2/user/profile', undefined, user.token)).body.data.telegram).toBeNull();
  });
});

describe('npm run admin -- telegram start', () => {
  it('completes a link as the bot would, in a separate process', async () => {
    const u = await makeUser(s);
    const { code } = await newCode(u);
    const run = await admin(s.server, 'telegram', 'start', code, '--id', '12345', '--username', 'alice');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Linked Telegram 12345 (@alice) to user ${u.id}`);
    expect((await status(u)).telegram).toMatchObject({ id: 12345, username: 'alice', first_name: 'alice' });
    expect((await telegramOutbox(12345)).at(-1)?.body).toContain('Telegram is connected');

    const reused = await admin(s.server, 'telegram', 'start', code, '--id', '12345');
    expect(reused.code).toBe(1);
    expect(reused.stderr).toContain('Link code expired');
    expect((await admin(s.server, 'telegram', 'start', code)).code).toBe(2);
    expect((await admin(s.server, 'telegram', 'start', code, '--id', 'abc')).code).toBe(2);
    // Without a bot token there is no webhook to set.
    const hook = await admin(s.server, 'telegram', 'set-webhook');
    expect(hook.code).toBe(1);
    expect(hook.stderr).toContain('TELEGRAM_BOT_TOKEN');
  });
});

describe('notifications', () => {
  const PAIR = 'EURUSD';

  it('messages the linked chat when an order settles; unlinked users get nothing', async () => {
    const { user, telegramId } = await linkedUser();
    const lonely = await makeUser(s);
    const before = await telegramOutbox(telegramId);

    s.feed.push(PAIR, 1.2, s.clock!.advance(100));
    const placed = await api('POST', '/api/v2/orders', { pair_code: PAIR, direction: 'up', amount: 10, currency: 'USD', trading_account: 'DemoAccount', expiry: 5 }, user.token);
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const other = await api('POST', '/api/v2/orders', { pair_code: PAIR, direction: 'up', amount: 10, currency: 'USD', trading_account: 'DemoAccount', expiry: 5 }, lonely.token);
    expect(other.status).toBe(201);
    const o: Order = placed.body.data.order;
    s.clock!.set(o.expires_at_ms);
    s.feed.push(PAIR, 1.25, o.expires_at_ms);
    s.clock!.advance(1);
    s.feed.push(PAIR, 1.26, o.expires_at_ms + 1);
    await waitClosed(s, o.order_id);

    const rows = await waitForMessages(telegramId, before.length + 1);
    const payout = (winCredit(1000, o.payout_rate) / 100).toFixed(2);
    expect(rows.at(-1)?.body).toBe(`Order #${o.order_id} EUR/USD (up, demo account) closed with a profit. Stake 10.00 USD, payout ${payout} USD.`);
    // Nothing went anywhere for the user without a link.
    const all = await s.server.ctx.db.selectFrom('outbox').select('body').where('channel', '=', 'telegram').execute();
    expect(all.filter((r) => r.body.includes(`#${other.body.data.order.order_id} `))).toEqual([]);
  });

  it('messages the linked chat on deposit status changes, in the user language', async () => {
    const { user, telegramId } = await linkedUser('ru');
    const before = (await telegramOutbox(telegramId)).length;
    const dep = await api(
      'POST',
      '/api/v2/transactions/deposit',
      { amount: 100, currency: 'USD', account_type: 'real', payment_method_id: 'card_visa_mastercard', payment_system: 'cards' },
      user.token,
    );
    expect(dep.status, JSON.stringify(dep.body)).toBe(201);
    const id: number = dep.body.data.transaction_id;
    const approved = await s.server.ctx.services.payments.approve(id);
    expect(approved.changed).toBe(true);
    const rows = await waitForMessages(telegramId, before + 1);
    expect(rows.at(-1)?.body).toBe(`Пополнение №${id} на сумму 100.00 USD: операция выполнена.`);
  });

  it('also after a change made by the operator CLI in another process', async () => {
    const { user, telegramId } = await linkedUser('es');
    const dep = await api(
      'POST',
      '/api/v2/transactions/deposit',
      { amount: 25, currency: 'USD', account_type: 'real', payment_method_id: 'card_visa_mastercard', payment_system: 'cards' },
      user.token,
    );
    expect(dep.status).toBe(201);
    const id: number = dep.body.data.transaction_id;
    const before = (await telegramOutbox(telegramId)).length;
    const run = await admin(s.server, 'tx', 'reject', String(id), '--reason', 'Card declined');
    expect(run.code, run.stderr).toBe(0);
    const rows = await waitForMessages(telegramId, before + 1);
    expect(rows.at(-1)?.body).toBe(`Depósito n.º ${id} por 25.00 USD: fallido. Motivo: Card declined`);
  });
});

describe('the Bot API sender', () => {
  type Call = { url: string; body: unknown };
  const fakeFetch = (answer: { status: number; json: unknown }, calls: Call[]) =>
    (async (url: string, init: { body: string }) => {
      calls.push({ url, body: JSON.parse(init.body) });
      return { ok: answer.status >= 200 && answer.status < 300, status: answer.status, json: async () => answer.json };
    }) as never;

  it('posts sendMessage to the bot URL and fails loudly without leaking the token', async () => {
    const calls: Call[] = [];
    const sender = new BotApiSender('123:SECRET-TOKEN', fakeFetch({ status: 200, json: { ok: true, result: {} } }, calls));
    await sender.send(42, 'hello');
    expect(calls).toEqual([
      { url: 'https://api.telegram.org/bot123:SECRET-TOKEN/sendMessage', body: { chat_id: 42, text: 'hello', link_preview_options: { is_disabled: true } } },
    ]);

    const failing = new BotApiSender('123:SECRET-TOKEN', fakeFetch({ status: 403, json: { ok: false, description: 'Forbidden: bot was blocked by the user' } }, []));
    const err = await failing.send(42, 'hello').then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toBe('Telegram sendMessage failed: HTTP 403, Forbidden: bot was blocked by the user');
    expect(err?.message).not.toContain('SECRET-TOKEN');
  });

  it('sets the webhook with the secret Telegram must echo', async () => {
    const calls: Call[] = [];
    await setWebhook('1:T', 'https://trade.example/api/v2/telegram/webhook', 'shh', fakeFetch({ status: 200, json: { ok: true, result: true } }, calls));
    expect(calls[0]).toEqual({
      url: 'https://api.telegram.org/bot1:T/setWebhook',
      body: { url: 'https://trade.example/api/v2/telegram/webhook', secret_token: 'shh', allowed_updates: ['message'], drop_pending_updates: false },
    });
  });
});
