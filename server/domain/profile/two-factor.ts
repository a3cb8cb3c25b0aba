/**
 * Two-factor authentication with TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps), the
 * authenticator-app standard.
 *
 * Enrolment: `enable` makes a random 160-bit secret and keeps it as *pending* (sealed with
 * AES-256-GCM, secret-box.ts) for 15 minutes; nothing changes for login yet. `verify` with a
 * right code moves it to users.two_factor_secret and sets two_factor_enabled. `disable` needs a
 * current code and clears everything.
 *
 * Codes: the step before, the current one and the one after are accepted (clock drift), and a
 * step is accepted only when it is later than the last one accepted for the user, so a code
 * (or an older one) never works twice: the counter is advanced with a conditional update in the
 * same transaction that acts on the code. Wrong codes count per account (10 per 15 minutes).
 *
 * Recovery codes (issue 26): turning two-factor on hands out RECOVERY_CODE_COUNT random codes
 * (10 characters of a 31-symbol alphabet, ~49.5 bits each), shown once; the database keeps only
 * a keyed hash of each (SecretBox.digest: HMAC-SHA256 with a key derived from the server secret,
 * bound to the user), so a copy of the table reveals none. Each code replaces a TOTP code at the
 * login's second step once (a conditional update marks it used inside the challenge's
 * transaction). A wrong recovery code counts like a wrong TOTP code: toward the challenge's 5
 * and the account's 10 per 15 minutes. `regenerateRecoveryCodes` needs a current TOTP code and
 * replaces the whole set; turning two-factor off deletes it.
 *
 * Login: the auth service calls `challenge(userId)` (the SecondFactorGate) after a right
 * password; the client gets a random challenge, kept as a SHA-256 digest, valid 5 minutes, single
 * use, dead after 5 wrong codes; `completeLogin(challenge, code)` answers the user id to open a
 * session for.
 */
import { HOTP, Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { forUpdate, type Trx } from '../../db';
import { AuthText } from '../../../contract/auth';
import { ErrorText } from '../../../contract/envelope';
import type { Language } from '../../../contract/user';
import {
  ProfileText,
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  type RecoveryCodesStatus,
  type SecondFactor,
  type TwoFactorSetup,
} from '../../../contract/profile';
import { NotFound, Unavailable, invalid, rateLimited, unauthenticated } from '../errors';
import type { AccountLimiter, AccountRule } from '../auth/limits';
import crypto from 'node:crypto';
import { constantTimeEqual, randomToken, sha256Hex } from '../../infra/crypto';
import { pickLanguage } from '../auth/emails';
import type { Mailer, MailMessage } from '../mail';
import { parseFrontSettings } from '../users';
import { toUnix, type ProfileDeps } from './deps';

export const TOTP_ISSUER = 'TradeTerminal';
const ALGORITHM = 'SHA1';
/** Accept the neighbouring steps too: phones and servers disagree by a few seconds. */
const WINDOW = 1;
export const SETUP_TTL_MS = 15 * 60_000;
export const CHALLENGE_TTL_MS = 5 * 60_000;
export const CHALLENGE_MAX_ATTEMPTS = 5;
/** Wrong codes per account across verify, disable and login: the 11th within 15 minutes is 429. */
export const TOTP_FAILURE_RULE: AccountRule = { scope: 'totp_failure', max: 10, windowMs: 15 * 60_000 };

export interface TwoFactorDeps extends ProfileDeps {
  limiter: AccountLimiter;
  mailer: Mailer;
}

const sealContext = (userId: number) => `totp:${userId}`;
const recoveryContext = (userId: number) => `recovery:${userId}`;

/** A fresh random recovery code (normalised: lowercase, no dash), uniform over RECOVERY_CODE_ALPHABET. */
export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < RECOVERY_CODE_LENGTH; i++) code += RECOVERY_CODE_ALPHABET[crypto.randomInt(0, RECOVERY_CODE_ALPHABET.length)];
  return code;
}
const subjectOf = (userId: number) => `user:${userId}`;

