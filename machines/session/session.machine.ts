/**
 * The session: who is logged in, with which tokens, and the front settings that travel with it.
 *
 * Lifecycle: `booting` decides once at start. A one-time admin token from the address opens an
 * admin session (`openingAdminSession`); a persisted token is checked by fetching the user
 * (`loadingUser`); otherwise the visitor is `loggedOut` and may log in (with an optional second
 * factor) or register (the registration flow sends `session.registered` via the app).
 * `loggedIn` runs two regions side by side: `profile` (re-fetching the user on demand) and
 * `settings` (saving front-settings changes one request at a time, queueing what arrives
 * meanwhile). `loggingOut` is a state, so a second logout request while one runs is ignored.
 * A 401 anywhere in an authenticated state logs out locally without calling the server.
 *
 * A stored session the server could not be asked about (no response, a timeout, 408, 429 or
 * 5xx: `isServerUnreachable`) is not a refused one: the session stays, the app is shown with the
 * stored user, and `loggedIn.server` is `reconnecting`, asking again after `reconnectDelay`
 * (1, 2, 4, 8, 16 then every 30 s, or at once on `session.reconnectRequested`) until the server
 * answers. Only an answer ends it: the user (back to `confirmed`), or a refusal (a 401 the token
 * refresh could not cure arrives as `session.unauthorized`; any other 4xx ends it too).
 *
 * Every change of a persistable field runs `persistSession` with the PersistedSession shape;
 * the parent (the app machine) hears `session.loggedIn`, `session.loggedOut`,
 * `session.userUpdated`, `session.tokenRefreshed`, `session.settingsSaved` and
 * `session.settingsSaveFailed`.
 */
import { assertEvent, assign, fromPromise, raise, sendParent, setup } from 'xstate';
import { mergeChartSetups, mergeChartSetupsUpdates } from '../../contract/chart';
import type { BalanceType, FrontSettings, Timeframe, User } from '../../contract/user';
import { isNoVerdict } from '../retry-policy';
import {
  errorMessage,
  errorText,
  type AuthSession,
  type LoginOutcome,
  type PersistedSession,
  type SessionType,
  type SettingsPatch,
} from '../types';

export interface SessionInput {
  persistedSession: PersistedSession | null;
  adminToken: string | null;
}

export interface SessionContext {
  token: string | null;
  refreshToken: string | null;
  user: User | null;
  sessionType: SessionType | null;
  balanceType: BalanceType | null;
  currentPair: string | null;
  currentTimeframe: string | null;
  loginError: string | null;
  twoFactorChallenge: string | null;
  /** The one-time admin token from the address, until it has been exchanged. */
  adminToken: string | null;
  /** Settings changes not yet sent to the server. */
  queuedSettings: SettingsPatch;
  /** The settings change the running save request carries. */
  savingSettings: SettingsPatch;
  /** Failed checks of a stored session while the server is unreachable (capped at the last delay's index). */
  reconnectAttempt: number;
}

export type SessionEvent =
  | { type: 'session.loginSubmitted'; username: string; password: string }
  /** The login's second step: a code from the authenticator app, or (`recovery`) one of the recovery codes. */
  | { type: 'session.twoFactorSubmitted'; code: string; recovery?: boolean }
  | { type: 'session.twoFactorCancelled' }
  | { type: 'session.registered'; token: string; refreshToken: string | null; user: User }
  | { type: 'session.logoutRequested' }
  | { type: 'session.unauthorized' }
  | { type: 'session.tokensRefreshed'; token: string; refreshToken: string | null }
  | { type: 'session.userRefreshRequested' }
  | { type: 'session.reconnectRequested' }
  | { type: 'session.settingsChanged'; patch: SettingsPatch }
  | { type: 'session.pairSelected'; pairCode: string; timeframe: Timeframe };

/** What the session tells its parent. */
export type SessionParentEvent =
  | { type: 'session.loggedIn'; token: string; user: User; sessionType: SessionType }
  | { type: 'session.loggedOut'; reason: LogoutReason }
  | { type: 'session.userUpdated'; user: User }
  | { type: 'session.tokenRefreshed'; token: string }
  | { type: 'session.settingsSaved'; patch: SettingsPatch }
  | { type: 'session.settingsSaveFailed'; message: string | null };

export type LogoutReason = 'logout' | 'unauthorized';

