/**
 * Telegram linking and the bot's way out.
 *
 * Linking: the profile asks for a one-time code (random, 10 minutes; stored as a SHA-256 digest
 * for the lookup and sealed so the profile can show it again) and opens
 * https://t.me/<bot>?start=<code>. Pressing Start makes Telegram send "/start <code>" to our
 * webhook (authenticated by the X-Telegram-Bot-Api-Secret-Token header Telegram echoes from
 * setWebhook); `handleTelegramUpdate` then links that Telegram account to the code's user.
 * The operator CLI builds the same Update and runs the same function when no bot is configured.
 * One Telegram account belongs to one user: linking it again moves it to the new user.
 *
 * Sending: a TelegramSender. With TELEGRAM_BOT_TOKEN set it is the real Bot API (sendMessage
 * over HTTPS); without it messages are kept in the outbox (channel 'telegram', recipient = chat
 * id), where `npm run admin -- outbox --channel telegram` shows them.
 */
import type { DB, Trx } from '../../db';
import { TELEGRAM_CODE_PATTERN, TELEGRAM_CODE_TTL_MINUTES, type TelegramLinkCode, type TelegramStatus, type TelegramUpdate } from '../../../contract/profile';
import { randomToken, sha256Hex } from '../../infra/crypto';
import { recordEvent } from '../events';
import { writeOutbox } from '../mail';
import { parseFrontSettings } from '../users';
import { toUnix, type ProfileDeps } from './deps';
import { botReplies, telegramLanguage } from './telegram-texts';

export const CODE_TTL_MS = TELEGRAM_CODE_TTL_MINUTES * 60_000;
const codeContext = (userId: number) => `telegram-code:${userId}`;

// ---- sender ---------------------------------------------------------------------------------

export interface TelegramSender {
  /** 'bot' when messages really go to Telegram, 'outbox' when they are kept in the database. */
  readonly mode: 'bot' | 'outbox';
  send(chatId: number, text: string): Promise<void>;
}

type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal }) => Promise<{
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}>;

const API_BASE = 'https://api.telegram.org';

