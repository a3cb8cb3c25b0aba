/**
 * Operator command `telegram`.
 *
 *   telegram start <code> --id <telegram user id> [--username alice] [--first-name Alice]
 *                  [--last-name Smith] [--language en]
 *       What the bot receives when the user presses Start on the deep link: builds that Telegram
 *       Update ("/start <code>" in the private chat of that account) and runs the very function
 *       the webhook runs. For a machine without a bot: the link completes and the bot's reply
 *       lands in the outbox (`outbox --channel telegram`).
 *   telegram set-webhook
 *       Point the bot (TELEGRAM_BOT_TOKEN) at <PUBLIC_URL>/api/v2/telegram/webhook with the
 *       webhook secret of DATA_DIR/secrets.json, so Telegram can call this server.
 */
import * as v from 'valibot';
import { TelegramUpdateSchema } from '../../../contract/profile';
import { loadSecrets } from '../../secrets';
import { cliProfileDeps } from '../../domain/profile/deps';
import { createTelegramSender, handleTelegramUpdate, setWebhook } from '../../domain/profile/telegram';
import { UsageError, parseArgs, type CliCommand } from './types';

const USAGE =
  'start <code> --id <telegram user id> [--username <name>] [--first-name <name>] [--last-name <name>] [--language <code>] | set-webhook';

const StartFlagsSchema = v.object({
  id: v.pipe(v.string('--id is required'), v.regex(/^[1-9]\d{0,15}$/, '--id must be a Telegram user id (a positive number)'), v.transform(Number)),
  username: v.optional(v.pipe(v.string(), v.regex(/^@?[A-Za-z0-9_]{1,64}$/, '--username must be a Telegram username'), v.transform((s) => s.replace(/^@/, '')))),
  'first-name': v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(256, '--first-name is too long'))),
  'last-name': v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(256, '--last-name is too long'))),
  language: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})?$/, '--language must be a language code like en or ru'))),
});

export const telegramCommand: CliCommand = {
  name: 'telegram',
  usage: USAGE,
  description: 'complete a Telegram link as the bot would ("/start <code>"), or register the bot webhook',
  async run(args, cli) {
    const [sub, ...rest] = args;
    const { positional, flags } = parseArgs(rest);

    if (sub === 'start') {
      if (positional.length !== 1) throw new UsageError('start needs exactly one link code');
      const parsed = v.safeParse(StartFlagsSchema, flags);
      if (!parsed.success) throw new UsageError(parsed.issues[0].message);
      const f = parsed.output;
      const now = cli.now();
      const update = v.safeParse(TelegramUpdateSchema, {
        update_id: Math.floor(now / 1000),
        message: {
          message_id: 1,
          date: Math.floor(now / 1000),
          from: {
            id: f.id,
            is_bot: false,
            first_name: f['first-name'] ?? f.username ?? 'Telegram user',
            ...(f['last-name'] ? { last_name: f['last-name'] } : {}),
            ...(f.username ? { username: f.username } : {}),
            ...(f.language ? { language_code: f.language } : {}),
          },
          // In a private chat the chat id is the user's id.
          chat: { id: f.id, type: 'private' },
          text: `/start ${positional[0]}`,
        },
      });
      if (!update.success) throw new UsageError(update.issues[0].message);
      const deps = await cliProfileDeps(cli);
      const sender = createTelegramSender(cli.config.telegramBotToken, cli.db, cli.now);
      const outcome = await handleTelegramUpdate(deps, sender, update.output);
      if (outcome.kind === 'linked') {
        cli.out(`Linked Telegram ${outcome.telegramId}${f.username ? ` (@${f.username})` : ''} to user ${outcome.userId} (${outcome.username}).`);
        if (sender.mode === 'outbox') cli.err('No TELEGRAM_BOT_TOKEN: the bot reply is in the outbox (outbox --channel telegram).');
        return 0;
      }
      cli.err(outcome.kind === 'expired' ? 'Link code expired (or unknown, or already used).' : `Nothing linked (${outcome.kind}).`);
      return 1;
    }

    if (sub === 'set-webhook') {
      if (positional.length > 0) throw new UsageError(`unexpected argument "${positional[0]}"`);
      const token = cli.config.telegramBotToken;
      if (!token) {
        cli.err('TELEGRAM_BOT_TOKEN is not set.');
        return 1;
      }
      if (!cli.config.publicUrl || !cli.config.publicUrl.startsWith('https://')) {
        cli.err('PUBLIC_URL must be the https:// address Telegram reaches this server at.');
        return 1;
      }
      const url = `${cli.config.publicUrl.replace(/\/+$/, '')}/api/v2/telegram/webhook`;
      try {
        await setWebhook(token, url, (await loadSecrets(cli.config, cli.db)).telegramWebhookSecret);
      } catch (err) {
        cli.err((err as Error).message);
        return 1;
      }
      cli.out(`Webhook set: ${url}`);
      return 0;
    }

    throw new UsageError(sub ? `Unknown telegram command: ${sub}` : 'Missing telegram command');
  },
};
