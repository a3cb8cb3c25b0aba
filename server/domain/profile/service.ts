/**
 * The profile area's service (ctx.services.profile): the dependencies every profile function
 * takes, the two-factor engine (also the login's SecondFactorGate) and the Telegram sender. The
 * profile module creates it in `init`, after the auth module made the mailer and the limiter.
 */
import type { AppContext } from '../../context';
import { mailerOf } from '../mail';
import { authServiceOf } from '../auth/service';
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

  constructor(ctx: AppContext, sender?: TelegramSender) {
    this.deps = {
      db: ctx.db,
      tx: ctx.tx,
      now: ctx.now,
      dataDir: ctx.config.dataDir,
      box: new SecretBox(ctx.secrets.jwtSecret),
      log: ctx.log,
    };
    const auth = authServiceOf(ctx);
    this.passwordDeps = { ...this.deps, mailer: mailerOf(ctx), limiter: auth.limiter };
    this.twoFactor = new TwoFactor(this.passwordDeps);
    this.sender = sender ?? createTelegramSender(ctx.config.telegramBotToken, ctx.db, ctx.now);
    this.botName = ctx.config.telegramBotName;
  }
}

export function profileServiceOf(ctx: AppContext): ProfileService {
  const service = ctx.services.profile;
  if (!(service instanceof ProfileService)) throw new Error('The profile module is not initialised');
  return service;
}