/** The 30-second step a time falls in. */
export function stepAt(nowMs: number): number {
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: nowMs });
}

/** The step whose code `code` is, among the accepted window around now and later than `lastStep`; null when none. */
export function matchStep(secretBase32: string, code: string, nowMs: number, lastStep: number | null): number | null {
  const secret = Secret.fromBase32(secretBase32);
  const current = stepAt(nowMs);
  let found: number | null = null;
  // Every candidate is computed and compared (no early exit), so timing says nothing about which matched.
  for (let step = current - WINDOW; step <= current + WINDOW; step++) {
    const expected = HOTP.generate({ secret, counter: step, algorithm: ALGORITHM, digits: TOTP_DIGITS });
    const same = constantTimeEqual(expected, code);
    if (same && found === null && (lastStep === null || step > lastStep)) found = step;
  }
  return found;
}

type CodeCheck = { ok: true } | { ok: false; reason: 'wrong' | 'wrong_recovery' | 'unavailable' };
type LoginCheck = { ok: true; userId: number } | { ok: false; reason: 'invalid' | 'wrong' | 'wrong_recovery' | 'unavailable' };

export class TwoFactor {
  constructor(private readonly deps: TwoFactorDeps) {}

  // ---- enrolment -----------------------------------------------------------------------------

  async enable(userId: number): Promise<TwoFactorSetup> {
    const now = this.deps.now();
    const user = await this.user(userId);
    if (Number(user.two_factor_enabled) === 1) throw invalid(ProfileText.twoFactorAlreadyEnabled);
    const secret = new Secret({ size: 20 }).base32;
    const sealed = this.deps.box.seal(secret, sealContext(userId));
    await this.deps.tx(async (trx) => {
      await ensureState(trx, userId, now);
      await trx
        .updateTable('two_factor_state')
        .set({ pending_secret: sealed, pending_created_at: now, updated_at: now })
        .where('user_id', '=', userId)
        .execute();
    });
    const otpauth_url = new TOTP({
      issuer: TOTP_ISSUER,
      label: user.username,
      secret: Secret.fromBase32(secret),
      algorithm: ALGORITHM,
      digits: TOTP_DIGITS,
      period: TOTP_PERIOD_SECONDS,
    }).toString();
    const qr_code = await QRCode.toDataURL(otpauth_url, { errorCorrectionLevel: 'M', margin: 2, width: 240, type: 'image/png' });
    return { secret, otpauth_url, qr_code, expires_at: toUnix(now + SETUP_TTL_MS) };
  }

  /** Confirm the pending enrolment with a code from the app: two-factor is on from now; answers the new recovery codes (shown once). */
  async verify(userId: number, code: string): Promise<string[]> {
    const now = this.deps.now();
    const user = await this.user(userId);
    await this.guardAttempts(userId, now);
    const result = await this.deps.tx(async (trx): Promise<(CodeCheck & { codes?: string[] }) | 'no_setup'> => {
      const state = await forUpdate(trx, trx.selectFrom('two_factor_state').selectAll().where('user_id', '=', userId)).executeTakeFirst();
      if (!state?.pending_secret || Number(state.pending_created_at) + SETUP_TTL_MS <= now) return 'no_setup';
      const secret = this.deps.box.open(state.pending_secret, sealContext(userId));
      if (secret === null) return { ok: false, reason: 'unavailable' };
      const check = await this.useCode(trx, userId, secret, code, now);
      if (!check.ok) return check;
      await trx
        .updateTable('users')
        .set({ two_factor_secret: state.pending_secret, two_factor_enabled: 1, updated_at: now })
        .where('id', '=', userId)
        .execute();
      await trx
        .updateTable('two_factor_state')
        .set({ pending_secret: null, pending_created_at: null, enabled_at: now, updated_at: now })
        .where('user_id', '=', userId)
        .execute();
      return { ok: true, codes: await this.replaceRecoveryCodes(trx, userId, now) };
    });
    if (result === 'no_setup') {
      throw invalid(Number(user.two_factor_enabled) === 1 ? ProfileText.twoFactorAlreadyEnabled : ProfileText.twoFactorSetupMissing);
    }
    await this.afterCheck(userId, result, now);
    await this.notify(user, true, now);
    return result.ok ? (result.codes ?? []) : [];
  }