/** Calls one Bot API method; the error never carries the URL (it holds the token). */
async function callBotApi(token: string, method: string, payload: object, fetchImpl: FetchLike, timeoutMs: number): Promise<unknown> {
  const res = await fetchImpl(`${API_BASE}/bot${token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json().catch(() => null)) as { ok?: unknown; description?: unknown; result?: unknown } | null;
  if (!res.ok || body?.ok !== true) {
    const description = typeof body?.description === 'string' ? body.description.slice(0, 200) : 'no description';
    throw new Error(`Telegram ${method} failed: HTTP ${res.status}, ${description}`);
  }
  return body.result;
}

/** The real Bot API: sendMessage over HTTPS. */
export class BotApiSender implements TelegramSender {
  readonly mode = 'bot' as const;
  constructor(
    private readonly token: string,
    private readonly fetchImpl: FetchLike = fetch as unknown as FetchLike,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(chatId: number, text: string): Promise<void> {
    await callBotApi(this.token, 'sendMessage', { chat_id: chatId, text, link_preview_options: { is_disabled: true } }, this.fetchImpl, this.timeoutMs);
  }
}

/** No bot configured: keep the message in the outbox. */
export class OutboxTelegramSender implements TelegramSender {
  readonly mode = 'outbox' as const;
  constructor(
    private readonly db: DB,
    private readonly now: () => number,
  ) {}

  async send(chatId: number, text: string): Promise<void> {
    const subject = text.split('\n')[0].slice(0, 120);
    await writeOutbox(this.db, { channel: 'telegram', recipient: String(chatId), subject, body: text }, this.now());
  }
}

export function createTelegramSender(botToken: string | undefined, db: DB, now: () => number): TelegramSender {
  return botToken ? new BotApiSender(botToken) : new OutboxTelegramSender(db, now);
}

/**
 * Point the bot's webhook at this server, with the secret Telegram must echo in
 * X-Telegram-Bot-Api-Secret-Token (operator CLI: `telegram set-webhook`).
 */
export async function setWebhook(token: string, url: string, secret: string, fetchImpl: FetchLike = fetch as unknown as FetchLike): Promise<void> {
  await callBotApi(token, 'setWebhook', { url, secret_token: secret, allowed_updates: ['message'], drop_pending_updates: false }, fetchImpl, 15_000);
}

// ---- link codes -----------------------------------------------------------------------------

export function deepLink(botName: string, code: string): string {
  return `https://t.me/${encodeURIComponent(botName)}?start=${code}`;
}

/** A new one-time link code for the user; any earlier unused one stops working. */
export async function createLinkCode(deps: ProfileDeps, botName: string, userId: number): Promise<TelegramLinkCode> {
  const now = deps.now();
  const code = randomToken(18);
  await deps.tx(async (trx) => {
    await trx.deleteFrom('telegram_link_codes').where('user_id', '=', userId).where('used_at', 'is', null).execute();
    await trx
      .insertInto('telegram_link_codes')
      .values({
        user_id: userId,
        code_hash: sha256Hex(code),
        code_sealed: deps.box.seal(code, codeContext(userId)),
        created_at: now,
        expires_at: now + CODE_TTL_MS,
        used_at: null,
      })
      .execute();
  });
  return { code, deep_link: deepLink(botName, code), expires_at: toUnix(now + CODE_TTL_MS) };
}

export async function linkStatus(deps: ProfileDeps, botName: string, userId: number): Promise<TelegramStatus> {
  const now = deps.now();
  const link = await deps.db.selectFrom('telegram_links').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const pending = await deps.db
    .selectFrom('telegram_link_codes')
    .select(['code_sealed', 'expires_at'])
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const code = pending ? deps.box.open(pending.code_sealed, codeContext(userId)) : null;
  return {
    linked: !!link,
    telegram: link
      ? {
          id: Number(link.telegram_id),
          username: link.username,
          first_name: link.first_name,
          last_name: link.last_name,
          language: link.language_code,
          linked_at: toUnix(link.linked_at),
        }
      : null,
    pending_code: code,
    deep_link: code ? deepLink(botName, code) : null,
    expires_at: code && pending ? toUnix(pending.expires_at) : null,
  };
}

/** Disconnect the user's Telegram (idempotent); the chat is told it will get nothing more. */
export async function unlink(deps: ProfileDeps, sender: TelegramSender, botName: string, userId: number): Promise<TelegramStatus> {
  const now = deps.now();
  const removed = await deps.tx(async (trx) => {
    const link = await trx.selectFrom('telegram_links').select(['chat_id', 'language_code']).where('user_id', '=', userId).executeTakeFirst();
    if (!link) return null;
    await trx.deleteFrom('telegram_links').where('user_id', '=', userId).execute();
    await recordEvent(trx, 'telegram.linked', userId, { telegram_id: null }, now);
    const user = await trx.selectFrom('users').select('front_settings').where('id', '=', userId).executeTakeFirst();
    return { chatId: Number(link.chat_id), lang: telegramLanguage(parseFrontSettings(user?.front_settings ?? '{}').language, link.language_code) };
  });
  if (removed) await safeSend(deps, sender, removed.chatId, botReplies[removed.lang].unlinked);
  return linkStatus(deps, botName, userId);
}

// ---- the bot's incoming updates ---------------------------------------------------------------

export type UpdateOutcome =
  | { kind: 'linked'; userId: number; username: string; telegramId: number }
  | { kind: 'expired' }
  | { kind: 'help' }
  | { kind: 'not_private' }
  | { kind: 'ignored' };

const START = /^\/start(?:@[A-Za-z0-9_]{1,64})?(?:\s+(\S{1,256}))?\s*$/;
const HELP = /^\/help(?:@[A-Za-z0-9_]{1,64})?\s*$/;

/** Act on one Telegram Update (already validated with TelegramUpdateSchema); replies go through `sender`. */
export async function handleTelegramUpdate(deps: ProfileDeps, sender: TelegramSender, update: TelegramUpdate): Promise<UpdateOutcome> {
  const message = update.message;
  const from = message?.from;
  if (!message || !from || from.is_bot || typeof message.text !== 'string') return { kind: 'ignored' };
  const chatId = message.chat.id;
  const replyLang = telegramLanguage(null, from.language_code);
  const text = message.text.trim();

  if (HELP.test(text)) {
    await safeSend(deps, sender, chatId, botReplies[replyLang].help);
    return { kind: 'help' };
  }
  const start = START.exec(text);
  if (!start) return { kind: 'ignored' };
  if (message.chat.type !== 'private') {
    await safeSend(deps, sender, chatId, botReplies[replyLang].privateOnly);
    return { kind: 'not_private' };
  }
  const code = start[1];
  if (!code) {
    await safeSend(deps, sender, chatId, botReplies[replyLang].help);
    return { kind: 'help' };
  }
  const linked = TELEGRAM_CODE_PATTERN.test(code) ? await linkWithCode(deps, code, from, chatId) : null;
  if (!linked) {
    await safeSend(deps, sender, chatId, botReplies[replyLang].expired);
    return { kind: 'expired' };
  }
  await safeSend(deps, sender, chatId, botReplies[linked.lang].linked(linked.username));
  return { kind: 'linked', userId: linked.userId, username: linked.username, telegramId: from.id };
}

type TelegramFrom = NonNullable<NonNullable<TelegramUpdate['message']>['from']>;

async function linkWithCode(deps: ProfileDeps, code: string, from: TelegramFrom, chatId: number) {
  const now = deps.now();
  return deps.tx(async (trx: Trx) => {
    const row = await trx.selectFrom('telegram_link_codes').selectAll().where('code_hash', '=', sha256Hex(code)).executeTakeFirst();
    if (!row || row.used_at !== null || Number(row.expires_at) <= now) return null;
    const user = await trx.selectFrom('users').select(['id', 'username', 'front_settings']).where('id', '=', row.user_id).executeTakeFirst();
    if (!user) return null;
    const used = await trx
      .updateTable('telegram_link_codes')
      .set({ used_at: now })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return null;

    // The Telegram account may be linked to someone else: it moves to this user.
    const previous = await trx.selectFrom('telegram_links').select('user_id').where('telegram_id', '=', from.id).executeTakeFirst();
    if (previous && previous.user_id !== user.id) {
      await trx.deleteFrom('telegram_links').where('user_id', '=', previous.user_id).execute();
      await recordEvent(trx, 'telegram.linked', previous.user_id, { telegram_id: null }, now);
    }
    await trx.deleteFrom('telegram_links').where('user_id', '=', user.id).execute();
    await trx
      .insertInto('telegram_links')
      .values({
        user_id: user.id,
        telegram_id: from.id,
        chat_id: chatId,
        username: from.username ?? null,
        first_name: from.first_name,
        last_name: from.last_name ?? null,
        language_code: from.language_code ?? null,
        linked_at: now,
      })
      .execute();
    await recordEvent(trx, 'telegram.linked', user.id, { telegram_id: String(from.id) }, now);
    return {
      userId: user.id,
      username: user.username,
      lang: telegramLanguage(parseFrontSettings(user.front_settings).language, from.language_code),
    };
  });
}

/** Send without failing the caller: a bot outage must not undo a link or fail a webhook. */
export async function safeSend(deps: Pick<ProfileDeps, 'log'>, sender: TelegramSender, chatId: number, text: string): Promise<boolean> {
  try {
    await sender.send(chatId, text);
    return true;
  } catch (err) {
    deps.log.error({ err, chatId }, 'telegram message not delivered');
    return false;
  }
}
