/**
 * Session: generated paths from every start (nothing stored, a stored token, an admin link with
 * and without a stored session), plus the rules that matter most: logout runs one at a time,
 * an admin session is never downgraded, a 401 logs out locally without calling the server,
 * every persistable change is persisted, settings are saved one request at a time.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fromPromise, waitFor, type AnyEventObject } from 'xstate';
import type { User } from '../../contract/user';
import { isServerUnreachable, sessionMachine, sessionReconnectDelay, type LogoutInput, type SaveFrontSettingsInput, type SessionInput, type VerifyTwoFactorInput } from '../../machines/session/session.machine';
import type { AuthSession, LoginOutcome, PersistedSession } from '../../machines/types';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';
import { makeUser } from './fixtures';

const user = makeUser({ front_settings: { currentPair: 'EURUSD', currentTimeframe: '1m', balance_type: 'RealBalance' } });
const refreshed = makeUser({ balances: { USD: { RealBalance: 5, DemoBalance: 10000 } } });

const persisted: PersistedSession = {
  token: 'tok-old',
  refreshToken: 'ref-old',
  user,
  isAuthenticated: true,
  balanceType: 'DemoBalance',
  currentPair: 'BTCUSD',
  currentTimeframe: '5m',
  sessionType: 'user',
};

const events: AnyEventObject[] = [
  { type: 'session.loginSubmitted', username: 'trader7', password: 'Secret#123' },
  { type: 'xstate.done.actor.login', output: { kind: 'authenticated', token: 'tok-login', refreshToken: 'ref-login', user } },
  { type: 'xstate.done.actor.login', output: { kind: 'twoFactorRequired', challenge: 'ch-1' } },
  { type: 'xstate.error.actor.login', error: { message: 'Invalid credentials' } },
  { type: 'session.twoFactorSubmitted', code: '123456' },
  { type: 'session.twoFactorCancelled' },
  { type: 'xstate.done.actor.verifyTwoFactor', output: { token: 'tok-2fa', refreshToken: 'ref-2fa', user } },
  { type: 'xstate.error.actor.verifyTwoFactor', error: { message: 'Invalid code' } },
  { type: 'session.registered', token: 'tok-reg', refreshToken: 'ref-reg', user },
  { type: 'session.logoutRequested' },
  { type: 'xstate.done.actor.logout' },
  { type: 'xstate.error.actor.logout', error: { message: 'Network error' } },
  { type: 'session.unauthorized' },
  { type: 'session.tokensRefreshed', token: 'tok-new', refreshToken: 'ref-new' },
  { type: 'session.userRefreshRequested' },
  { type: 'xstate.done.actor.fetchMe', output: user },
  { type: 'xstate.error.actor.fetchMe', error: { message: 'Failed to get user data' } },
  { type: 'xstate.error.actor.fetchMe', error: { status: 0, message: 'Request failed' } },
  { type: 'session.reconnectRequested' },
  { type: 'xstate.done.actor.reconnectUser', output: refreshed },
  { type: 'xstate.error.actor.reconnectUser', error: { status: 0, message: 'Request failed' } },
  { type: 'xstate.error.actor.reconnectUser', error: { status: 503, message: 'Service unavailable' } },
  { type: 'xstate.error.actor.reconnectUser', error: { status: 403, message: 'Forbidden' } },
  { type: 'xstate.done.actor.refreshUser', output: refreshed },
  { type: 'xstate.error.actor.refreshUser', error: { message: 'Failed to get user data' } },
  { type: 'session.settingsChanged', patch: { current_currency: 'EUR' } },
  { type: 'session.settingsChanged', patch: { theme: 'light' } },
  { type: 'session.pairSelected', pairCode: 'GBPUSD', timeframe: '15s' },
  { type: 'xstate.done.actor.saveFrontSettings', output: {} },
  { type: 'xstate.error.actor.saveFrontSettings', error: { message: 'Front settings update failed' } },
  { type: 'xstate.error.actor.saveFrontSettings', error: {} },
  { type: 'xstate.done.actor.exchangeAdminToken', output: { token: 'tok-admin', refreshToken: null, user } },
  { type: 'xstate.error.actor.exchangeAdminToken', error: { message: 'Invalid admin token' } },
];
const pick = (...types: string[]) => events.filter((e) => types.includes(e.type));

/*
 * The whole event list at once multiplies every token by every user by every settings change
 * (far too many states to walk). Each start gets the events that matter from there; the union
 * of their paths takes every transition, as the coverage check below proves.
 */
