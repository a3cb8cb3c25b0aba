/**
 * The profile area's service (ctx.services.profile): the dependencies every profile function
 * takes, the two-factor engine (also the login's SecondFactorGate) and the Telegram sender.
 * server/composition.ts creates it after the mailer and the auth service's limiter.
 */
import type { ServerBase } from '../../base';
import type { Mailer } from '../mail';
import type { AccountLimiter } from '../auth/limits';
import type { ProfileDeps } from './deps';
import { SecretBox } from './secret-box';
import { TwoFactor } from './two-factor';
import { createTelegramSender, type TelegramSender } from './telegram';
import type { PasswordChangeDeps } from './password';

export class ProfileService {
  readonly deps: ProfileDeps;
  readonly passwordDeps: PasswordChangeDeps;
  readonly twoFactor: TwoFactor;
  readonly sender: TelegramSender;
  readonly botName: string;

  constructor(ctx: ServerBase, shared: { mailer: Mailer; limiter: AccountLimiter }, sender?: TelegramSender) {
    this.deps = {
      db: ctx.db,
      tx: ctx.tx,
      now: ctx.now,
      dataDir: ctx.config.dataDir,
      box: new SecretBox(ctx.secrets.jwtSecret),
      log: ctx.log,
    };
    this.passwordDeps = { ...this.deps, mailer: shared.mailer, limiter: shared.limiter };
    this.twoFactor = new TwoFactor(this.passwordDeps);
    this.sender = sender ?? createTelegramSender(ctx.config.telegramBotToken, ctx.db, ctx.now);
    this.botName = ctx.config.telegramBotName;
  }
}
