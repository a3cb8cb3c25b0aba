/**
 * Authentication routes (spec section 7, Authentication) and the auth module's jobs (the auth
 * service's hourly prune of old auth rows, closing the mailer). The services themselves (mailer,
 * session check, auth service, demo login) are built in server/composition.ts. Thin routes:
 * validate with contract/auth.ts, call ctx.services.auth, wrap with ok(). Details: docs/api.md.
 *
 *   POST /api/platform/auth/register                 3-step registration payload -> session
 *   POST /api/platform/auth/login                    {username|email|login, password} -> session
 *   POST /api/platform/auth/refresh                  {refresh_token} -> next session tokens
 *   POST /api/platform/auth/logout                   ends the caller's session; always success
 *   GET  /api/platform/auth/me                       the User
 *   POST /api/platform/auth/forgot-password          {email} -> same answer for every address
 *   POST /api/platform/password/confirm-reset-password {email, code} -> {token}
 *   POST /api/platform/auth/reset-password           {token, newPassword}
 *   POST /api/platform/auth/verify-email             {token}
 *   POST /api/platform/auth/resend-verification      {email} -> same answer for every address
 *   POST /api/admin/session                          {token} from the operator's link -> admin session
 *   POST /api/admin/logout                           ends an admin session (403 for a user session)
 */
import type { FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { AppContext, ServerModule } from '../context';
import { ok } from '../../contract/envelope';
import {
  AdminSessionSchema,
  AuthText,
  ConfirmResetSchema,
  EmailRequestSchema,
  LoginSchema,
  LogoutSchema,
  RefreshSchema,
  RegisterSchema,
  ResetPasswordSchema,
  VerifyEmailSchema,
} from '../../contract/auth';
import { parseBody } from '../http/validate';
import { bearerToken, requireAdmin, requireAuth } from '../http/auth';
import type { AccessClaims } from '../infra/tokens';

/** Per-IP limits (@fastify/rate-limit); the per-account ones live in domain/auth/limits.ts. */
export const IP_LIMITS = {
  login: { max: 20, timeWindow: '1 minute' },
  register: { max: 30, timeWindow: '1 hour' },
  sensitive: { max: 10, timeWindow: '15 minutes' },
  verify: { max: 30, timeWindow: '15 minutes' },
  /** A tab refreshes once per access-token lifetime; this bounds guessing and hammering per IP. */
  refresh: { max: 60, timeWindow: '1 minute' },
} as const;

/** Claims of a valid access token when one is sent, without requiring it. */
async function optionalClaims(ctx: AppContext, req: FastifyRequest): Promise<AccessClaims | null> {
  const token = bearerToken(req);
  return token ? ctx.tokens.verify(token, ctx.now()) : null;
}

export const authModule: ServerModule = {
  name: 'auth',

  routes(app, ctx) {
    const { auth } = ctx.services;
    const limit = (rule: { max: number; timeWindow: string }): RouteShorthandOptions =>
      ctx.config.rateLimit ? { config: { rateLimit: { max: rule.max, timeWindow: rule.timeWindow } } } : {};
    const bearer = { preHandler: requireAuth(ctx) };

    app.post('/api/platform/auth/register', limit(IP_LIMITS.register), async (req) => {
      const input = parseBody(RegisterSchema, req.body);
      const userAgent = typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined;
      return ok(await auth.register(input, { userAgent }));
    });

    app.post('/api/platform/auth/login', limit(IP_LIMITS.login), async (req) => {
      const credentials = parseBody(LoginSchema, req.body);
      return ok(await auth.login(credentials));
    });

    app.post('/api/platform/auth/refresh', limit(IP_LIMITS.refresh), async (req) => {
      const { refresh_token } = parseBody(RefreshSchema, req.body);
      return ok(await auth.refresh(refresh_token));
    });

    app.post('/api/platform/auth/logout', async (req) => {
      const body = parseBody(LogoutSchema, req.body);
      const claims = await optionalClaims(ctx, req);
      await auth.logout(claims, body.refresh_token ?? body.refreshToken ?? null);
      return ok({ message: AuthText.loggedOut });
    });

    app.get('/api/platform/auth/me', bearer, async (req) => ok(await auth.me(req.auth!.userId)));

    app.post('/api/platform/auth/forgot-password', limit(IP_LIMITS.sensitive), async (req) => {
      const { email } = parseBody(EmailRequestSchema, req.body);
      await auth.forgotPassword(email);
      return ok({ message: AuthText.resetRequested });
    });

    app.post('/api/platform/password/confirm-reset-password', limit(IP_LIMITS.sensitive), async (req) => {
      const { email, code } = parseBody(ConfirmResetSchema, req.body);
      return ok({ token: await auth.confirmResetCode(email, code) });
    });

    app.post('/api/platform/auth/reset-password', limit(IP_LIMITS.sensitive), async (req) => {
      const { token, newPassword } = parseBody(ResetPasswordSchema, req.body);
      await auth.resetPassword(token, newPassword);
      return ok({ message: AuthText.passwordReset });
    });

    app.post('/api/platform/auth/verify-email', limit(IP_LIMITS.verify), async (req) => {
      const { token } = parseBody(VerifyEmailSchema, req.body);
      await auth.verifyEmail(token);
      return ok({ message: AuthText.emailVerified });
    });

    app.post('/api/platform/auth/resend-verification', limit(IP_LIMITS.sensitive), async (req) => {
      const { email } = parseBody(EmailRequestSchema, req.body);
      await auth.resendVerification(email);
      return ok({ message: AuthText.verificationResent });
    });

    app.post('/api/admin/session', limit(IP_LIMITS.sensitive), async (req) => {
      const { token } = parseBody(AdminSessionSchema, req.body);
      return ok(await auth.exchangeAdminToken(token));
    });

    app.post('/api/admin/logout', { preHandler: requireAdmin(ctx) }, async (req) => {
      await auth.logout(req.auth, null);
      return ok({ message: AuthText.loggedOut });
    });
  },

  start(ctx) {
    ctx.services.auth.start();
  },

  async stop(ctx) {
    ctx.services.auth.stop();
    await ctx.services.mailer.close();
  },
};
