/**
 * Changing the password from the profile. The current password must be right (argon2 check,
 * failures counted per account like logins), the new one is hashed before the transaction (argon2
 * is slow and must not hold the write lock), and applyPasswordChange stores it and ends every
 * other session of the user: their refresh tokens stop working and their access tokens are
 * refused from the next request on. The session that made the change stays. A notice goes to
 * the user's email in their language.
 */
import type { AccessClaims } from '../../infra/tokens';
import type { ChangePasswordInput } from '../../../contract/profile';
import { ProfileText } from '../../../contract/profile';
import { ErrorText } from '../../../contract/envelope';
import type { Language } from '../../../contract/user';
import { NotFound, invalid, rateLimited } from '../errors';
import type { Mailer, MailMessage } from '../mail';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { applyPasswordChange } from '../auth/sessions';
import type { AccountLimiter, AccountRule } from '../auth/limits';
import { pickLanguage } from '../auth/emails';
import { parseFrontSettings } from '../users';
import type { ProfileDeps } from './deps';

/** Wrong current passwords per account: the 11th within 15 minutes is refused with 429. */
export const PASSWORD_CHANGE_RULE: AccountRule = { scope: 'password_change_failure', max: 10, windowMs: 15 * 60_000 };

export interface PasswordChangeDeps extends ProfileDeps {
  mailer: Mailer;
  limiter: AccountLimiter;
}

export async function changePassword(deps: PasswordChangeDeps, claims: AccessClaims, input: ChangePasswordInput): Promise<void> {
  const now = deps.now();
  const subject = `user:${claims.userId}`;
  const user = await deps.db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'password_hash', 'front_settings'])
    .where('id', '=', claims.userId)
    .executeTakeFirst();
  if (!user) throw new NotFound(ErrorText.userNotFound);
  if (await deps.limiter.isExhausted(deps.db, PASSWORD_CHANGE_RULE, subject, now)) throw rateLimited();

  if (!(await verifyPassword(user.password_hash, input.old_password))) {
    await deps.tx((trx) => deps.limiter.record(trx, PASSWORD_CHANGE_RULE, subject, now));
    throw invalid(ProfileText.currentPasswordIncorrect, [{ field: 'old_password', message: ProfileText.currentPasswordIncorrect }]);
  }
  const passwordHash = await hashPassword(input.new_password);
  const changedAt = deps.now();
  await deps.tx(async (trx) => {
    // Conditional on the hash we checked, so two racing changes cannot both pass the old password.
    const still = await trx.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirst();
    if (!still || still.password_hash !== user.password_hash) throw invalid(ProfileText.currentPasswordIncorrect);
    await applyPasswordChange(trx, user.id, passwordHash, changedAt, claims.family);
    await deps.limiter.clear(trx, PASSWORD_CHANGE_RULE, subject);
  });
  await deps.mailer.enqueue(
    passwordChangedEmail(pickLanguage(parseFrontSettings(user.front_settings).language), user.email, user.username, changedAt),
  );
}

export function passwordChangedEmail(lang: Language, to: string, username: string, at: number): MailMessage {
  const when = new Date(at).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  const texts: Record<Language, { subject: string; body: string[] }> = {
    en: {
      subject: 'Your password was changed',
      body: [
        `Hello ${username},`,
        '',
        `The password of your TradeTerminal account was changed on ${when}. All other sessions have been signed out.`,
        '',
        'If you did not do this, reset your password right away with "Forgot password" on the login page and contact support.',
      ],
    },
    ru: {
      subject: 'Пароль изменён',
      body: [
        `Здравствуйте, ${username}!`,
        '',
        `Пароль вашего аккаунта TradeTerminal был изменён ${when}. Все остальные сеансы завершены.`,
        '',
        'Если это были не вы, немедленно восстановите пароль через «Забыли пароль?» на странице входа и свяжитесь с поддержкой.',
      ],
    },
    es: {
      subject: 'Tu contraseña ha cambiado',
      body: [
        `Hola, ${username}:`,
        '',
        `La contraseña de tu cuenta de TradeTerminal se cambió el ${when}. Se han cerrado todas las demás sesiones.`,
        '',
        'Si no has sido tú, restablece la contraseña de inmediato con «¿Olvidaste tu contraseña?» en la página de inicio de sesión y contacta con soporte.',
      ],
    },
  };
  const t = texts[lang];
  return { to, subject: t.subject, text: t.body.join('\n') };
}
