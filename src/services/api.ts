/**
 * One typed function per REST call of the foundation (spec section 7, Authentication; the
 * front settings, demo reset and currency list). Each one applies the client-side response
 * checks of spec section 5 and, when the server gives no text, the fallback message of
 * section 8 ("Registration failed", "Failed to get user data", ...). A server text always wins.
 *
 * Request types are the contract's (contract/auth.ts, contract/profile.ts); every call is built
 * on the one client helper (api-client.ts).
 */
import * as v from 'valibot';
import { FrontSettingsSchema, UserSchema, type FrontSettings, type User } from '../../contract/user';
import type { ConfirmResetSchema, LoginInput, RegisterInput, ResetPasswordSchema } from '../../contract/auth';
import type { LoginTwoFactorSchema } from '../../contract/profile';
import type { ResetDemoOutput } from '../../machines/balance/balance.machine';
import type { AuthSession, LoginOutcome, RefreshedTokens, SettingsPatch } from '../../machines/types';
import type { HttpClient } from './http';
import { apiClient, checked, field as get, unexpected } from './api-client';

// ---- request shapes (the contract's) ----------------------------------------------------------

type TwoFactorRequest = v.InferInput<typeof LoginTwoFactorSchema>;
type ConfirmResetRequest = v.InferInput<typeof ConfirmResetSchema>;
type ResetPasswordRequest = v.InferInput<typeof ResetPasswordSchema>;

export const FALLBACK = {
  login: 'Login failed - unexpected response format',
  register: 'Registration failed',
  refresh: 'Token refresh failed',
  me: 'Failed to get user data',
  forgotPassword: 'Password reset request failed',
  resetPassword: 'Password reset failed',
  verifyEmail: 'Email verification failed',
  resendVerification: 'Failed to resend verification email',
  confirmReset: 'Password reset confirmation failed',
  frontSettings: 'Front settings update failed',
  demoReset: 'Failed to reset demo balance',
  twoFactor: '2FA verification failed',
  adminSession: 'Authentication failed',
} as const;

// ---- helpers ----------------------------------------------------------------------------------

const isSuccess = (body: unknown) => get(body, 'success') === true;
const hasData = (body: unknown) => {
  const data = get(body, 'data');
  return data !== null && data !== undefined;
};

