/**
 * The authentication service (ctx.services.auth, built in server/composition.ts): registration,
 * login, token refresh, logout, password reset, email verification and the admin-session
 * exchange, and the hourly prune of the auth tables (start()/stop(), run by the auth module).
 * Routes validate with contract/auth.ts and call one method each; every write happens in one
 * transaction (deps.tx); mail goes out after the commit through the shared Mailer. Its narrow
 * deps are in deps.ts.
 *
 * Second factor: login checks a SecondFactorGate when the user has two_factor_enabled. The TOTP
 * area's gate is plugged in by server/composition.ts (setSecondFactorGate); the profile routes add
 * /login/2fa, which verifies the challenge and then calls `openSession(userId, 'user')`. Without
 * a gate such a user cannot log in at all (fail closed).
 */
import type { AuthSession, Credentials, LoginResult, Registration } from '../../../contract/auth';
import { AuthText, TRACKING_FIELDS } from '../../../contract/auth';
import { ErrorText } from '../../../contract/envelope';
import type { User } from '../../../contract/user';
import { NotFound, Unavailable, conflict, forbidden, invalid, rateLimited, unauthenticated } from '../errors';
import { parseFrontSettings } from '../users';
import type { AccessClaims, SessionType } from '../../infra/tokens';
import { hashPassword, needsRehash } from './passwords';
import { ACCOUNT_RULES, AccountLimiter } from './limits';
import { openFamily, rotateRefreshToken, revokeFamily, familyOfRefreshToken, type OpenedFamily } from './sessions';
import { createAccount, findAccountConflict } from './register';
import { isUniqueViolation } from '../../db/errors';
import { checkCredentials, findUserByIdentifier, loginSubject } from './login';
import { isUserBlocked } from './console-queries';
import { ConsoleText } from '../../../contract/console';
import { completeReset, confirmResetCode, createResetRequest, findResetByToken } from './reset';
import { createVerification, verifyEmailToken, VERIFICATION_TTL_HOURS } from './verification';
import { consumeAdminToken } from './admin';
import { pickLanguage, resetEmail, verificationEmail } from './emails';
import { hmacHex } from '../../infra/crypto';
import { pruneAuthData } from './maintenance';
import { loadUser, storeRehash } from './repository';
import type { AuthDeps } from './deps';

