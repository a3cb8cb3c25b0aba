/**
 * What the profile functions need: the database, a write transaction, the clock, where uploads
 * live and the key material for sealing secrets. A subset of AppContext, so the operator CLI
 * (another process, no HTTP server) runs the same document-review and Telegram-link code on the
 * database of DATA_DIR. `ProfileServiceDeps` adds what only the running server hands the
 * ProfileService (server/composition.ts): the event stream, the mailer, the account limiter,
 * the site's address and the Telegram bot settings.
 */
import { transaction, type DB, type RunTx } from '../../db';
import type { Config } from '../../config';
import { loadSecrets } from '../../secrets';
import type { AccountLimiter } from '../auth/limits';
import type { EventDispatcher } from '../events';
import type { DomainLog } from '../log';
import type { Mailer } from '../mail';
import { SecretBox } from './secret-box';

export type ProfileLog = Pick<DomainLog, 'warn' | 'error'>;

export interface ProfileDeps {
  db: DB;
  /** One write transaction (BEGIN IMMEDIATE); inside it use only the handed `trx`. */
  tx: RunTx;
  now: () => number;
  /** DATA_DIR: uploads go under DATA_DIR/uploads. */
  dataDir: string;
  /** Seals TOTP secrets and pending Telegram link codes (key derived from the server secret). */
  box: SecretBox;
  log: ProfileLog;
}

/** The Telegram bot settings of the server (TELEGRAM_BOT_TOKEN, TELEGRAM_BOT_NAME, the webhook secret of secrets.json). */
export interface ProfileTelegramConfig {
  /** Unset: messages go to the outbox instead of the Bot API. */
  botToken: string | undefined;
  botName: string;
  /** What Telegram echoes in X-Telegram-Bot-Api-Secret-Token on every webhook call. */
  webhookSecret: string;
}

/** What the ProfileService is built with: the functions' deps plus the running server's parts. */
export interface ProfileServiceDeps extends ProfileDeps {
  /** The domain events the notifiers listen to (order.settled, payment.status) and the document pushes. */
  events: Pick<EventDispatcher, 'on'>;
  /** Password and two-factor notices, payment status emails. */
  mailer: Mailer;
  /** Wrong passwords and codes per account. */
  limiter: AccountLimiter;
  /** Base address a browser reaches the server at (links in emails). */
  publicUrl: () => string;
  telegram: ProfileTelegramConfig;
}


/** Milliseconds to unix seconds for the wire. */
export const toUnix = (ms: number | null | undefined): number => Math.floor(Number(ms ?? 0) / 1000);

/**
 * The same dependencies for the operator CLI (another process): the database file of DATA_DIR,
 * the server's secret (JWT_SECRET, or the generated one: server/secrets.ts), messages to stderr.
 */
export async function cliProfileDeps(cli: { config: Config; db: DB; now: () => number; err: (line: string) => void }): Promise<ProfileDeps> {
  const { jwtSecret } = await loadSecrets(cli.config, cli.db);
  return {
    db: cli.db,
    tx: (fn) => transaction(cli.db, fn),
    now: cli.now,
    dataDir: cli.config.dataDir,
    box: new SecretBox(jwtSecret),
    log: {
      warn: (_obj, msg) => cli.err(`warning: ${msg}`),
      error: (obj, msg) => cli.err(`error: ${msg}${(obj as { err?: unknown }).err instanceof Error ? ` (${((obj as { err: Error }).err).message})` : ''}`),
    },
  };
}