function parseUser(value: unknown): User | null {
  const parsed = v.safeParse(UserSchema, value);
  return parsed.success ? parsed.output : null;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A session from `data` holding token or access_token, refresh_token and user. */
function sessionFromData(data: unknown, requireRefresh: boolean): AuthSession | null {
  const token = str(get(data, 'token')) ?? str(get(data, 'access_token'));
  const refreshToken = str(get(data, 'refresh_token'));
  const user = parseUser(get(data, 'user'));
  if (!token || !user || (requireRefresh && !refreshToken)) return null;
  return { token, refreshToken, user };
}

/**
 * The login check of spec section 5: token and user at the top, or success with data holding
 * token (or access_token), refresh_token and user; a 2FA challenge otherwise.
 */
export function parseLoginResponse(body: unknown): LoginOutcome {
  const topToken = str(get(body, 'token'));
  const topUser = parseUser(get(body, 'user'));
  if (topToken && topUser) return { kind: 'authenticated', token: topToken, refreshToken: str(get(body, 'refresh_token')), user: topUser };
  if (isSuccess(body) && hasData(body)) {
    const data = get(body, 'data');
    const challenge = str(get(data, 'challenge'));
    if (get(data, 'two_factor_required') === true && challenge) return { kind: 'twoFactorRequired', challenge };
    const session = sessionFromData(data, true);
    if (session) return { kind: 'authenticated', ...session };
  }
  throw unexpected(FALLBACK.login, body);
}

// ---- the calls --------------------------------------------------------------------------------

export function createApi(http: HttpClient) {
  const { call, data: succeed } = apiClient(http);
  /** Calls that need success and data (registration, refresh). */
  const succeedWithData: typeof succeed = (fallback, path, options) => succeed(fallback, path, options, true);

  return {
    async login(request: LoginInput): Promise<LoginOutcome> {
      const body = await call(FALLBACK.login, '/api/platform/auth/login', { method: 'POST', body: request, auth: false });
      return parseLoginResponse(body);
    },

    async verifyTwoFactor(request: TwoFactorRequest): Promise<AuthSession> {
      const data = await succeedWithData(FALLBACK.twoFactor, '/api/platform/auth/login/2fa', { method: 'POST', body: request, auth: false });
      const session = sessionFromData(data, false);
      if (!session) throw unexpected(FALLBACK.twoFactor, data);
      return session;
    },

    async register(request: RegisterInput): Promise<AuthSession> {
      const data = await succeedWithData(FALLBACK.register, '/api/platform/auth/register', { method: 'POST', body: request, auth: false });
      const session = sessionFromData(data, false);
      if (!session) throw unexpected(FALLBACK.register, data);
      return session;
    },

    async refresh(refreshToken: string): Promise<RefreshedTokens> {
      const data = await succeedWithData(FALLBACK.refresh, '/api/platform/auth/refresh', {
        method: 'POST',
        body: { refresh_token: refreshToken },
        auth: false,
      });
      const token = str(get(data, 'token')) ?? str(get(data, 'access_token'));
      if (!token) throw unexpected(FALLBACK.refresh, data);
      return { token, refreshToken: str(get(data, 'refresh_token')) ?? refreshToken };
    },

    /** The user logout; the refresh token, when known, ends its session on the server too. */
    async logout(refreshToken: string | null): Promise<void> {
      await call('Request failed', '/api/platform/auth/logout', {
        method: 'POST',
        body: refreshToken ? { refresh_token: refreshToken } : {},
        recoverUnauthorized: false,
      });
    },

    async adminLogout(): Promise<void> {
      await call('Request failed', '/api/admin/logout', { method: 'POST', body: {}, recoverUnauthorized: false });
    },

    async me(): Promise<User> {
      const body = await call(FALLBACK.me, '/api/platform/auth/me', { method: 'GET' });
      const user = parseUser(get(body, 'data'));
      if (!user) throw unexpected(FALLBACK.me, body);
      return user;
    },

    async exchangeAdminToken(token: string): Promise<AuthSession> {
      const data = await succeedWithData(FALLBACK.adminSession, '/api/admin/session', { method: 'POST', body: { token }, auth: false });
      const session = sessionFromData(data, false);
      if (!session) throw unexpected(FALLBACK.adminSession, data);
      return session;
    },

    async forgotPassword(email: string): Promise<void> {
      await succeed(FALLBACK.forgotPassword, '/api/platform/auth/forgot-password', { method: 'POST', body: { email }, auth: false });
    },

    async confirmResetPassword(request: ConfirmResetRequest): Promise<{ token: string }> {
      const data = await succeed(FALLBACK.confirmReset, '/api/platform/password/confirm-reset-password', { method: 'POST', body: request, auth: false });
      const token = str(get(data, 'token'));
      if (!token) throw unexpected(FALLBACK.confirmReset, data);
      return { token };
    },

    async resetPassword(request: ResetPasswordRequest): Promise<void> {
      await succeed(FALLBACK.resetPassword, '/api/platform/auth/reset-password', { method: 'POST', body: request, auth: false });
    },

    async verifyEmail(token: string): Promise<void> {
      await succeed(FALLBACK.verifyEmail, '/api/platform/auth/verify-email', { method: 'POST', body: { token }, auth: false });
    },

    async resendVerification(email: string): Promise<void> {
      await succeed(FALLBACK.resendVerification, '/api/platform/auth/resend-verification', { method: 'POST', body: { email }, auth: false });
    },

    async updateFrontSettings(patch: SettingsPatch): Promise<FrontSettings> {
      const data = await succeed(FALLBACK.frontSettings, '/api/v2/profile/front-settings', { method: 'PATCH', body: patch });
      return checked(FrontSettingsSchema, FALLBACK.frontSettings, data);
    },

    async resetDemoBalance(currency: string): Promise<ResetDemoOutput> {
      const data = await succeed(FALLBACK.demoReset, '/api/v2/payments/reset-demo-balance', { method: 'POST', body: { currency } });
      return checked(v.object({ new_balance: v.record(v.string(), v.number()), message: v.optional(v.string()) }), FALLBACK.demoReset, data);
    },
  };
}

export type Api = ReturnType<typeof createApi>;