/** How often the auth tables are pruned (maintenance.ts). */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

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
  private pruneTimer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: AuthDeps) {
    this.limiter = new AccountLimiter(deps.rateLimit);
    this.codeKey = hmacHex('sha256', deps.jwtSecret, 'password-reset-code-key');
  }

  setSecondFactorGate(gate: SecondFactorGate): void {
    this.secondFactor = gate;
  }

  // ---- housekeeping --------------------------------------------------------------------------

  /** Prune the auth tables now and then hourly (maintenance.ts); a failure is logged, never thrown. */
  start(): void {
    const prune = () => pruneAuthData(this.deps.db, this.deps.now()).catch((err: unknown) => this.deps.log.error({ err }, 'auth prune failed'));
    void prune();
    const timer = setInterval(prune, PRUNE_EVERY_MS);
    timer.unref();
    this.pruneTimer = timer;
  }

  stop(): void {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.pruneTimer = null;
  }

  // ---- sessions ------------------------------------------------------------------------------

  /** Open a new session for a user (after every check passed) and answer with its tokens. */
  async openSession(userId: number, sessionType: SessionType): Promise<AuthSession> {
    const now = this.deps.now();
    const opened = await this.deps.tx(async (trx) => {
      // An operator blocked the account (issue 27): no new session (the block ended the old ones).
      if (sessionType === 'user' && (await isUserBlocked(trx, userId))) throw forbidden(ConsoleText.userBlocked);
      return openFamily(trx, userId, sessionType, now, this.deps.refreshTokenTtl);
    });
    return this.sessionResponse(opened);
  }

  private async sessionResponse(opened: OpenedFamily): Promise<AuthSession> {
    const user = await loadUser(this.deps.db, opened.userId);
    if (!user) throw unauthenticated();
    const token = await this.deps.tokens.sign({ userId: opened.userId, sessionType: opened.sessionType, family: opened.family }, this.deps.now());
    return {
      token,
      access_token: token,
      refresh_token: opened.refreshToken,
      expires_in: this.deps.tokens.ttl,
      user,
      session_type: opened.sessionType,
    };
  }

  // ---- registration --------------------------------------------------------------------------

  async register(input: Registration, meta: { userAgent?: string } = {}): Promise<AuthSession> {
    // A cheap check first, so a taken name costs no argon2 work; the transaction checks again.
    const taken = await findAccountConflict(this.deps.db, input.username, input.email);
    if (taken) throw conflict(taken);
    const passwordHash = await hashPassword(input.password);
    const tracking: Record<string, string> = {};
    for (const field of TRACKING_FIELDS) {
      const value = input[field];
      if (typeof value === 'string' && value.length > 0) tracking[field] = value;
    }
    if (!tracking.user_agent && meta.userAgent) tracking.user_agent = meta.userAgent.slice(0, 512);

    const now = this.deps.now();
    let result: { opened: OpenedFamily; verificationToken: string };
    try {
      result = await this.deps.tx(async (trx) => {
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
        const opened = await openFamily(trx, userId, 'user', now, this.deps.refreshTokenTtl);
        return { opened, verificationToken };
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw conflict((await findAccountConflict(this.deps.db, input.username, input.email)) ?? AuthText.usernameTaken);
      }
      throw err;
    }
    await this.deps.mailer.enqueue(
      verificationEmail(pickLanguage(input.language), input.email, {
        username: input.username,
        link: this.verificationLink(result.verificationToken),
        hours: VERIFICATION_TTL_HOURS,
      }),
    );
    return this.sessionResponse(result.opened);
  }

  private verificationLink(token: string): string {
    return `${this.deps.publicUrl()}/verify-email?token=${encodeURIComponent(token)}`;
  }

  // ---- login ---------------------------------------------------------------------------------

  async login(credentials: Credentials): Promise<LoginResult> {
    const now = this.deps.now();
    const found = await findUserByIdentifier(this.deps.db, credentials.identifier);
    const subject = loginSubject(credentials.identifier, found);
    if (await this.limiter.isExhausted(this.deps.db, ACCOUNT_RULES.loginFailures, subject, now)) throw rateLimited();

    const user = await checkCredentials(found, credentials.password);
    if (!user) {
      await this.deps.tx((trx) => this.limiter.record(trx, ACCOUNT_RULES.loginFailures, subject, now));
      throw unauthenticated(AuthText.invalidCredentials);
    }
    const rehash = needsRehash(user.password_hash) ? await hashPassword(credentials.password) : null;
    if (rehash || this.limiter.enabled) {
      await this.deps.tx(async (trx) => {
        await this.limiter.clear(trx, ACCOUNT_RULES.loginFailures, subject);
        if (rehash) await storeRehash(trx, user.id, rehash);
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
    const now = this.deps.now();
    const result = await this.deps.tx((trx) => rotateRefreshToken(trx, refreshToken, now, this.deps.refreshTokenTtl));
    if (!result.ok) throw unauthenticated(AuthText.tokenRefreshFailed);
    return this.sessionResponse(result);
  }

  /** End the caller's session (from its access token and/or a refresh token); never fails. */
  async logout(claims: AccessClaims | null, refreshToken: string | null): Promise<void> {
    const now = this.deps.now();
    const byRefresh = refreshToken ? await familyOfRefreshToken(this.deps.db, refreshToken) : null;
    const families = [claims?.family, byRefresh?.family].filter((f): f is string => typeof f === 'string');
    if (families.length === 0) return;
    await this.deps.tx(async (trx) => {
      for (const family of new Set(families)) await revokeFamily(trx, family, 'logout', now);
    });
  }

  async exchangeAdminToken(token: string): Promise<AuthSession> {
    const now = this.deps.now();
    const opened = await this.deps.tx(async (trx) => {
      const userId = await consumeAdminToken(trx, token, now);
      return userId === null ? null : openFamily(trx, userId, 'admin', now, this.deps.refreshTokenTtl);
    });
    if (!opened) throw unauthenticated(AuthText.invalidAdminToken);
    return this.sessionResponse(opened);
  }

  async me(userId: number): Promise<User> {
    const user = await loadUser(this.deps.db, userId);
    if (!user) throw new NotFound(ErrorText.userNotFound);
    return user;
  }

  // ---- password reset ------------------------------------------------------------------------

  /** Start a reset; the caller answers the same whether or not the email is registered. */
  async forgotPassword(email: string): Promise<void> {
    const now = this.deps.now();
    const subject = `email:${email.toLowerCase()}`;
    const user = await findUserByIdentifier(this.deps.db, email);
    if (await this.limiter.isExhausted(this.deps.db, ACCOUNT_RULES.resetRequests, subject, now)) return;
    const issued = await this.deps.tx(async (trx) => {
      await this.limiter.record(trx, ACCOUNT_RULES.resetRequests, subject, now);
      return user ? createResetRequest(trx, user.id, this.codeKey, now) : null;
    });
    if (!user || !issued) return;
    const link = `${this.deps.publicUrl()}/reset-password?token=${encodeURIComponent(issued.linkToken)}`;
    await this.deps.mailer.enqueue(
      resetEmail(pickLanguage(parseFrontSettings(user.front_settings).language), user.email, {
        username: user.username,
        code: issued.code,
        link,
      }),
    );
  }

  /** Trade the emailed code for a one-time reset token. */
  async confirmResetCode(email: string, code: string): Promise<string> {
    const now = this.deps.now();
    const user = await findUserByIdentifier(this.deps.db, email);
    const result = await this.deps.tx((trx) => confirmResetCode(trx, user?.id ?? null, code, this.codeKey, now));
    if (!result.ok) throw invalid(AuthText.invalidResetToken);
    return result.token;
  }

  async resetPassword(token: string, newPassword: string): Promise<void> {
    // Checked before hashing so a made-up token costs no argon2 work; checked again in the transaction.
    if (!(await findResetByToken(this.deps.db, token, this.deps.now()))) throw invalid(AuthText.invalidResetToken);
    const passwordHash = await hashPassword(newPassword);
    const now = this.deps.now();
    const done = await this.deps.tx((trx) => completeReset(trx, token, passwordHash, now));
    if (!done) throw invalid(AuthText.invalidResetToken);
  }

  // ---- email verification --------------------------------------------------------------------

  async verifyEmail(token: string): Promise<void> {
    const now = this.deps.now();
    const ok = await this.deps.tx((trx) => verifyEmailToken(trx, token, now));
    if (!ok) throw invalid(AuthText.invalidVerificationToken);
  }

  /** Send a fresh verification link to an unverified address; silent about everything else. */
  async resendVerification(email: string): Promise<void> {
    const now = this.deps.now();
    const subject = `email:${email.toLowerCase()}`;
    const user = await findUserByIdentifier(this.deps.db, email);
    if (await this.limiter.isExhausted(this.deps.db, ACCOUNT_RULES.verificationRequests, subject, now)) return;
    const token = await this.deps.tx(async (trx) => {
      await this.limiter.record(trx, ACCOUNT_RULES.verificationRequests, subject, now);
      return user && user.email_verified_at === null ? createVerification(trx, user.id, user.email, now) : null;
    });
    if (!user || !token) return;
    await this.deps.mailer.enqueue(
      verificationEmail(pickLanguage(parseFrontSettings(user.front_settings).language), user.email, {
        username: user.username,
        link: this.verificationLink(token),
        hours: VERIFICATION_TTL_HOURS,
      }),
    );
  }
}
