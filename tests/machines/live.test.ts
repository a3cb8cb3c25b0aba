/**
 * The machines with their real implementations against a real server: createAppActor() (no
 * browser window, an in-memory storage) talking HTTP and socket.io to startTestServer(). It
 * registers through the registration flow, goes live on the socket, saves a setting, resets the
 * demo balance, logs out (the server session really ends), logs in again and restores the
 * stored session in a second app.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { readAdminToken } from '../../src/app/create-app-actor';
import { STORAGE_KEYS } from '../../src/services/storage';
import { memoryStore, useLiveApp } from '../support/live-app';

const WAIT = { timeout: 8000 };
const { server, app } = useLiveApp();

describe('the app against a real server', () => {
  const store = memoryStore();
  const username = `live${Date.now() % 100000}`;
  const password = 'Secret#123';

  it('registers, goes live and receives the balances over the socket', async () => {
    const { actor, child, featuresReady } = await app(store);
    expect(child('session').getSnapshot().value).toEqual({ loggedOut: 'idle' });
    actor.send({ type: 'flow.registrationStarted', tracking: { utm_source: 'test' } });
    const registration = child('registration');
    registration.send({ type: 'registration.stepSubmitted', values: { username, email: `${username}@example.com`, password, password_confirmation: password } });
    registration.send({ type: 'registration.stepSubmitted', values: { first_name: 'Ann', last_name: 'Lee', phone: '+1 (555) 010-2030' } });
    registration.send({ type: 'registration.stepSubmitted', values: { currency: 'EUR', terms_accepted: true } });
    await waitFor(child('session'), (s) => s.matches('loggedIn'), WAIT);
    expect(registration.getSnapshot().status).toBe('done');

    const session = child('session').getSnapshot().context;
    expect(session.user.username).toBe(username);
    expect(session.sessionType).toBe('user');
    expect(JSON.parse(store.data.get(STORAGE_KEYS.session) ?? 'null')).toMatchObject({ token: session.token, isAuthenticated: true });

    await featuresReady();
    await waitFor(child('socket'), (s) => s.hasTag('live'), WAIT);
    const balance = await waitFor(child('balance'), (s) => Object.keys(s.context.balances).length > 0, WAIT);
    expect(balance.context.selectedCurrency).toBe('EUR');
    expect(balance.context.balanceType).toBe('DemoBalance');
    expect(balance.context.balances.EUR.DemoBalance).toBe(10000);
  });

  it('saves a settings change to the account and resets the demo balance', async () => {
    const { child } = await app(store);
    await waitFor(child('session'), (s) => s.matches('loggedIn'), WAIT);
    const token = child('session').getSnapshot().context.token as string;

    child('balance').send({ type: 'balance.typeChosen', balanceType: 'RealBalance' });
    await waitFor(child('session'), (s) => s.matches({ loggedIn: { settings: 'synced' } }), WAIT);
    // Confirmed beside the control (the balance actor's note), not in a toast (issue 26).
    await waitFor(child('balance'), (s) => s.context.savedNote === 'settings.balance_type_saved', WAIT);
    const me = await server.api('GET', '/api/platform/auth/me', undefined, token);
    expect(me.body.data.front_settings.balance_type).toBe('RealBalance');

    child('balance').send({ type: 'balance.demoResetRequested', currency: 'EUR' });
    await waitFor(child('toasts'), (s) => s.context.toasts.some((t: { messageKey?: string }) => t.messageKey === 'balance.demo_reseted'), WAIT);
    expect(child('balance').getSnapshot().context.balances.EUR.DemoBalance).toBe(10000);
  });

  it('logs out on the server and locally, then logs in again', async () => {
    const { child, featuresReady } = await app(store);
    await waitFor(child('session'), (s) => s.matches('loggedIn'), WAIT);
    await featuresReady();
    const token = child('session').getSnapshot().context.token as string;
    child('session').send({ type: 'session.logoutRequested' });
    await waitFor(child('session'), (s) => s.matches('loggedOut'), WAIT);
    expect(store.data.has(STORAGE_KEYS.session)).toBe(false);
    expect(child('socket').getSnapshot().value).toBe('idle');
    const after = await server.api('GET', '/api/platform/auth/me', undefined, token);
    expect(after.status).toBe(401);

    child('session').send({ type: 'session.loginSubmitted', username, password: 'wrong-Password1!' });
    await waitFor(child('session'), (s) => s.matches({ loggedOut: 'idle' }) && s.context.loginError !== null, WAIT);
    expect(child('session').getSnapshot().context.loginError).toBe('Invalid credentials');

    child('session').send({ type: 'session.loginSubmitted', username, password });
    await waitFor(child('session'), (s) => s.matches('loggedIn'), WAIT);
    await waitFor(child('socket'), (s) => s.hasTag('live'), WAIT);
  });

  it('logs out locally when the stored token and refresh token are refused', async () => {
    const stale = memoryStore();
    const saved = JSON.parse(store.data.get(STORAGE_KEYS.session) ?? 'null');
    stale.setItem(STORAGE_KEYS.session, JSON.stringify({ ...saved, token: 'not-a-token', refreshToken: 'not-a-refresh-token' }));
    const { child } = await app(stale);
    await waitFor(child('session'), (s) => s.matches('loggedOut'), WAIT);
    expect(child('session').getSnapshot().context.token).toBeNull();
    expect(stale.data.has(STORAGE_KEYS.session)).toBe(false);
  });
});

describe('the admin token in the address', () => {
  it('is read from the query except on the reset and verification links', () => {
    expect(readAdminToken({ pathname: '/trading', search: '?token=abc' })).toBe('abc');
    expect(readAdminToken({ pathname: '/', search: '?inspect&token=%20x%20' })).toBe('x');
    expect(readAdminToken({ pathname: '/trading', search: '' })).toBeNull();
    expect(readAdminToken({ pathname: '/reset-password', search: '?token=abc' })).toBeNull();
    expect(readAdminToken({ pathname: '/verify-email/', search: '?token=abc' })).toBeNull();
  });
});