const login = pick(
  'session.loginSubmitted',
  'xstate.done.actor.login',
  'xstate.error.actor.login',
  'session.twoFactorSubmitted',
  'session.twoFactorCancelled',
  'xstate.done.actor.verifyTwoFactor',
  'xstate.error.actor.verifyTwoFactor',
  'session.registered',
  'session.logoutRequested',
  'xstate.done.actor.logout',
  'xstate.error.actor.logout',
  'session.unauthorized',
);
const stored = pick(
  'xstate.done.actor.fetchMe',
  'xstate.error.actor.fetchMe',
  'session.unauthorized',
  'session.tokensRefreshed',
  'session.userRefreshRequested',
  'xstate.done.actor.refreshUser',
  'xstate.error.actor.refreshUser',
  'session.logoutRequested',
  'xstate.done.actor.logout',
);
const settings = [
  ...pick(
    'xstate.done.actor.fetchMe',
    'session.settingsChanged',
    'session.pairSelected',
    'xstate.done.actor.saveFrontSettings',
    'xstate.error.actor.saveFrontSettings',
  ),
];
const unreachable = pick(
  'xstate.error.actor.fetchMe',
  'session.reconnectRequested',
  'xstate.done.actor.reconnectUser',
  'xstate.error.actor.reconnectUser',
  'session.unauthorized',
  'session.logoutRequested',
);
const admin = pick(
  'xstate.done.actor.exchangeAdminToken',
  'xstate.error.actor.exchangeAdminToken',
  'xstate.done.actor.fetchMe',
  'xstate.error.actor.fetchMe',
  'session.logoutRequested',
  'xstate.done.actor.logout',
);

const model = (input: SessionInput, modelEvents: AnyEventObject[], simplePathEvents?: AnyEventObject[]): PathModel => ({
  name: 'session',
  machine: sessionMachine,
  input,
  events: modelEvents,
  simplePathEvents,
});
const nothingStored: SessionInput = { persistedSession: null, adminToken: null };
const storedSession: SessionInput = { persistedSession: persisted, adminToken: null };
const models: Array<[string, PathModel]> = [
  ['login', model(nothingStored, login, pick('session.loginSubmitted', 'xstate.done.actor.login', 'xstate.error.actor.login', 'session.logoutRequested', 'xstate.done.actor.logout'))],
  ['stored session', model(storedSession, stored, pick('xstate.done.actor.fetchMe', 'xstate.error.actor.fetchMe', 'session.userRefreshRequested', 'xstate.done.actor.refreshUser'))],
  ['settings', model(storedSession, settings, pick('xstate.done.actor.fetchMe', 'session.pairSelected', 'xstate.done.actor.saveFrontSettings'))],
  [
    'unreachable server',
    model(
      storedSession,
      unreachable,
      unreachable.filter((e) => e.type !== 'xstate.error.actor.reconnectUser' || e.error.status === 0),
    ),
  ],
  ['admin link', model({ persistedSession: null, adminToken: 'adm-1' }, admin)],
  ['admin link over a stored session', model({ persistedSession: persisted, adminToken: 'adm-1' }, admin)],
];

describe('session machine paths', () => {
  afterAll(printCoverage);
  for (const [label, m] of models) {
    it.each(pathCases(m))(`${label}: %s`, (_, path) => {
      replayPath(m, path);
    });
  }
  it('reaches every state and takes every transition', () => assertFullCoverage('session'));
});