  /** A fresh set of recovery codes for a user with two-factor on, confirmed by a current TOTP code; the old set stops working. */
  async regenerateRecoveryCodes(userId: number, code: string): Promise<string[]> {
    const { result } = await this.withEnabledCode(userId, code, (trx, now) => this.replaceRecoveryCodes(trx, userId, now));
    return result.ok ? (result.value ?? []) : [];
  }

  /**
   * A step a user with two-factor on confirms with a current TOTP code (new recovery codes,
   * turning it off): the attempt limit, the code checked and used in the same transaction as
   * `then`, and the attempt counted after it. Refused when two-factor is off.
   */
  private async withEnabledCode<T>(
    userId: number,
    code: string,
    then: (trx: Trx, now: number) => Promise<T>,
  ): Promise<{ user: Awaited<ReturnType<TwoFactor['user']>>; now: number; result: (CodeCheck & { value?: T }) }> {
    const now = this.deps.now();
    const user = await this.user(userId);
    if (Number(user.two_factor_enabled) !== 1 || !user.two_factor_secret) throw invalid(ProfileText.twoFactorNotEnabled);
    await this.guardAttempts(userId, now);
    const result = await this.deps.tx(async (trx): Promise<(CodeCheck & { value?: T }) | 'not_enabled'> => {
      const row = await trx.selectFrom('users').select(['two_factor_enabled', 'two_factor_secret']).where('id', '=', userId).executeTakeFirst();
      if (!row || Number(row.two_factor_enabled) !== 1 || !row.two_factor_secret) return 'not_enabled';
      const secret = this.deps.box.open(row.two_factor_secret, sealContext(userId));
      if (secret === null) return { ok: false, reason: 'unavailable' };
      const check = await this.useCode(trx, userId, secret, code, now);
      if (!check.ok) return check;
      return { ok: true, value: await then(trx, now) };
    });
    if (result === 'not_enabled') throw invalid(ProfileText.twoFactorNotEnabled);
    await this.afterCheck(userId, result, now);
    return { user, now, result };
  }

