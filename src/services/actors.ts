/**
 * The real implementations of what the first page's machines name (session, balance, theme,
 * locale, registration, password reset): HTTP calls through api.ts, the browser through
 * storage.ts and the document. createImplementations() returns those machines provided with
 * them, ready for appMachine.provide({ actors: ... }). The logged-in features (socket, trading,
 * money, profile, trader tools) are provided by feature-actors.ts, a chunk of its own that the
 * composition root loads when a session opens.
 */
import { fromPromise } from 'xstate';
import type { Language, ThemeSetting, User } from '../../contract/user';
import { sessionMachine, type ExchangeAdminTokenInput, type LoginInput, type LogoutInput, type SaveFrontSettingsInput, type VerifyTwoFactorInput } from '../../machines/session/session.machine';
import { balanceMachine, type ResetDemoInput, type ResetDemoOutput } from '../../machines/balance/balance.machine';
import { themeMachine, type ResolvedTheme } from '../../machines/theme/theme.machine';
import { localeMachine } from '../../machines/locale/locale.machine';
import { registrationMachine, type RegisterInput } from '../../machines/registration/registration.machine';
import {
  passwordResetMachine,
  type ConfirmResetCodeInput,
  type ConfirmResetCodeOutput,
  type RequestResetCodeInput,
  type ResetPasswordInput,
} from '../../machines/password-reset/password-reset.machine';
import type { AuthSession, LoginOutcome, PersistedSession } from '../../machines/types';
import type { Api } from './api';
import type { HttpClient } from './http';
import type { BrowserStorage } from './storage';

/** The query parameter of the operator's admin link (`/trading?token=...`). */
export const ADMIN_TOKEN_PARAM = 'token';

export interface ServiceDeps {
  api: Api;
  /** The HTTP client the feature APIs (trading-api.ts, ...) are built on. */
  http: HttpClient;
  storage: BrowserStorage;
  /** The browser window; null where there is none (the actions then only persist). */
  window: Window | null;
  /** Socket server address; same origin when omitted. */
  socketUrl?: string;
}

/** Removes the admin token from the address bar without a navigation. */
export function clearAddressToken(win: Window | null): void {
  if (!win) return;
  const url = new URL(win.location.href);
  if (!url.searchParams.has(ADMIN_TOKEN_PARAM)) return;
  url.searchParams.delete(ADMIN_TOKEN_PARAM);
  win.history.replaceState(win.history.state, '', url.pathname + url.search + url.hash);
}

export function applyThemeToDocument(win: Window | null, resolved: ResolvedTheme): void {
  if (!win) return;
  const root = win.document.documentElement;
  root.setAttribute('data-theme', resolved);
  // Native controls and scrollbars follow too.
  root.style.colorScheme = resolved;
}

export function applyLanguageToDocument(win: Window | null, language: Language): void {
  if (win) win.document.documentElement.lang = language;
}

export function sessionImplementations({ api, storage, window: win }: Pick<ServiceDeps, 'api' | 'storage' | 'window'>) {
  return {
    actors: {
      login: fromPromise<LoginOutcome, LoginInput>(({ input }) => api.login(input)),
      verifyTwoFactor: fromPromise<AuthSession, VerifyTwoFactorInput>(({ input }) => api.verifyTwoFactor(input)),
      fetchMe: fromPromise<User, void>(() => api.me()),
      logout: fromPromise<void, LogoutInput>(async ({ input }) => {
        // Spec section 4: the server logout runs only when a session is persisted.
        const stored = storage.loadSession();
        if (!stored?.token) return;
        if (input.sessionType === 'admin') await api.adminLogout();
        else await api.logout(stored.refreshToken);
      }),
      exchangeAdminToken: fromPromise<AuthSession, ExchangeAdminTokenInput>(async ({ input }) => {
        const session = await api.exchangeAdminToken(input.adminToken);
        // The admin session replaces a stored user session: end that one on the server too (its
        // token is still the bearer until the machine takes the new one), so no refresh token is
        // left valid behind the person's back. Best effort: the admin session is open either way.
        const stored = storage.loadSession();
        if (stored?.token && stored.sessionType !== 'admin') await api.logout(stored.refreshToken).catch(() => undefined);
        return session;
      }),
      saveFrontSettings: fromPromise<unknown, SaveFrontSettingsInput>(({ input }) => api.updateFrontSettings(input.patch)),
    },
    actions: {
      persistSession: (_: unknown, session: PersistedSession) => storage.saveSession(session),
      clearAddressToken: () => clearAddressToken(win),
    },
  };
}

export function createImplementations(deps: ServiceDeps) {
  const { api, storage, window: win } = deps;
  return {
    session: sessionMachine.provide(sessionImplementations(deps)),
    balance: balanceMachine.provide({
      actors: {
        resetDemoBalance: fromPromise<ResetDemoOutput, ResetDemoInput>(({ input }) => api.resetDemoBalance(input.currency)),
      },
    }),
    theme: themeMachine.provide({
      actions: {
        applyTheme: (_, params: { resolved: ResolvedTheme }) => applyThemeToDocument(win, params.resolved),
        persistTheme: (_, params: { theme: ThemeSetting }) => storage.saveTheme(params.theme),
      },
    }),
    locale: localeMachine.provide({
      actions: {
        applyLanguage: (_, params: { language: Language }) => applyLanguageToDocument(win, params.language),
        persistLanguage: (_, params: { language: Language }) => storage.saveLanguage(params.language),
      },
    }),
    registration: registrationMachine.provide({
      actors: {
        register: fromPromise<AuthSession, RegisterInput>(({ input }) => api.register(input.payload)),
      },
    }),
    passwordReset: passwordResetMachine.provide({
      actors: {
        requestResetCode: fromPromise<void, RequestResetCodeInput>(({ input }) => api.forgotPassword(input.email)),
        confirmResetCode: fromPromise<ConfirmResetCodeOutput, ConfirmResetCodeInput>(({ input }) => api.confirmResetPassword(input)),
        resetPassword: fromPromise<void, ResetPasswordInput>(({ input }) => api.resetPassword(input)),
      },
    }),
  };
}