// ---- focused behaviour ------------------------------------------------------------------------

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function harness(input: SessionInput, outcomes: { login?: () => Promise<LoginOutcome>; fetchMe?: () => Promise<User>; exchange?: () => Promise<AuthSession> } = {}) {
  const logoutCalls: LogoutInput[] = [];
  const verifyCalls: VerifyTwoFactorInput[] = [];
  const saveCalls: SaveFrontSettingsInput[] = [];
  const logoutResult = deferred<void>();
  const saveResults: Array<Deferred<unknown>> = [];
  const persistSession = vi.fn<(session: PersistedSession) => void>();
  const clearAddressToken = vi.fn();
  const machine = sessionMachine.provide({
    actors: {
      login: fromPromise<LoginOutcome, { username: string; password: string }>(() => (outcomes.login ?? (() => Promise.reject(new Error('no login'))))()),
      verifyTwoFactor: fromPromise<AuthSession, VerifyTwoFactorInput>(({ input }) => {
        verifyCalls.push(input);
        return Promise.reject(new Error('Invalid recovery code'));
      }),
      fetchMe: fromPromise<User, void>(() => (outcomes.fetchMe ?? (() => Promise.resolve(user)))()),
      logout: fromPromise<void, LogoutInput>(({ input }) => {
        logoutCalls.push(input);
        return logoutResult.promise;
      }),
      exchangeAdminToken: fromPromise<AuthSession, { adminToken: string }>(() => (outcomes.exchange ?? (() => Promise.reject(new Error('no'))))()),
      saveFrontSettings: fromPromise<unknown, SaveFrontSettingsInput>(({ input }) => {
        saveCalls.push(input);
        const result = deferred<unknown>();
        saveResults.push(result);
        return result.promise;
      }),
    },
    actions: {
      persistSession: (_, session) => persistSession(session),
      clearAddressToken: () => clearAddressToken(),
    },
  });
  const { actor, parentEvents } = startUnderParent(machine, input);
  return { actor, parentEvents, logoutCalls, verifyCalls, logoutResult, saveCalls, saveResults, persistSession, clearAddressToken };
}

const flush = () => new Promise((r) => setTimeout(r, 0));
const authenticated = (token: string): LoginOutcome => ({ kind: 'authenticated', token, refreshToken: 'r-' + token, user });