  /** How many unused recovery codes the user has (0 with two-factor off). */
  async recoveryCodesStatus(userId: number): Promise<RecoveryCodesStatus> {
    const row = await this.deps.db
      .selectFrom('two_factor_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return { remaining: Number(row?.n ?? 0), total: RECOVERY_CODE_COUNT };
  }

  async disable(userId: number, code: string): Promise<void> {
    const { user, now, result } = await this.withEnabledCode(userId, code, async (trx, now) => {
      await trx.updateTable('users').set({ two_factor_secret: null, two_factor_enabled: 0, updated_at: now }).where('id', '=', userId).execute();
      // The counter belonged to the secret that is gone; a new enrolment starts afresh.
      await trx
        .updateTable('two_factor_state')
        .set({ pending_secret: null, pending_created_at: null, last_used_step: null, enabled_at: null, updated_at: now })
        .where('user_id', '=', userId)
        .execute();
      await trx.deleteFrom('two_factor_challenges').where('user_id', '=', userId).execute();
      await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    });
    if (result.ok) await this.notify(user, false, now);
  }

  // ---- login ---------------------------------------------------------------------------------

  /** The SecondFactorGate: a new challenge for a user whose password was just verified. */
  async challenge(userId: number): Promise<string> {
    const now = this.deps.now();
    const token = randomToken();
    await this.deps.tx(async (trx) => {
      await trx.deleteFrom('two_factor_challenges').where('expires_at', '<=', now).execute();
      await trx
        .insertInto('two_factor_challenges')
        .values({ user_id: userId, challenge_hash: sha256Hex(token), created_at: now, expires_at: now + CHALLENGE_TTL_MS, used_at: null })
        .execute();
    });
    return token;
  }

  /** Check the second step of a login (a TOTP code or a recovery code); answers the user id to open a session for. */
  async completeLogin(challenge: string, factor: SecondFactor): Promise<number> {
    const now = this.deps.now();
    const hash = sha256Hex(challenge);
    const found = await this.deps.db.selectFrom('two_factor_challenges').select('user_id').where('challenge_hash', '=', hash).executeTakeFirst();
    if (!found) throw unauthenticated(ProfileText.invalidChallenge);
    await this.guardAttempts(found.user_id, now);
    const result = await this.deps.tx(async (trx): Promise<LoginCheck> => {
      const row = await forUpdate(trx, trx.selectFrom('two_factor_challenges').selectAll().where('challenge_hash', '=', hash)).executeTakeFirst();
      if (!row || row.used_at !== null || Number(row.expires_at) <= now || Number(row.attempts) >= CHALLENGE_MAX_ATTEMPTS) {
        return { ok: false, reason: 'invalid' };
      }
      const user = await trx.selectFrom('users').select(['two_factor_enabled', 'two_factor_secret']).where('id', '=', row.user_id).executeTakeFirst();
      if (!user || Number(user.two_factor_enabled) !== 1 || !user.two_factor_secret) return { ok: false, reason: 'invalid' };
      const secret = this.deps.box.open(user.two_factor_secret, sealContext(row.user_id));
      if (secret === null) return { ok: false, reason: 'unavailable' };
      const check =
        factor.kind === 'totp' ? await this.useCode(trx, row.user_id, secret, factor.code, now) : await this.useRecoveryCode(trx, row.user_id, factor.code, now);
      if (!check.ok) {
        await trx
          .updateTable('two_factor_challenges')
          .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
          .where('id', '=', row.id)
          .execute();
        return check;
      }
      const used = await trx
        .updateTable('two_factor_challenges')
        .set({ used_at: now })
        .where('id', '=', row.id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) return { ok: false, reason: 'invalid' };
      return { ok: true, userId: row.user_id };
    });
    if (!result.ok && result.reason === 'invalid') throw unauthenticated(ProfileText.invalidChallenge);
    await this.afterCheck(found.user_id, result, now);
    return found.user_id;
  }

  // ---- helpers -------------------------------------------------------------------------------

  private async user(userId: number) {
    const user = await this.deps.db
      .selectFrom('users')
      .select(['id', 'username', 'email', 'front_settings', 'two_factor_enabled', 'two_factor_secret'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) throw new NotFound(ErrorText.userNotFound);
    return user;
  }

  private async guardAttempts(userId: number, now: number): Promise<void> {
    if (await this.deps.limiter.isExhausted(this.deps.db, TOTP_FAILURE_RULE, subjectOf(userId), now)) throw rateLimited();
  }

  /** After the transaction: count a wrong code (in its own transaction, so it sticks) and throw; or clear the count. */
  private async afterCheck(userId: number, result: CodeCheck | LoginCheck, now: number): Promise<void> {
    if (result.ok) {
      await this.deps.tx((trx) => this.deps.limiter.clear(trx, TOTP_FAILURE_RULE, subjectOf(userId)));
      return;
    }
    if (result.reason === 'unavailable') {
      this.deps.log.error({ userId }, 'a sealed TOTP secret does not open: was the server secret (JWT_SECRET) changed?');
      throw new Unavailable(AuthText.secondFactorUnavailable);
    }
    await this.deps.tx((trx) => this.deps.limiter.record(trx, TOTP_FAILURE_RULE, subjectOf(userId), now));
    if (result.reason === 'wrong_recovery') {
      throw invalid(ProfileText.invalidRecoveryCode, [{ field: 'recovery_code', message: ProfileText.invalidRecoveryCode }]);
    }
    throw invalid(ProfileText.invalidCode, [{ field: 'code', message: ProfileText.invalidCode }]);
  }

  /** Spend one unused recovery code of the user: a conditional update, so two racing logins cannot both use it. */
  private async useRecoveryCode(trx: Trx, userId: number, code: string, now: number): Promise<CodeCheck> {
    const used = await trx
      .updateTable('two_factor_recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', this.deps.box.digest(code, recoveryContext(userId)))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1 ? { ok: true } : { ok: false, reason: 'wrong_recovery' };
  }

  /** Delete the user's recovery codes and store the keyed hashes of a fresh set; answers the codes (the only time they exist in clear). */
  private async replaceRecoveryCodes(trx: Trx, userId: number, now: number): Promise<string[]> {
    await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    const codes = new Set<string>();
    while (codes.size < RECOVERY_CODE_COUNT) codes.add(newRecoveryCode());
    const list = [...codes];
    await trx
      .insertInto('two_factor_recovery_codes')
      .values(list.map((c) => ({ user_id: userId, code_hash: this.deps.box.digest(c, recoveryContext(userId)), created_at: now, used_at: null })))
      .execute();
    return list;
  }

  /** Accept `code` once: find its step and move the user's counter past it (conditionally, against races). */
  private async useCode(trx: Trx, userId: number, secret: string, code: string, now: number): Promise<CodeCheck> {
    await ensureState(trx, userId, now);
    const state = await forUpdate(trx, trx.selectFrom('two_factor_state').select('last_used_step').where('user_id', '=', userId)).executeTakeFirst();
    const last = state?.last_used_step === null || state?.last_used_step === undefined ? null : Number(state.last_used_step);
    const step = matchStep(secret, code, now, last);
    if (step === null) return { ok: false, reason: 'wrong' };
    const moved = await trx
      .updateTable('two_factor_state')
      .set({ last_used_step: step, updated_at: now })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .executeTakeFirst();
    return Number(moved.numUpdatedRows) === 1 ? { ok: true } : { ok: false, reason: 'wrong' };
  }

  private async notify(user: { username: string; email: string; front_settings: string }, enabled: boolean, now: number): Promise<void> {
    const lang = pickLanguage(parseFrontSettings(user.front_settings).language);
    await this.deps.mailer.enqueue(twoFactorEmail(lang, user.email, user.username, enabled, now));
  }
}

async function ensureState(trx: Trx, userId: number, now: number): Promise<void> {
  await trx
    .insertInto('two_factor_state')
    .values({ user_id: userId, pending_secret: null, pending_created_at: null, last_used_step: null, enabled_at: null, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

export function twoFactorEmail(lang: Language, to: string, username: string, enabled: boolean, at: number): MailMessage {
  const when = new Date(at).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  const texts: Record<Language, { on: string; off: string; body: (state: string) => string[] }> = {
    en: {
      on: 'Two-factor authentication is on',
      off: 'Two-factor authentication is off',
      body: (state) => [
        `Hello ${username},`,
        '',
        `${state} for your TradeTerminal account since ${when}.`,
        '',
        'If you did not do this, change your password right away and contact support.',
      ],
    },
    ru: {
      on: 'Двухфакторная аутентификация включена',
      off: 'Двухфакторная аутентификация отключена',
      body: (state) => [
        `Здравствуйте, ${username}!`,
        '',
        `${state} для вашего аккаунта TradeTerminal (${when}).`,
        '',
        'Если это были не вы, немедленно смените пароль и свяжитесь с поддержкой.',
      ],
    },
    es: {
      on: 'La autenticación en dos pasos está activada',
      off: 'La autenticación en dos pasos está desactivada',
      body: (state) => [
        `Hola, ${username}:`,
        '',
        `${state} en tu cuenta de TradeTerminal desde el ${when}.`,
        '',
        'Si no has sido tú, cambia la contraseña de inmediato y contacta con soporte.',
      ],
    },
  };
  const t = texts[lang];
  const subject = enabled ? t.on : t.off;
  return { to, subject, text: t.body(subject).join('\n') };
}