export interface LoginInput {
  username: string;
  password: string;
}
/** The body of POST /api/platform/auth/login/2fa: the challenge and either a TOTP `code` or a `recovery_code`. */
export interface VerifyTwoFactorInput {
  challenge: string;
  code?: string;
  recovery_code?: string;
}
export interface LogoutInput {
  sessionType: SessionType | null;
}
export interface ExchangeAdminTokenInput {
  adminToken: string;
}
export interface SaveFrontSettingsInput {
  patch: SettingsPatch;
}

/** Waits before asking the server again about a stored session it could not be reached for. */
export const SESSION_RECONNECT_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000] as const;

export function sessionReconnectDelay(attempt: number): number {
  return SESSION_RECONNECT_DELAYS_MS[Math.min(Math.max(attempt, 0), SESSION_RECONNECT_DELAYS_MS.length - 1)];
}

/**
 * Whether a failure means the server gave no verdict on the session: no response at all
 * (status 0: offline, reset, aborted, timed out), 408, 429 or a 5xx. A 401 or another 4xx is an
 * answer and ends the session.
 */
export function isServerUnreachable(error: unknown): boolean {
  return isNoVerdict(error);
}

const LOGIN_FALLBACK = 'Invalid credentials';
const ADMIN_FALLBACK = 'Authentication failed';

function missing(name: string): never {
  throw new Error(`sessionMachine: the "${name}" actor has no implementation; supply it with sessionMachine.provide()`);
}

/** The PersistedSession view of the context (what persistSession receives). */
export function toPersistedSession(context: SessionContext): PersistedSession {
  return {
    token: context.token,
    refreshToken: context.refreshToken,
    user: context.user,
    isAuthenticated: context.token !== null,
    balanceType: context.balanceType,
    currentPair: context.currentPair,
    currentTimeframe: context.currentTimeframe,
    sessionType: context.sessionType,
  };
}

/**
 * The type of the live session (spec section 4: admin is never downgraded). Only the admin link
 * opens an admin session; a login, second factor or registration (all from `loggedOut`, where no
 * session lives) opens a user one; nothing while `loggedIn` (token refresh, user re-fetch,
 * settings) changes the type, so an admin session stays admin until it ends.
 */
function sessionTypeOf(current: SessionType | null): SessionType {
  return current === 'admin' ? 'admin' : 'user';
}

/** The user's saved settings win over what the context held before. */
function settingsFields(user: User, context: SessionContext) {
  return {
    balanceType: user.front_settings.balance_type ?? context.balanceType,
    currentPair: user.front_settings.currentPair ?? context.currentPair,
    currentTimeframe: user.front_settings.currentTimeframe ?? context.currentTimeframe,
  };
}

/** The patch's keys that are set (undefined means "not in this change"), chart_setups apart. */
function plainKeys(patch: SettingsPatch): Omit<SettingsPatch, 'chart_setups'> {
  const { chart_setups: _chart, ...rest } = patch;
  return Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)) as Omit<SettingsPatch, 'chart_setups'>;
}

/** Every key of the patch applies (a new front setting needs no change here); chart setups merge per pair. */
export function mergeFrontSettings(settings: FrontSettings, patch: SettingsPatch): FrontSettings {
  return {
    ...settings,
    ...plainKeys(patch),
    chart_setups: patch.chart_setups ? mergeChartSetups(settings.chart_setups, patch.chart_setups) : settings.chart_setups,
  };
}

/** Two queued changes as one: the later value of each key wins; chart setups merge per pair. */
export function mergePatches(a: SettingsPatch, b: SettingsPatch): SettingsPatch {
  const merged: SettingsPatch = { ...a, ...plainKeys(b) };
  // Per pair: a queued change of one pair's chart must not drop another's.
  if (b.chart_setups !== undefined) merged.chart_setups = mergeChartSetupsUpdates(a.chart_setups, b.chart_setups);
  return merged;
}

function sessionFromOutcome(outcome: LoginOutcome): AuthSession {
  if (outcome.kind !== 'authenticated') throw new Error('sessionMachine: a second factor is still required');
  return { token: outcome.token, refreshToken: outcome.refreshToken, user: outcome.user };
}

function requireUser(context: SessionContext): User {
  if (!context.user) throw new Error('sessionMachine: logged in without a user');
  return context.user;
}

