/**
 * The authentication service (ctx.services.auth, built in server/composition.ts): registration,
 * login, token refresh, logout, password reset, email verification and the admin-session
 * exchange. Routes validate with contract/auth.ts and call one method each; every write happens
 * in one ctx.tx; mail goes out after the commit through the shared Mailer.
 *
 * Second factor: login checks a SecondFactorGate when the user has two_factor_enabled. The TOTP
 * area's gate is plugged in by server/composition.ts (setSecondFactorGate); the profile routes add
 * /login/2fa, which verifies the challenge and then calls `openSession(userId, 'user')`. Without
 * a gate such a user cannot log in at all (fail closed).
 */
import type { ServerBase } from '../../base';
import type { AuthSession, Credentials, LoginResult, Registration } from '../../../contract/auth';
import { AuthText, TRACKING_FIELDS } from '../../../contract/auth';
import { ErrorText } from '../../../contract/envelope';
import type { User } from '../../../contract/user';
import { NotFound, Unavailable, conflict, invalid, rateLimited, unauthenticated } from '../errors';
import { loadUser, parseFrontSettings } from '../users';
import type { Mailer } from '../mail';
import type { AccessClaims, SessionType } from '../../infra/tokens';
import { hashPassword, needsRehash } from './passwords';
import { ACCOUNT_RULES, AccountLimiter } from './limits';
import { openFamily, rotateRefreshToken, revokeFamily, familyOfRefreshToken, type OpenedFamily } from './sessions';
import { createAccount, findAccountConflict } from './register';
import { isUniqueViolation } from '../../db/errors';
import { checkCredentials, findUserByIdentifier, loginSubject } from './login';
import { completeReset, confirmResetCode, createResetRequest, findResetByToken } from './reset';
import { createVerification, verifyEmailToken, VERIFICATION_TTL_HOURS } from './verification';
import { consumeAdminToken } from './admin';
import { pickLanguage, resetEmail, verificationEmail } from './emails';
import { hmacHex } from './crypto';

/** What the TOTP area plugs in: start a second-factor step for a user whose password was right. */
export interface SecondFactorGate {
  /** An opaque challenge the client sends back with the code. */
  challenge(userId: number): Promise<string>;
}

export class AuthService {
  readonly limiter: AccountLimiter;
  private secondFactor: SecondFactorGate | null = null;
  /** Key of the reset-code HMACs, derived from the server secret so no two uses share a key. */
  private readonly codeKey: string;

  constructor(
    private readonly ctx: ServerBase,
    private readonly mailer: Mailer,
  ) {
    this.limiter = new AccountLimiter(ctx.config.rateLimit);
    this.codeKey = hmacHex(ctx.secrets.jwtSecret, 'password-reset-code-key');
  }

  setSecondFactorGate(gate: SecondFactorGate): void {
    this.secondFactor = gate;
  }

  // ---- sessions ------------------------------------------------------------------------------

  /** Open a new session for a user (after every check passed) and answer with its tokens. */
  async openSession(userId: number, sessionType: SessionType): Promise<AuthSession> {
    const now = this.ctx.now();
    const opened = await this.ctx.tx((trx) => openFamily(trx, userId, sessionType, now, this.ctx.config.refreshTokenTtl));
    return this.sessionResponse(opened);
  }

  private async sessionResponse(opened: OpenedFamily): Promise<AuthSession> {
    const user = await loadUser(this.ctx.db, opened.userId);
    if (!user) throw unauthenticated();
    const token = await this.ctx.tokens.sign({ userId: opened.userId, sessionType: opened.sessionType, family: opened.family }, this.ctx.now());
    return {
      token,
      access_token: token,
      refresh_token: opened.refreshToken,
      expires_in: this.ctx.tokens.ttl,
      user,
      session_type: opened.sessionType,
    };
  }

  // ---- registration --------------------------------------------------------------------------