describe('session rules', () => {
  it('sends the login second step as a TOTP code, or as a recovery code when the person chose one', async () => {
    const h = harness({ persistedSession: null, adminToken: null }, { login: () => Promise.resolve({ kind: 'twoFactorRequired', challenge: 'ch-9' }) });
    await waitFor(h.actor, (s) => s.matches({ loggedOut: 'idle' }));
    h.actor.send({ type: 'session.loginSubmitted', username: 'trader', password: 'Trade#Pass2026' });
    await waitFor(h.actor, (s) => s.matches({ loggedOut: 'awaitingTwoFactor' }));
    h.actor.send({ type: 'session.twoFactorSubmitted', code: '123456' });
    await waitFor(h.actor, (s) => s.matches({ loggedOut: 'awaitingTwoFactor' }) && s.context.loginError !== null);
    h.actor.send({ type: 'session.twoFactorSubmitted', code: 'k7m2p-x9qaz', recovery: true });
    await waitFor(h.actor, (s) => s.matches({ loggedOut: 'awaitingTwoFactor' }) && h.verifyCalls.length === 2 && s.context.loginError !== null);
    expect(h.verifyCalls).toEqual([
      { challenge: 'ch-9', code: '123456' },
      { challenge: 'ch-9', recovery_code: 'k7m2p-x9qaz' },
    ]);
    expect(h.actor.getSnapshot().context.loginError).toBe('Invalid recovery code');
  });

  it('runs logout one at a time: a second request while logging out does not call the server again', async () => {
    const h = harness({ persistedSession: persisted, adminToken: null });
    await waitFor(h.actor, (s) => s.matches('loggedIn'));
    h.actor.send({ type: 'session.logoutRequested' });
    h.actor.send({ type: 'session.logoutRequested' });
    h.actor.send({ type: 'session.logoutRequested' });
    expect(h.actor.getSnapshot().value).toBe('loggingOut');
    expect(h.actor.getSnapshot().hasTag('authenticated')).toBe(true);
    expect(h.logoutCalls).toEqual([{ sessionType: 'user' }]);
    h.logoutResult.reject(new Error('Network error'));
    await waitFor(h.actor, (s) => s.matches('loggedOut'));
    expect(h.logoutCalls).toHaveLength(1);
    expect(h.actor.getSnapshot().context).toMatchObject({
      token: null,
      refreshToken: null,
      user: null,
      currentPair: null,
      currentTimeframe: null,
      balanceType: null,
      sessionType: null,
    });
    expect(h.persistSession).toHaveBeenLastCalledWith({
      token: null,
      refreshToken: null,
      user: null,
      isAuthenticated: false,
      balanceType: null,
      currentPair: null,
      currentTimeframe: null,
      sessionType: null,
    });
    expect(h.parentEvents.at(-1)).toEqual({ type: 'session.loggedOut', reason: 'logout' });
  });

  it('logs out locally on a 401 without calling the server', async () => {
    const h = harness({ persistedSession: persisted, adminToken: null });
    await waitFor(h.actor, (s) => s.matches('loggedIn'));
    h.actor.send({ type: 'session.unauthorized' });
    expect(h.actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);
    expect(h.logoutCalls).toEqual([]);
    expect(h.actor.getSnapshot().context.token).toBeNull();
    expect(h.persistSession).toHaveBeenLastCalledWith(expect.objectContaining({ token: null, isAuthenticated: false }));
    expect(h.parentEvents.at(-1)).toEqual({ type: 'session.loggedOut', reason: 'unauthorized' });
  });

  it('opens an admin session from the address token, cleans the address, and logs out through the admin endpoint', async () => {
    const h = harness({ persistedSession: null, adminToken: 'adm-1' }, { exchange: () => Promise.resolve({ token: 'tok-admin', refreshToken: null, user }) });
    expect(h.clearAddressToken).toHaveBeenCalledTimes(1);
    await waitFor(h.actor, (s) => s.matches('loggedIn'));
    expect(h.actor.getSnapshot().context.sessionType).toBe('admin');
    expect(h.parentEvents[0]).toEqual({ type: 'session.loggedIn', token: 'tok-admin', user, sessionType: 'admin' });
    h.actor.send({ type: 'session.logoutRequested' });
    expect(h.logoutCalls).toEqual([{ sessionType: 'admin' }]);
  });

  it('cleans the address even when the admin token is refused, and falls back to the stored session', async () => {
    const h = harness({ persistedSession: persisted, adminToken: 'bad' }, { exchange: () => Promise.reject(new Error('Invalid admin token')) });
    expect(h.clearAddressToken).toHaveBeenCalledTimes(1);
    await waitFor(h.actor, (s) => s.matches('loggedIn'));
    expect(h.actor.getSnapshot().context).toMatchObject({ token: 'tok-old', sessionType: 'user', loginError: 'Invalid admin token', adminToken: null });
  });

  it('never downgrades a live admin session: token refreshes, user re-fetches and settings keep admin', async () => {
    const adminPersisted: PersistedSession = { ...persisted, sessionType: 'admin' };
    const h = harness({ persistedSession: adminPersisted, adminToken: null });
    await waitFor(h.actor, (s) => s.matches('loggedIn'));
    expect(h.parentEvents[0]).toEqual({ type: 'session.loggedIn', token: 'tok-old', user, sessionType: 'admin' });
    h.actor.send({ type: 'session.tokensRefreshed', token: 'tok-new', refreshToken: 'ref-new' });
    h.actor.send({ type: 'session.userRefreshRequested' });
    await waitFor(h.actor, (s) => s.matches({ loggedIn: { profile: 'current' } }));
    h.actor.send({ type: 'session.settingsChanged', patch: { theme: 'light' } });
    expect(h.actor.getSnapshot().context.sessionType).toBe('admin');
    expect(h.persistSession).toHaveBeenLastCalledWith(expect.objectContaining({ sessionType: 'admin', token: 'tok-new' }));
    h.actor.send({ type: 'session.logoutRequested' });
    expect(h.logoutCalls).toEqual([{ sessionType: 'admin' }]);
  });

  it('ends a refused stored admin session with its type, so a later login is a user session', async () => {
    const adminPersisted: PersistedSession = { ...persisted, sessionType: 'admin' };
    const h = harness(
      { persistedSession: adminPersisted, adminToken: null },
      { fetchMe: () => Promise.reject(new Error('Failed to get user data')), login: () => Promise.resolve(authenticated('tok-login')) },
    );
    await waitFor(h.actor, (s) => s.matches('loggedOut'));
    expect(h.actor.getSnapshot().context).toMatchObject({ token: null, user: null, sessionType: null });
    h.actor.send({ type: 'session.loginSubmitted', username: 'trader7', password: 'Secret#123' });
    await waitFor(h.actor, (s) => s.matches('loggedIn'));
    expect(h.parentEvents.at(-1)).toEqual({ type: 'session.loggedIn', token: 'tok-login', user, sessionType: 'user' });
    // The user session logs out through the user endpoint, never the admin one.
    h.actor.send({ type: 'session.logoutRequested' });
    expect(h.logoutCalls).toEqual([{ sessionType: 'user' }]);

    const r = harness({ persistedSession: adminPersisted, adminToken: null }, { fetchMe: () => Promise.reject(new Error('Unauthorized')) });
    await waitFor(r.actor, (s) => s.matches('loggedOut'));
    r.actor.send({ type: 'session.registered', token: 'tok-reg', refreshToken: 'ref-reg', user });
    expect(r.actor.getSnapshot().context.sessionType).toBe('user');
  });

  it('clears a stored token the server refuses and stays logged out', async () => {
    const h = harness({ persistedSession: persisted, adminToken: null }, { fetchMe: () => Promise.reject(new Error('Failed to get user data')) });
    await waitFor(h.actor, (s) => s.matches('loggedOut'));
    expect(h.actor.getSnapshot().context).toMatchObject({ token: null, refreshToken: null, user: null });
    expect(h.persistSession).toHaveBeenLastCalledWith(expect.objectContaining({ token: null, isAuthenticated: false }));
    expect(h.parentEvents).toEqual([]);
  });

  it('keeps the session when the server cannot be reached at start, shows the stored user and asks again with backoff', async () => {
    vi.useFakeTimers();
    try {
      const answers: Array<() => Promise<User>> = [
        () => Promise.reject(Object.assign(new Error('Request failed'), { status: 0 })),
        () => Promise.reject(Object.assign(new Error('Request failed'), { status: 0 })),
        () => Promise.reject(Object.assign(new Error('Bad gateway'), { status: 502 })),
        () => Promise.resolve(refreshed),
      ];
      let calls = 0;
      const h = harness({ persistedSession: persisted, adminToken: null }, { fetchMe: () => answers[calls++]() });
      await vi.advanceTimersByTimeAsync(0);
      const snap = h.actor.getSnapshot();
      expect(snap.matches({ loggedIn: { server: { reconnecting: 'waiting' } } })).toBe(true);
      expect(snap.hasTag('authenticated')).toBe(true);
      expect(snap.hasTag('reconnecting')).toBe(true);
      expect(snap.context).toMatchObject({ token: 'tok-old', refreshToken: 'ref-old', user });
      expect(h.persistSession).not.toHaveBeenCalled();
      expect(h.parentEvents).toEqual([{ type: 'session.loggedIn', token: 'tok-old', user, sessionType: 'user' }]);
      // 1 s, then 2 s, then 4 s between the checks.
      await vi.advanceTimersByTimeAsync(999);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toBe(2);
      await vi.advanceTimersByTimeAsync(1_999);
      expect(calls).toBe(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toBe(3);
      expect(h.actor.getSnapshot().context.reconnectAttempt).toBe(2);
      // A retry on request does not wait for the timer.
      h.actor.send({ type: 'session.reconnectRequested' });
      await vi.advanceTimersByTimeAsync(0);
      expect(calls).toBe(4);
      expect(h.actor.getSnapshot().matches({ loggedIn: { server: 'confirmed' } })).toBe(true);
      expect(h.actor.getSnapshot().context).toMatchObject({ user: refreshed, reconnectAttempt: 0, token: 'tok-old' });
      expect(h.parentEvents.at(-1)).toEqual({ type: 'session.userUpdated', user: refreshed });
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends a session the server refuses after a reconnect: a 401 from the token refresh, or another 4xx', async () => {
    const network = () => Promise.reject(Object.assign(new Error('Request failed'), { status: 0 }));
    const a = harness({ persistedSession: persisted, adminToken: null }, { fetchMe: network });
    await waitFor(a.actor, (s) => s.hasTag('reconnecting'));
    a.actor.send({ type: 'session.unauthorized' });
    expect(a.actor.getSnapshot().matches('loggedOut')).toBe(true);
    expect(a.parentEvents.at(-1)).toEqual({ type: 'session.loggedOut', reason: 'unauthorized' });

    let calls = 0;
    const b = harness(
      { persistedSession: persisted, adminToken: null },
      { fetchMe: () => (++calls === 1 ? network() : Promise.reject(Object.assign(new Error('Forbidden'), { status: 403 }))) },
    );
    await waitFor(b.actor, (s) => s.hasTag('reconnecting'));
    b.actor.send({ type: 'session.reconnectRequested' });
    await waitFor(b.actor, (s) => s.matches('loggedOut'));
    expect(b.actor.getSnapshot().context.token).toBeNull();
    expect(b.persistSession).toHaveBeenLastCalledWith(expect.objectContaining({ token: null, isAuthenticated: false }));
    expect(b.parentEvents.at(-1)).toEqual({ type: 'session.loggedOut', reason: 'unauthorized' });
  });

  it('backs off 1, 2, 4, 8, 16 s, then every 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map(sessionReconnectDelay)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect([0, 408, 429, 500, 503].every((status) => isServerUnreachable({ status }))).toBe(true);
    expect([400, 401, 403, 404].some((status) => isServerUnreachable({ status }))).toBe(false);
    expect(isServerUnreachable(new Error('no status'))).toBe(false);
  });

  it('keeps a failed login in the form with the server message', async () => {
    const h = harness({ persistedSession: null, adminToken: null }, { login: () => Promise.reject(new Error('Invalid credentials')) });
    h.actor.send({ type: 'session.loginSubmitted', username: 'x', password: 'y' });
    await waitFor(h.actor, (s) => s.matches({ loggedOut: 'idle' }) && s.context.loginError !== null);
    expect(h.actor.getSnapshot().context.loginError).toBe('Invalid credentials');
    expect(h.persistSession).not.toHaveBeenCalled();
  });

  it('persists the session shape after login, with the user settings', async () => {
    const h = harness({ persistedSession: null, adminToken: null }, { login: () => Promise.resolve(authenticated('tok-1')) });
    h.actor.send({ type: 'session.loginSubmitted', username: 'trader7', password: 'pw' });
    await waitFor(h.actor, (s) => s.matches('loggedIn'));
    expect(h.persistSession).toHaveBeenLastCalledWith({
      token: 'tok-1',
      refreshToken: 'r-tok-1',
      user,
      isAuthenticated: true,
      balanceType: 'RealBalance',
      currentPair: 'EURUSD',
      currentTimeframe: '1m',
      sessionType: 'user',
    });
    h.actor.send({ type: 'session.tokensRefreshed', token: 'tok-2', refreshToken: 'ref-2' });
    expect(h.persistSession).toHaveBeenLastCalledWith(expect.objectContaining({ token: 'tok-2', refreshToken: 'ref-2' }));
    expect(h.parentEvents.at(-1)).toEqual({ type: 'session.tokenRefreshed', token: 'tok-2' });
  });

  it('applies settings at once, saves one request at a time and sends what changed meanwhile next', async () => {
    const h = harness({ persistedSession: persisted, adminToken: null });
    await waitFor(h.actor, (s) => s.matches('loggedIn'));
    h.actor.send({ type: 'session.settingsChanged', patch: { current_currency: 'EUR' } });
    h.actor.send({ type: 'session.pairSelected', pairCode: 'GBPUSD', timeframe: '15s' });
    h.actor.send({ type: 'session.settingsChanged', patch: { balance_type: 'DemoBalance' } });
    const { context } = h.actor.getSnapshot();
    expect(context.user?.front_settings).toMatchObject({ current_currency: 'EUR', currentPair: 'GBPUSD', currentTimeframe: '15s', balance_type: 'DemoBalance' });
    expect(context).toMatchObject({ currentPair: 'GBPUSD', currentTimeframe: '15s', balanceType: 'DemoBalance' });
    expect(h.saveCalls).toEqual([{ patch: { current_currency: 'EUR' } }]);

    h.saveResults[0].resolve({});
    await waitFor(h.actor, () => h.saveCalls.length === 2);
    expect(h.saveCalls[1]).toEqual({ patch: { currentPair: 'GBPUSD', currentTimeframe: '15s', balance_type: 'DemoBalance' } });
    h.saveResults[1].reject(new Error('Front settings update failed'));
    await waitFor(h.actor, (s) => s.matches({ loggedIn: { settings: 'synced' } }));
    expect(h.parentEvents.slice(1)).toEqual([
      { type: 'session.settingsSaved', patch: { current_currency: 'EUR' } },
      { type: 'session.settingsSaveFailed', message: 'Front settings update failed' },
    ]);
    expect(h.actor.getSnapshot().context.currentPair).toBe('GBPUSD');
  });

  it('re-fetches the user on request and tells the parent', async () => {
    let calls = 0;
    const h = harness({ persistedSession: persisted, adminToken: null }, { fetchMe: () => Promise.resolve(++calls === 1 ? user : refreshed) });
    await waitFor(h.actor, (s) => s.matches('loggedIn'));
    h.actor.send({ type: 'session.userRefreshRequested' });
    await waitFor(h.actor, (s) => s.matches({ loggedIn: { profile: 'current' } }) && s.context.user === refreshed);
    expect(h.parentEvents.at(-1)).toEqual({ type: 'session.userUpdated', user: refreshed });
    await flush();
  });
});