const CLEARED = {
  token: null,
  refreshToken: null,
  user: null,
  balanceType: null,
  currentPair: null,
  currentTimeframe: null,
  twoFactorChallenge: null,
  queuedSettings: {},
  savingSettings: {},
} satisfies Partial<SessionContext>;

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actors: {
    login: fromPromise<LoginOutcome, LoginInput>(() => missing('login')),
    verifyTwoFactor: fromPromise<AuthSession, VerifyTwoFactorInput>(() => missing('verifyTwoFactor')),
    fetchMe: fromPromise<User, void>(() => missing('fetchMe')),
    logout: fromPromise<void, LogoutInput>(() => missing('logout')),
    exchangeAdminToken: fromPromise<AuthSession, ExchangeAdminTokenInput>(() => missing('exchangeAdminToken')),
    saveFrontSettings: fromPromise<unknown, SaveFrontSettingsInput>(() => missing('saveFrontSettings')),
  },
  actions: {
    /** Removes the one-time admin token from the address bar (real implementation in services). */
    clearAddressToken: () => {},
    /** Writes the session to browser storage (real implementation in services). */
    persistSession: (_, _session: PersistedSession) => {},
    assignAuthenticated: assign(({ context }, session: AuthSession) => ({
      token: session.token,
      refreshToken: session.refreshToken,
      user: session.user,
      sessionType: 'user' as const,
      ...settingsFields(session.user, context),
      loginError: null,
      twoFactorChallenge: null,
    })),
    assignAdminSession: assign(({ context }, session: AuthSession) => ({
      token: session.token,
      refreshToken: session.refreshToken,
      user: session.user,
      sessionType: 'admin' as const,
      ...settingsFields(session.user, context),
      loginError: null,
      adminToken: null,
    })),
    assignAdminFailure: assign((_, params: { message: string }) => ({ loginError: params.message, adminToken: null })),
    assignUser: assign(({ context }, params: { user: User }) => ({
      user: params.user,
      ...settingsFields(params.user, context),
    })),
    assignLoginError: assign((_, params: { message: string }) => ({ loginError: params.message })),
    clearLoginError: assign({ loginError: null }),
    assignChallenge: assign((_, params: { challenge: string }) => ({ twoFactorChallenge: params.challenge, loginError: null })),
    clearChallenge: assign({ twoFactorChallenge: null, loginError: null }),
    /** Logout and 401: everything goes, the session type too. */
    clearSession: assign({ ...CLEARED, sessionType: null, loginError: null }),
    /**
     * A stored token the server refused: that session is over, admin or not (its type goes with
     * it, so a later login is a user session that logs out through the user endpoint); a message
     * from a refused admin link stays for the form.
     */
    clearCredentials: assign({ ...CLEARED, sessionType: null }),
    assignTokens: assign(({ event }) => {
      assertEvent(event, 'session.tokensRefreshed');
      return { token: event.token, refreshToken: event.refreshToken };
    }),
    mergeSettings: assign(({ context, event }) => {
      assertEvent(event, 'session.settingsChanged');
      const { patch } = event;
      return {
        user: context.user ? { ...context.user, front_settings: mergeFrontSettings(context.user.front_settings, patch) } : null,
        balanceType: patch.balance_type ?? context.balanceType,
        currentPair: patch.currentPair ?? context.currentPair,
        currentTimeframe: patch.currentTimeframe ?? context.currentTimeframe,
      };
    }),
    queueSettings: assign(({ context, event }) => {
      assertEvent(event, 'session.settingsChanged');
      return { queuedSettings: mergePatches(context.queuedSettings, event.patch) };
    }),
    startSavingSettings: assign(({ context }) => ({ savingSettings: context.queuedSettings, queuedSettings: {} })),
    finishSavingSettings: assign({ savingSettings: {} }),
    countReconnectAttempt: assign(({ context }) => ({
      reconnectAttempt: Math.min(context.reconnectAttempt + 1, SESSION_RECONNECT_DELAYS_MS.length - 1),
    })),
    resetReconnectAttempts: assign({ reconnectAttempt: 0 }),
    selectPair: raise(({ event }) => {
      assertEvent(event, 'session.pairSelected');
      return { type: 'session.settingsChanged' as const, patch: { currentPair: event.pairCode, currentTimeframe: event.timeframe } };
    }),
    notifyLoggedIn: sendParent(
      ({ context }): SessionParentEvent => ({
        type: 'session.loggedIn',
        token: context.token ?? '',
        user: requireUser(context),
        sessionType: sessionTypeOf(context.sessionType),
      }),
    ),
    notifyLoggedOut: sendParent((_, params: { reason: LogoutReason }): SessionParentEvent => ({ type: 'session.loggedOut', reason: params.reason })),
    notifyUserUpdated: sendParent(({ context }): SessionParentEvent => ({ type: 'session.userUpdated', user: requireUser(context) })),
    notifyTokenRefreshed: sendParent(({ context }): SessionParentEvent => ({ type: 'session.tokenRefreshed', token: context.token ?? '' })),
    notifySettingsSaved: sendParent(({ context }): SessionParentEvent => ({ type: 'session.settingsSaved', patch: context.savingSettings })),
    notifySettingsSaveFailed: sendParent((_, params: { message: string | null }): SessionParentEvent => ({
      type: 'session.settingsSaveFailed',
      message: params.message,
    })),
  },
  guards: {
    hasAdminToken: ({ context }) => context.adminToken !== null,
    hasToken: ({ context }) => context.token !== null,
    isTwoFactorRequired: (_, params: { outcome: LoginOutcome }) => params.outcome.kind === 'twoFactorRequired',
    hasQueuedSettings: ({ context }) => Object.keys(context.queuedSettings).length > 0,
    /** The server gave no verdict, and the stored user can be shown meanwhile. */
    canWaitForServer: ({ context }, params: { error: unknown }) => context.user !== null && isServerUnreachable(params.error),
    isServerUnreachable: (_, params: { error: unknown }) => isServerUnreachable(params.error),
  },
  delays: {
    reconnectDelay: ({ context }) => sessionReconnectDelay(context.reconnectAttempt),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    token: input.persistedSession?.token ?? null,
    refreshToken: input.persistedSession?.refreshToken ?? null,
    user: input.persistedSession?.user ?? null,
    sessionType: input.persistedSession?.sessionType ?? null,
    balanceType: input.persistedSession?.balanceType ?? null,
    currentPair: input.persistedSession?.currentPair ?? null,
    currentTimeframe: input.persistedSession?.currentTimeframe ?? null,
    loginError: null,
    twoFactorChallenge: null,
    adminToken: input.adminToken,
    queuedSettings: {},
    savingSettings: {},
    reconnectAttempt: 0,
  }),
  initial: 'booting',
  states: {
    booting: {
      description: 'Decides once at start: an admin token in the address wins, then a stored token, else logged out.',
      always: [
        { guard: 'hasAdminToken', target: 'openingAdminSession' },
        { guard: 'hasToken', target: 'loadingUser' },
        { target: 'loggedOut' },
      ],
    },
    openingAdminSession: {
      description: 'Exchanges the one-time admin token from the address; the address is cleaned whatever the result.',
      entry: 'clearAddressToken',
      invoke: {
        id: 'exchangeAdminToken',
        src: 'exchangeAdminToken',
        input: ({ context }) => ({ adminToken: context.adminToken ?? '' }),
        onDone: {
          target: 'loggedIn',
          actions: [
            { type: 'assignAdminSession', params: ({ event }) => event.output },
            { type: 'persistSession', params: ({ context }) => toPersistedSession(context) },
          ],
        },
        onError: [
          {
            guard: 'hasToken',
            target: 'loadingUser',
            description: 'A refused admin link falls back to the stored session, if any.',
            actions: { type: 'assignAdminFailure', params: ({ event }) => ({ message: errorMessage(event.error, ADMIN_FALLBACK) }) },
          },
          {
            target: 'loggedOut',
            actions: { type: 'assignAdminFailure', params: ({ event }) => ({ message: errorMessage(event.error, ADMIN_FALLBACK) }) },
          },
        ],
      },
    },
    loadingUser: {
      description: 'A stored token is only trusted once the server returns the user for it.',
      invoke: {
        id: 'fetchMe',
        src: 'fetchMe',
        onDone: {
          target: 'loggedIn',
          actions: [
            { type: 'assignUser', params: ({ event }) => ({ user: event.output }) },
            { type: 'persistSession', params: ({ context }) => toPersistedSession(context) },
          ],
        },
        onError: [
          {
            guard: { type: 'canWaitForServer', params: ({ event }) => ({ error: event.error }) },
            target: '#session.loggedIn.server.reconnecting',
            description: 'No verdict (network failure, timeout, 5xx): the session stays and the app shows the stored user while it asks again.',
          },
          {
            target: 'loggedOut',
            description: 'The stored session is over: its tokens and type are cleared.',
            actions: ['clearCredentials', { type: 'persistSession', params: ({ context }) => toPersistedSession(context) }],
          },
        ],
      },
      on: {
        'session.unauthorized': {
          target: 'loggedOut',
          actions: ['clearSession', { type: 'persistSession', params: ({ context }) => toPersistedSession(context) }],
        },
        'session.tokensRefreshed': {
          actions: ['assignTokens', { type: 'persistSession', params: ({ context }) => toPersistedSession(context) }],
        },
      },
    },
    loggedOut: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'session.loginSubmitted': { target: 'submitting', actions: 'clearLoginError' },
          },
        },
        submitting: {
          invoke: {
            id: 'login',
            src: 'login',
            input: ({ event }) => {
              assertEvent(event, 'session.loginSubmitted');
              return { username: event.username, password: event.password };
            },
            onDone: [
              {
                guard: { type: 'isTwoFactorRequired', params: ({ event }) => ({ outcome: event.output }) },
                target: 'awaitingTwoFactor',
                actions: {
                  type: 'assignChallenge',
                  params: ({ event }) => ({ challenge: event.output.kind === 'twoFactorRequired' ? event.output.challenge : '' }),
                },
              },
              {
                target: '#session.loggedIn',
                actions: [
                  { type: 'assignAuthenticated', params: ({ event }) => sessionFromOutcome(event.output) },
                  { type: 'persistSession', params: ({ context }) => toPersistedSession(context) },
                ],
              },
            ],
            onError: {
              target: 'idle',
              description: 'A failed login stays in the form with the server message.',
              actions: { type: 'assignLoginError', params: ({ event }) => ({ message: errorMessage(event.error, LOGIN_FALLBACK) }) },
            },
          },
        },
        awaitingTwoFactor: {
          on: {
            'session.twoFactorSubmitted': { target: 'verifyingTwoFactor', actions: 'clearLoginError' },
            'session.twoFactorCancelled': { target: 'idle', actions: 'clearChallenge' },
          },
        },
        verifyingTwoFactor: {
          invoke: {
            id: 'verifyTwoFactor',
            src: 'verifyTwoFactor',
            input: ({ context, event }) => {
              assertEvent(event, 'session.twoFactorSubmitted');
              const challenge = context.twoFactorChallenge ?? '';
              return event.recovery ? { challenge, recovery_code: event.code } : { challenge, code: event.code };
            },
            onDone: {
              target: '#session.loggedIn',
              actions: [
                { type: 'assignAuthenticated', params: ({ event }) => event.output },
                { type: 'persistSession', params: ({ context }) => toPersistedSession(context) },
              ],
            },
            onError: {
              target: 'awaitingTwoFactor',
              actions: { type: 'assignLoginError', params: ({ event }) => ({ message: errorMessage(event.error, '2FA verification failed') }) },
            },
          },
        },
      },
      on: {
        'session.registered': {
          target: 'loggedIn',
          description: 'The registration flow finished: its tokens open the session.',
          actions: [
            {
              type: 'assignAuthenticated',
              params: ({ event }) => ({ token: event.token, refreshToken: event.refreshToken, user: event.user }),
            },
            { type: 'persistSession', params: ({ context }) => toPersistedSession(context) },
          ],
        },
      },
    },
    loggedIn: {
      tags: ['authenticated'],
      type: 'parallel',
      entry: 'notifyLoggedIn',
      states: {
        profile: {
          initial: 'current',
          states: {
            current: {
              on: { 'session.userRefreshRequested': 'refreshing' },
            },
            refreshing: {
              invoke: {
                id: 'refreshUser',
                src: 'fetchMe',
                onDone: {
                  target: 'current',
                  actions: [
                    { type: 'assignUser', params: ({ event }) => ({ user: event.output }) },
                    { type: 'persistSession', params: ({ context }) => toPersistedSession(context) },
                    'notifyUserUpdated',
                  ],
                },
                onError: {
                  target: 'current',
                  description: 'A failed re-fetch keeps the user we have (a 401 arrives separately as session.unauthorized).',
                },
              },
            },
          },
        },
        server: {
          initial: 'confirmed',
          description: 'Whether the server has confirmed the stored session since start.',
          states: {
            confirmed: {},
            reconnecting: {
              tags: ['reconnecting'],
              initial: 'waiting',
              exit: 'resetReconnectAttempts',
              states: {
                waiting: {
                  after: { reconnectDelay: 'checking' },
                  on: { 'session.reconnectRequested': 'checking' },
                },
                checking: {
                  invoke: {
                    id: 'reconnectUser',
                    src: 'fetchMe',
                    onDone: {
                      target: '#session.loggedIn.server.confirmed',
                      actions: [
                        { type: 'assignUser', params: ({ event }) => ({ user: event.output }) },
                        { type: 'persistSession', params: ({ context }) => toPersistedSession(context) },
                        'notifyUserUpdated',
                      ],
                    },
                    onError: [
                      {
                        guard: { type: 'isServerUnreachable', params: ({ event }) => ({ error: event.error }) },
                        target: 'waiting',
                        description: 'Still no verdict: wait longer, then ask again.',
                        actions: 'countReconnectAttempt',
                      },
                      {
                        target: '#session.loggedOut',
                        description: 'The server answered and refused the stored session.',
                        actions: [
                          'clearSession',
                          { type: 'persistSession', params: ({ context }) => toPersistedSession(context) },
                          { type: 'notifyLoggedOut', params: { reason: 'unauthorized' } },
                        ],
                      },
                    ],
                  },
                },
              },
            },
          },
        },
        settings: {
          initial: 'synced',
          states: {
            synced: {
              on: {
                'session.settingsChanged': {
                  target: 'saving',
                  description: 'Applied at once (optimistic), then saved.',
                  actions: [
                    'mergeSettings',
                    'queueSettings',
                    'startSavingSettings',
                    { type: 'persistSession', params: ({ context }) => toPersistedSession(context) },
                  ],
                },
              },
            },
            saving: {
              invoke: {
                id: 'saveFrontSettings',
                src: 'saveFrontSettings',
                input: ({ context }) => ({ patch: context.savingSettings }),
                onDone: [
                  {
                    guard: 'hasQueuedSettings',
                    target: 'saving',
                    reenter: true,
                    description: 'Changes made while saving go out in the next request.',
                    actions: ['notifySettingsSaved', 'startSavingSettings'],
                  },
                  { target: 'synced', actions: ['notifySettingsSaved', 'finishSavingSettings'] },
                ],
                onError: [
                  {
                    guard: 'hasQueuedSettings',
                    target: 'saving',
                    reenter: true,
                    actions: [
                      { type: 'notifySettingsSaveFailed', params: ({ event }) => ({ message: errorText(event.error) }) },
                      'startSavingSettings',
                    ],
                  },
                  {
                    target: 'synced',
                    description: 'The local change stays; the parent shows the failure.',
                    actions: [
                      { type: 'notifySettingsSaveFailed', params: ({ event }) => ({ message: errorText(event.error) }) },
                      'finishSavingSettings',
                    ],
                  },
                ],
              },
              on: {
                'session.settingsChanged': {
                  actions: ['mergeSettings', 'queueSettings', { type: 'persistSession', params: ({ context }) => toPersistedSession(context) }],
                },
              },
            },
          },
        },
      },
      on: {
        'session.pairSelected': { actions: 'selectPair' },
        'session.tokensRefreshed': {
          actions: ['assignTokens', { type: 'persistSession', params: ({ context }) => toPersistedSession(context) }, 'notifyTokenRefreshed'],
        },
        'session.logoutRequested': { target: 'loggingOut' },
        'session.unauthorized': {
          target: 'loggedOut',
          description: 'Any 401: a local logout, the server is not called.',
          actions: [
            'clearSession',
            { type: 'persistSession', params: ({ context }) => toPersistedSession(context) },
            { type: 'notifyLoggedOut', params: { reason: 'unauthorized' } },
          ],
        },
      },
    },
    loggingOut: {
      tags: ['authenticated'],
      description:
        'One logout at a time: further logout requests are not handled here. The server logout runs only when a session is persisted (checked by the actor); whatever it answers, the session is cleared.',
      invoke: {
        id: 'logout',
        src: 'logout',
        input: ({ context }) => ({ sessionType: context.sessionType }),
        onDone: {
          target: 'loggedOut',
          actions: [
            'clearSession',
            { type: 'persistSession', params: ({ context }) => toPersistedSession(context) },
            { type: 'notifyLoggedOut', params: { reason: 'logout' } },
          ],
        },
        onError: {
          target: 'loggedOut',
          actions: [
            'clearSession',
            { type: 'persistSession', params: ({ context }) => toPersistedSession(context) },
            { type: 'notifyLoggedOut', params: { reason: 'logout' } },
          ],
        },
      },
    },
  },
});