  async register(input: Registration, meta: { userAgent?: string } = {}): Promise<AuthSession> {
    // A cheap check first, so a taken name costs no argon2 work; the transaction checks again.
    const taken = await findAccountConflict(this.ctx.db, input.username, input.email);
    if (taken) throw conflict(taken);
    const passwordHash = await hashPassword(input.password);
    const tracking: Record<string, string> = {};
    for (const field of TRACKING_FIELDS) {
      const value = input[field];
      if (typeof value === 'string' && value.length > 0) tracking[field] = value;
    }
    if (!tracking.user_agent && meta.userAgent) tracking.user_agent = meta.userAgent.slice(0, 512);

    const now = this.ctx.now();
    let result: { opened: OpenedFamily; verificationToken: string };
    try {
      result = await this.ctx.tx(async (trx) => {
        const userId = await createAccount(
          trx,
          {
            username: input.username,
            email: input.email,
            passwordHash,
            firstName: input.first_name,
            lastName: input.last_name,
            phone: input.phone,
            currency: input.currency,
            language: input.language ?? null,
            tracking,
            verified: false,
          },
          now,
        );
        const verificationToken = await createVerification(trx, userId, input.email, now);
        const opened = await openFamily(trx, userId, 'user', now, this.ctx.config.refreshTokenTtl);
        return { opened, verificationToken };
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw conflict((await findAccountConflict(this.ctx.db, input.username, input.email)) ?? AuthText.usernameTaken);
      }
      throw err;
    }
    await this.mailer.enqueue(
      verificationEmail(pickLanguage(input.language), input.email, {
        username: input.username,
        link: this.verificationLink(result.verificationToken),
        hours: VERIFICATION_TTL_HOURS,
      }),
    );
    return this.sessionResponse(result.opened);
  }

  private verificationLink(token: string): string {
    return `${this.ctx.publicUrl()}/verify-email?token=${encodeURIComponent(token)}`;
  }

  // ---- login ---------------------------------------------------------------------------------

  async login(credentials: Credentials): Promise<LoginResult> {
    const now = this.ctx.now();
    const found = await findUserByIdentifier(this.ctx.db, credentials.identifier);
    const subject = loginSubject(credentials.identifier, found);
    if (await this.limiter.isExhausted(this.ctx.db, ACCOUNT_RULES.loginFailures, subject, now)) throw rateLimited();

    const user = await checkCredentials(found, credentials.password);
    if (!user) {
      await this.ctx.tx((trx) => this.limiter.record(trx, ACCOUNT_RULES.loginFailures, subject, now));
      throw unauthenticated(AuthText.invalidCredentials);
    }
    const rehash = needsRehash(user.password_hash) ? await hashPassword(credentials.password) : null;
    if (rehash || this.limiter.enabled) {
      await this.ctx.tx(async (trx) => {
        await this.limiter.clear(trx, ACCOUNT_RULES.loginFailures, subject);
        if (rehash) await trx.updateTable('users').set({ password_hash: rehash }).where('id', '=', user.id).execute();
      });
    }

    if (Number(user.two_factor_enabled) === 1) {
      if (!this.secondFactor) throw new Unavailable(AuthText.secondFactorUnavailable);
      return { two_factor_required: true, challenge: await this.secondFactor.challenge(user.id) };
    }
    return this.openSession(user.id, 'user');
  }

  // ---- refresh and logout --------------------------------------------------------------------

  async refresh(refreshToken: string): Promise<AuthSession> {
    const now = this.ctx.now();
    const result = await this.ctx.tx((trx) => rotateRefreshToken(trx, refreshToken, now, this.ctx.config.refreshTokenTtl));
    if (!result.ok) throw unauthenticated(AuthText.tokenRefreshFailed);
    return this.sessionResponse(result);
  }

  /** End the caller's session (from its access token and/or a refresh token); never fails. */
  async logout(claims: AccessClaims | null, refreshToken: string | null): Promise<void> {
    const now = this.ctx.now();
    const byRefresh = refreshToken ? await familyOfRefreshToken(this.ctx.db, refreshToken) : null;
    const families = [claims?.family, byRefresh?.family].filter((f): f is string => typeof f === 'string');
    if (families.length === 0) return;
    await this.ctx.tx(async (trx) => {
      for (const family of new Set(families)) await revokeFamily(trx, family, 'logout', now);
    });
  }

  async exchangeAdminToken(token: string): Promise<AuthSession> {
    const now = this.ctx.now();
    const opened = await this.ctx.tx(async (trx) => {
      const userId = await consumeAdminToken(trx, token, now);
      return userId === null ? null : openFamily(trx, userId, 'admin', now, this.ctx.config.refreshTokenTtl);
    });
    if (!opened) throw unauthenticated(AuthText.invalidAdminToken);
    return this.sessionResponse(opened);
  }

  async me(userId: number): Promise<User> {
    const user = await loadUser(this.ctx.db, userId);
    if (!user) throw new NotFound(ErrorText.userNotFound);
    return user;
  }

  // ---- password reset ------------------------------------------------------------------------

  /** Start a reset; the caller answers the same whether or not the email is registered. */
  async forgotPassword(email: string): Promise<void> {
    const now = this.ctx.now();
    const subject = `email:${email.toLowerCase()}`;
    const user = await findUserByIdentifier(this.ctx.db, email);
    if (await this.limiter.isExhausted(this.ctx.db, ACCOUNT_RULES.resetRequests, subject, now)) return;
    const issued = await this.ctx.tx(async (trx) => {
      await this.limiter.record(trx, ACCOUNT_RULES.resetRequests, subject, now);
      return user ? createResetRequest(trx, user.id, this.codeKey, now) : null;
    });
    if (!user || !issued) return;
    const link = `${this.ctx.publicUrl()}/reset-password?token=${encodeURIComponent(issued.linkToken)}`;
    await this.mailer.enqueue(
      resetEmail(pickLanguage(parseFrontSettings(user.front_settings).language), user.email, {
        username: user.username,
        code: issued.code,
        link,
      }),
    );
  }

  /** Trade the emailed code for a one-time reset token. */
  async confirmResetCode(email: string, code: string): Promise<string> {
    const now = this.ctx.now();
    const user = await findUserByIdentifier(this.ctx.db, email);
    const result = await this.ctx.tx((trx) => confirmResetCode(trx, user?.id ?? null, code, this.codeKey, now));
    if (!result.ok) throw invalid(AuthText.invalidResetToken);
    return result.token;
  }

  async resetPassword(token: string, newPassword: string): Promise<void> {
    // Checked before hashing so a made-up token costs no argon2 work; checked again in the transaction.
    if (!(await findResetByToken(this.ctx.db, token, this.ctx.now()))) throw invalid(AuthText.invalidResetToken);
    const passwordHash = await hashPassword(newPassword);
    const now = this.ctx.now();
    const done = await this.ctx.tx((trx) => completeReset(trx, token, passwordHash, now));
    if (!done) throw invalid(AuthText.invalidResetToken);
  }

  // ---- email verification --------------------------------------------------------------------

  async verifyEmail(token: string): Promise<void> {
    const now = this.ctx.now();
    const ok = await this.ctx.tx((trx) => verifyEmailToken(trx, token, now));
    if (!ok) throw invalid(AuthText.invalidVerificationToken);
  }

  /** Send a fresh verification link to an unverified address; silent about everything else. */
  async resendVerification(email: string): Promise<void> {
    const now = this.ctx.now();
    const subject = `email:${email.toLowerCase()}`;
    const user = await findUserByIdentifier(this.ctx.db, email);
    if (await this.limiter.isExhausted(this.ctx.db, ACCOUNT_RULES.verificationRequests, subject, now)) return;
    const token = await this.ctx.tx(async (trx) => {
      await this.limiter.record(trx, ACCOUNT_RULES.verificationRequests, subject, now);
      return user && user.email_verified_at === null ? createVerification(trx, user.id, user.email, now) : null;
    });
    if (!user || !token) return;
    await this.mailer.enqueue(
      verificationEmail(pickLanguage(parseFrontSettings(user.front_settings).language), user.email, {
        username: user.username,
        link: this.verificationLink(token),
        hours: VERIFICATION_TTL_HOURS,
      }),
    );
  }
}
