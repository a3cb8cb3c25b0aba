/**
 * The root app machine: generated paths over its routing and flow regions (children stubbed),
 * then the routing end to end with the real child machines and stub side effects: login wires
 * socket, balance, locale and theme; socket messages reach their owner and subscribers;
 * settings changes are saved through the session; logout clears and toasts; the registration
 * and password reset flows are spawned, replaced and stopped; the feature children exist only
 * once `loadFeatures` is done, and a session that opened meanwhile starts them.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor, type AnyActorRef, type AnyEventObject } from 'xstate';
import { CURRENCIES } from '../../contract/currencies';
import type { User } from '../../contract/user';
import { APP_FEATURE_CHILDREN, appMachine, settingsSavedToastKey, SOCKET_ROUTES, type AppInput } from '../../machines/app/app.machine';
import { FEATURE_MACHINES } from '../../machines/app/feature-machines';
import { sessionMachine, type LogoutInput, type SaveFrontSettingsInput } from '../../machines/session/session.machine';
import { socketMachine, type SocketConnectionEvent, type SocketEmitEvent } from '../../machines/socket/socket.machine';
import { balanceMachine, type ResetDemoInput, type ResetDemoOutput } from '../../machines/balance/balance.machine';
import { registrationMachine, type RegisterInput } from '../../machines/registration/registration.machine';
import { ordersMachine, type FetchOrdersInput } from '../../machines/orders/orders.machine';
import type { OrderListResponse } from '../../contract/orders';
import type { AuthSession, LoginOutcome, PersistedSession } from '../../machines/types';
import { assertFullCoverage, pathCases, printCoverage, replayPath, type PathModel } from './harness';
import { makeUser } from './fixtures';
import { BTCUSD, candle, EURUSD, makeOrder } from './trading-fixtures';

const user = makeUser({
  balances: { EUR: { RealBalance: 25, DemoBalance: 10000 } },
  front_settings: { language: 'es', theme: 'light' },
});
const input: AppInput = { persistedSession: null, adminToken: null, storedLanguage: null, storedTheme: null, systemPrefersDark: true };

const events: AnyEventObject[] = [
  { type: 'session.loggedIn', token: 'tok', user, sessionType: 'user' },
  { type: 'session.loggedOut', reason: 'logout' },
  { type: 'session.loggedOut', reason: 'unauthorized' },
  { type: 'session.userUpdated', user },
  { type: 'session.tokenRefreshed', token: 'tok-2' },
  { type: 'session.settingsSaved', patch: { current_currency: 'EUR' } },
  { type: 'session.settingsSaved', patch: { currentPair: 'EURUSD' } },
  { type: 'session.settingsSaveFailed', message: 'Front settings update failed' },
  { type: 'session.settingsSaveFailed', message: null },
  { type: 'session.registered', token: 'tok-r', refreshToken: null, user },
  { type: 'socket.messageReceived', event: 'userdata', payload: { userdata: { balances: user.balances, currency_code: 'EUR' }, valuts: CURRENCIES } },
  { type: 'socket.messageReceived', event: 'update_balances', payload: { balances: user.balances } },
  { type: 'socket.messageReceived', event: 'init_valuts', payload: { valuts_data: CURRENCIES } },
  { type: 'socket.messageReceived', event: 'update_balances', payload: { balances: 'garbage' } },
  { type: 'socket.messageReceived', event: 'pong', payload: { time: 1 } },
  { type: 'socket.messageReceived', event: 'error_message', payload: { event: 'provide_token', message: 'Unauthorized' } },
  { type: 'settings.changed', patch: { theme: 'dark' } },
  { type: 'toast.requested', toast: { type: 'info', messageKey: 'common.hello' } },
  { type: 'flow.registrationStarted', tracking: { utm_source: 'x' } },
  { type: 'flow.registrationEnded' },
  { type: 'flow.passwordResetStarted', linkToken: 'link' },
  { type: 'flow.passwordResetStarted' },
  { type: 'flow.passwordResetEnded' },
  { type: 'flow.profileOpened' },
  { type: 'flow.profileClosed' },
  { type: 'session.userRefreshRequested' },
  { type: 'socket.messageReceived', event: 'document_status_update', payload: { document: { id: 3, status: 'approved', rejection_reason: null } } },
];
// Money: the wizards' flows, a child's socket request, the catalogue and status pushes.
events.push(
  { type: 'flow.depositStarted', requestKey: 'key-deposit-1' },
  { type: 'flow.depositEnded' },
  { type: 'flow.withdrawStarted', requestKey: 'key-withdraw-1' },
  { type: 'flow.withdrawEnded' },
  { type: 'socket.emitRequested', event: 'get_payment_methods', payload: {} },
  { type: 'socket.messageReceived', event: 'init_payment_systems', payload: { payment_systems: [] } },
  { type: 'socket.messageReceived', event: 'payment_status_update', payload: { transaction: { id: 41, status: 'approved', transaction_type: 'deposit' } } },
);
// Trading: the pair, candle and order pushes, a placed or closed order, the close flow.
const tradingOrder = makeOrder({ order_id: 5 });
events.push(
  { type: 'socket.messageReceived', event: 'init_pairs', payload: { pairs: [EURUSD] } },
  { type: 'socket.messageReceived', event: 'pairs_rates', payload: { rates: [{ pair_code: 'EURUSD', current_price: 1.1 }] } },
  { type: 'socket.messageReceived', event: 'price_update', payload: { pair_code: 'EURUSD', price: 1.10001, time: 1 } },
  { type: 'socket.messageReceived', event: 'init_candles', payload: { pair_code: 'EURUSD', timeframe: '1m', candles: [candle(60, 1.1)] } },
  { type: 'socket.messageReceived', event: 'new_price', payload: { pair_code: 'EURUSD', open: 1, high: 1, low: 1, close: 1, time: 60, timeframe: '1m' } },
  { type: 'socket.messageReceived', event: 'order_update', payload: { change: 'opened', order: tradingOrder } },
  { type: 'socket.messageReceived', event: 'error_message', payload: { event: 'select_pair', message: 'Pair not found' } },
  { type: 'order.placed', order: tradingOrder },
  { type: 'order.closed', order: tradingOrder },
  { type: 'order.closeRequested', orderId: 5 },
  { type: 'flow.orderCloseStarted', orderId: 5 },
  { type: 'flow.orderCloseEnded' },
);
// The feature code loads (or fails to) after the first login.
events.push(
  { type: 'xstate.done.actor.loadFeatures', output: undefined },
  { type: 'xstate.error.actor.loadFeatures', error: new Error('chunk failed') },
);
// Six independent flow regions make 76 states, and the open session is kept in the context:
// simple paths walk the registration flow and the features' loading (the other flows, a
// failed load and token refreshes are covered by the shortest and edge paths).
const simplePathEvents = events.filter(
  (e) => (!e.type.startsWith('flow.') || e.type.startsWith('flow.registration')) && e.type !== 'session.tokenRefreshed' && e.type !== 'xstate.error.actor.loadFeatures',
);
const model: PathModel = { name: 'app', machine: appMachine, input, events, simplePathEvents };

describe('app machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('app'));
});

describe('app routing helpers', () => {
  it('routes balances and currencies to the balance actor and drops malformed payloads', () => {
    const [balances, currencies] = SOCKET_ROUTES.userdata;
    expect(balances.to).toBe('balance');
    expect(balances.toEvent({ userdata: { balances: user.balances, currency_code: 'EUR' }, valuts: CURRENCIES })).toEqual({
      type: 'balance.balancesReceived',
      balances: user.balances,
    });
    expect(currencies.toEvent({ userdata: { balances: {} } })).toBeNull();
    // Every userdata follows a (re)connect: the orders are fetched again (a settlement may have been missed).
    const orders = SOCKET_ROUTES.userdata.find((r) => r.to === 'orders')!;
    expect(orders.toEvent({ userdata: { balances: user.balances, currency_code: 'EUR' } })).toEqual({ type: 'orders.refreshRequested' });
    expect(orders.toEvent({ userdata: 'garbage' })).toBeNull();
    expect(SOCKET_ROUTES.update_balances[0].toEvent({ balances: { USD: { RealBalance: 'x' } } })).toBeNull();
  });

  it('asks the session to re-fetch the user (and so refresh the token) when the socket refuses it', () => {
    const [route] = SOCKET_ROUTES.error_message;
    expect(route.to).toBe('session');
    expect(route.toEvent({ event: 'provide_token', message: 'Unauthorized' })).toEqual({ type: 'session.userRefreshRequested' });
    expect(route.toEvent({ event: 'select_pair', message: 'Pair not found' })).toBeNull();
    expect(route.toEvent('garbage')).toBeNull();
  });

  it('routes document status pushes to the documents actor and drops malformed ones', () => {
    const [route] = SOCKET_ROUTES.document_status_update;
    expect(route.to).toBe('documents');
    expect(route.toEvent({ document: { id: 3, status: 'rejected', rejection_reason: 'Blurry photo' } })).toEqual({
      type: 'documents.statusUpdated',
      document: { id: 3, status: 'rejected', rejection_reason: 'Blurry photo' },
    });
    expect(route.toEvent({ document: { id: 3, status: 'lost', rejection_reason: null } })).toBeNull();
  });

  it('routes the payment catalogue and status pushes to the money actors and drops malformed ones', () => {
    const [methods] = SOCKET_ROUTES.init_payment_systems;
    expect(methods.to).toBe('paymentMethods');
    expect(methods.toEvent({ payment_systems: [] })).toEqual({ type: 'paymentMethods.received', methods: [] });
    expect(methods.toEvent({ payment_systems: [{ id: 'x' }] })).toBeNull();
    const update = { transaction: { id: 41, status: 'approved', transaction_type: 'deposit' } };
    expect(SOCKET_ROUTES.payment_status_update.map((r) => [r.to, r.toEvent(update)])).toEqual([
      ['deposit', { type: 'deposit.statusUpdated', transactionId: 41, status: 'approved' }],
      ['withdraw', { type: 'withdraw.statusUpdated', transactionId: 41, status: 'approved' }],
      ['transactions', { type: 'transactions.statusUpdated', transactionId: 41, status: 'approved', transactionType: 'deposit' }],
    ]);
    expect(SOCKET_ROUTES.payment_status_update[0].toEvent({ transaction: { id: 41, status: 'lost' } })).toBeNull();
    // polling_status: the deposit flow learns that the server is checking a deposit's status.
    expect(SOCKET_ROUTES.polling_status.map((r) => [r.to, r.toEvent({ transaction_id: 41, polling: true })])).toEqual([
      ['deposit', { type: 'deposit.pollingUpdated', transactionId: 41, polling: true }],
    ]);
    expect(SOCKET_ROUTES.polling_status[0].toEvent({ transaction_id: 41, polling: 'yes' })).toBeNull();
    const withdrawBalances = SOCKET_ROUTES.update_balances.find((r) => r.to === 'withdraw')!;
    expect(withdrawBalances.toEvent({ balances: user.balances })).toEqual({ type: 'withdraw.balancesReceived', balances: user.balances });
    expect(withdrawBalances.toEvent({ balances: 3 })).toBeNull();
  });

  it('routes pairs (a changed pair list) to the pairs actor and pong to the socket actor (spec section 7)', () => {
    expect(SOCKET_ROUTES.pairs.map((r) => [r.to, r.toEvent({ pairs: [EURUSD] })])).toEqual([['pairs', { type: 'pairs.pairsReceived', pairs: [EURUSD] }]]);
    expect(SOCKET_ROUTES.pairs[0].toEvent({ pairs: 'none' })).toBeNull();
    expect(SOCKET_ROUTES.pong.map((r) => [r.to, r.toEvent({ time: 1700000000000 })])).toEqual([['socket', { type: 'socket.pongReceived', time: 1700000000000 }]]);
    expect(SOCKET_ROUTES.pong[0].toEvent(undefined)).toEqual({ type: 'socket.pongReceived', time: null });
  });

  it('toasts saved language and theme; currency and account type confirm beside their control, a pair or timeframe silently', () => {
    expect(settingsSavedToastKey({ current_currency: 'EUR' })).toBeNull();
    expect(settingsSavedToastKey({ balance_type: 'RealBalance' })).toBeNull();
    expect(settingsSavedToastKey({ theme: 'light' })).toBe('settings.saved');
    expect(settingsSavedToastKey({ currentPair: 'EURUSD', currentTimeframe: '1m' })).toBeNull();
  });
});

// ---- end to end with the real children -------------------------------------------------------

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function startApp(options: { persistedSession?: PersistedSession | null; saveFails?: boolean; holdFeatures?: boolean } = {}) {
  const socket = {
    opened: [] as string[],
    emitted: [] as SocketEmitEvent[],
    report: (_e: SocketConnectionEvent) => {},
  };
  const saves: SaveFrontSettingsInput[] = [];
  const logoutDone = deferred<void>();
  const registrations: RegisterInput[] = [];
  const orderQueries: FetchOrdersInput[] = [];
  const loadFeatures = deferred<void>();
  const app = appMachine.provide({
    actors: {
      ...FEATURE_MACHINES,
      loadFeatures: fromPromise<void>(() => (options.holdFeatures ? loadFeatures.promise : Promise.resolve())),
      session: sessionMachine.provide({
        actors: {
          login: fromPromise<LoginOutcome, { username: string; password: string }>(() =>
            Promise.resolve({ kind: 'authenticated', token: 'tok-login', refreshToken: 'ref', user }),
          ),
          fetchMe: fromPromise<User, void>(() => Promise.resolve(user)),
          logout: fromPromise<void, LogoutInput>(() => logoutDone.promise),
          saveFrontSettings: fromPromise<unknown, SaveFrontSettingsInput>(({ input: save }) => {
            saves.push(save);
            return options.saveFails ? Promise.reject(new Error('Front settings update failed')) : Promise.resolve({});
          }),
        },
      }),
      socket: socketMachine.provide({
        actors: {
          socketConnection: fromCallback<SocketEmitEvent, { token: string }>(({ input: connection, sendBack, receive }) => {
            socket.opened.push(connection.token);
            socket.report = sendBack;
            receive((e) => socket.emitted.push(e));
          }),
        },
      }),
      balance: balanceMachine.provide({
        actors: { resetDemoBalance: fromPromise<ResetDemoOutput, ResetDemoInput>(() => Promise.resolve({ new_balance: { EUR: 10000 }, message: 'demo_reseted' })) },
      }),
      orders: ordersMachine.provide({
        actors: {
          fetchOrders: fromPromise<OrderListResponse, FetchOrdersInput>(({ input: query }) => {
            orderQueries.push(query);
            return Promise.resolve({ orders: [], pagination: { total_count: 0, limit: query.limit, offset: 0, has_more: false, next_offset: null } });
          }),
        },
      }),
      registration: registrationMachine.provide({
        actors: {
          register: fromPromise<AuthSession, RegisterInput>(({ input: r }) => {
            registrations.push(r);
            return Promise.resolve({ token: 'tok-reg', refreshToken: 'ref-reg', user });
          }),
        },
      }),
    },
  });
  const actor = createActor(app, { input: { ...input, persistedSession: options.persistedSession ?? null } }).start();
  const child = (id: string): AnyActorRef => {
    const ref = actor.system.get(id);
    if (!ref) throw new Error(`no actor ${id}`);
    return ref;
  };
  const toasts = () => child('toasts').getSnapshot().context.toasts.map((t: { messageKey?: string; message?: string }) => t.messageKey ?? t.message);
  /** Logs in and waits until the features are loaded and started. */
  const logIn = async () => {
    child('session').send({ type: 'session.loginSubmitted', username: 'trader7', password: 'Secret#123' });
    await waitFor(child('session'), (s) => s.matches('loggedIn'));
    await waitFor(actor, (s) => s.matches({ features: 'ready' }));
  };
  return { actor, child, socket, saves, logoutDone, registrations, toasts, orderQueries, loadFeatures, logIn };
}

describe('app wiring with the real children', () => {
  it('spawns every long-lived child with its systemId and forgets the startup input', () => {
    const { actor, child } = startApp();
    for (const id of ['session', 'balance', 'theme', 'locale', 'modals', 'toasts']) {
      expect(child(id)).toBe(actor.getSnapshot().children[id as 'session']);
    }
    expect(actor.getSnapshot().context.startup).toBeNull();
    // The features' code is not loaded before a session opens: none of their children exists.
    for (const id of APP_FEATURE_CHILDREN) expect(actor.system.get(id)).toBeUndefined();
    expect(actor.getSnapshot().matches({ features: 'notLoaded' })).toBe(true);
  });

  it('loads the features on the first login and starts them with the session that opened meanwhile', async () => {
    const { actor, child, socket, loadFeatures } = startApp({ holdFeatures: true });
    child('session').send({ type: 'session.loginSubmitted', username: 'trader7', password: 'Secret#123' });
    await waitFor(child('session'), (s) => s.matches('loggedIn'));
    expect(actor.getSnapshot().matches({ features: 'loading' })).toBe(true);
    expect(actor.system.get('socket')).toBeUndefined();
    child('session').send({ type: 'session.tokensRefreshed', token: 'tok-2', refreshToken: 'ref-2' });
    loadFeatures.resolve();
    await waitFor(actor, (s) => s.matches({ features: 'ready' }));
    for (const id of APP_FEATURE_CHILDREN) expect(child(id)).toBe(actor.getSnapshot().children[id]);
    // The socket connects with the newest token; trading starts with the user's saved settings.
    expect(socket.opened).toEqual(['tok-2']);
    expect(child('pairs').getSnapshot().matches('loggedIn')).toBe(true);
  });

  it('spawns the features without starting them when the session ended while they loaded', async () => {
    const { actor, child, socket, loadFeatures, logoutDone } = startApp({ holdFeatures: true });
    child('session').send({ type: 'session.loginSubmitted', username: 'trader7', password: 'Secret#123' });
    await waitFor(child('session'), (s) => s.matches('loggedIn'));
    child('session').send({ type: 'session.logoutRequested' });
    logoutDone.resolve();
    await waitFor(child('session'), (s) => s.matches('loggedOut'));
    loadFeatures.resolve();
    await waitFor(actor, (s) => s.matches({ features: 'ready' }));
    expect(socket.opened).toEqual([]);
    expect(child('pairs').getSnapshot().matches('loggedIn')).toBe(false);
  });

  it('on login connects the socket with the token and loads balances, language and theme of the user', async () => {
    const { child, socket, logIn } = startApp();
    await logIn();
    expect(socket.opened).toEqual(['tok-login']);
    expect(child('balance').getSnapshot().context).toMatchObject({ balances: user.balances, selectedCurrency: 'EUR', balanceType: 'RealBalance' });
    expect(child('locale').getSnapshot().context.language).toBe('es');
    expect(child('theme').getSnapshot().context.setting).toBe('light');
  });

  it('routes socket pushes to the balance actor and emits every message to subscribers', async () => {
    const { actor, child, socket, logIn } = startApp();
    const heard: string[] = [];
    actor.on('socket.received', (e) => heard.push(e.event));
    await logIn();
    socket.report({ type: 'socket.connected' });
    expect(socket.emitted[0]).toEqual({ type: 'socket.emitRequested', event: 'provide_token', payload: { token: 'tok-login' } });
    socket.report({ type: 'socket.messageReceived', event: 'update_balances', payload: { balances: { EUR: { RealBalance: 30, DemoBalance: 9000 } } } });
    socket.report({ type: 'socket.messageReceived', event: 'pong', payload: { time: 5 } });
    expect(child('balance').getSnapshot().context.balances).toEqual({ EUR: { RealBalance: 30, DemoBalance: 9000 } });
    expect(heard).toEqual(['update_balances', 'pong']);
  });

  it('saves a settings change through the session when logged in and toasts a failure', async () => {
    const { child, saves, toasts, logIn } = startApp({ saveFails: true });
    child('balance').send({ type: 'balance.currencyChosen', currency: 'GBP' });
    expect(saves).toEqual([]);
    await logIn();
    child('balance').send({ type: 'balance.currencyChosen', currency: 'USD' });
    expect(saves).toEqual([{ patch: { current_currency: 'USD' } }]);
    await waitFor(child('toasts'), (s) => s.context.toasts.length > 0);
    expect(toasts()).toEqual(['Front settings update failed']);
    expect(child('session').getSnapshot().context.user.front_settings.current_currency).toBe('USD');
  });

  it('confirms a saved currency beside its control and toasts a demo reset', async () => {
    const { child, toasts, logIn } = startApp();
    await logIn();
    child('balance').send({ type: 'balance.currencyChosen', currency: 'USD' });
    child('balance').send({ type: 'balance.demoResetRequested', currency: 'EUR' });
    await waitFor(child('balance'), (s) => s.context.savedNote === 'settings.currency_saved');
    await waitFor(child('toasts'), (s) => s.context.toasts.length === 1);
    expect(toasts()).toEqual(['balance.demo_reseted']);
  });

  it('saves the trader\'s pair and timeframe choices without a toast (issue 26: the chart shows them)', async () => {
    const { child, saves, toasts, logIn } = startApp();
    await logIn();
    child('pairs').send({ type: 'pairs.pairsReceived', pairs: [EURUSD, BTCUSD] });
    await waitFor(child('pairs'), (s) => s.matches({ loggedIn: 'ready' }));
    const defaults = saves.length;
    await new Promise((r) => setTimeout(r, 20));
    expect(toasts()).toEqual([]);
    child('pairs').send({ type: 'pairs.pairSelected', pairCode: 'BTCUSD' });
    child('pairs').send({ type: 'pairs.timeframeSelected', timeframe: '1h' });
    await vi.waitFor(() => expect(saves.length).toBe(defaults + 2));
    await new Promise((r) => setTimeout(r, 20));
    expect(toasts()).toEqual([]);
  });

  it('on logout disconnects the socket, clears the balances and says so', async () => {
    const { child, logoutDone, toasts, logIn } = startApp();
    await logIn();
    child('session').send({ type: 'session.logoutRequested' });
    logoutDone.resolve();
    await waitFor(child('session'), (s) => s.matches('loggedOut'));
    expect(child('socket').getSnapshot().value).toBe('idle');
    expect(child('balance').getSnapshot().context.balances).toEqual({});
    expect(toasts()).toEqual(['auth.logged_out']);
  });

  it('spawns, replaces and stops the registration flow, and a finished registration opens the session', async () => {
    const { actor, child, registrations } = startApp();
    child('locale').send({ type: 'locale.chosen', language: 'ru' });
    actor.send({ type: 'flow.registrationStarted', tracking: { utm_source: 'ad' } });
    expect(actor.getSnapshot().matches({ registrationFlow: 'active' })).toBe(true);
    const first = child('registration');
    first.send({ type: 'registration.stepSubmitted', values: { username: 'trader7', email: 'a@b.co', password: 'Secret#123', password_confirmation: 'Secret#123' } });
    actor.send({ type: 'flow.registrationStarted' });
    const second = child('registration');
    expect(second).not.toBe(first);
    expect(first.getSnapshot().status).toBe('stopped');
    expect(second.getSnapshot().value).toBe('basicInfo');

    second.send({ type: 'registration.stepSubmitted', values: { username: 'trader7', email: 'a@b.co', password: 'Secret#123', password_confirmation: 'Secret#123' } });
    second.send({ type: 'registration.stepSubmitted', values: { first_name: 'Ann', last_name: 'Lee', phone: '+15550102030' } });
    second.send({ type: 'registration.stepSubmitted', values: { currency: 'EUR', terms_accepted: true } });
    await waitFor(child('session'), (s) => s.matches('loggedIn'));
    expect(registrations[0].payload.language).toBe('ru');
    expect(child('session').getSnapshot().context.token).toBe('tok-reg');

    actor.send({ type: 'flow.registrationEnded' });
    expect(actor.getSnapshot().matches({ registrationFlow: 'inactive' })).toBe(true);
    expect(actor.system.get('registration')).toBeUndefined();
  });

  it('starts the password reset flow at the link step when the address carries a token', () => {
    const { actor, child } = startApp();
    actor.send({ type: 'flow.passwordResetStarted', linkToken: 'link-1' });
    expect(child('passwordReset').getSnapshot().value).toBe('choosingPassword');
    actor.send({ type: 'flow.passwordResetStarted' });
    expect(child('passwordReset').getSnapshot().value).toBe('enteringEmail');
    actor.send({ type: 'flow.passwordResetEnded' });
    expect(actor.system.get('passwordReset')).toBeUndefined();
  });

  it('spawns the profile screen with its sections, forwards their requests and stops them with it', async () => {
    const { actor, child, toasts, logIn } = startApp();
    await logIn();
    actor.send({ type: 'flow.profileOpened' });
    expect(actor.getSnapshot().matches({ features: { ready: { profileFlow: 'active' } } })).toBe(true);
    const documents = child('documents');
    expect(child('profilePage').getSnapshot().children.documents).toBe(documents);
    child('profilePage').send({ type: 'toast.requested', toast: { type: 'success', messageKey: 'profile.personal.saved' } });
    expect(toasts()).toContain('profile.personal.saved');
    child('profilePage').send({ type: 'session.userRefreshRequested' });
    expect(child('session').getSnapshot().matches({ loggedIn: { profile: 'refreshing' } })).toBe(true);
    actor.send({ type: 'flow.profileClosed' });
    expect(actor.system.get('profilePage')).toBeUndefined();
    expect(actor.system.get('documents')).toBeUndefined();
    expect(documents.getSnapshot().status).toBe('stopped');
  });
  it('runs the money flows: catalogue over the socket, wizards spawned from the balance, pushes routed, history cleared on logout', async () => {
    const { actor, child, socket, logoutDone, logIn } = startApp();
    await logIn();
    socket.report({ type: 'socket.connected' });
    actor.send({ type: 'flow.depositStarted', requestKey: 'key-deposit-1' });
    expect(child('deposit').getSnapshot().context).toMatchObject({ requestKey: 'key-deposit-1', currency: 'EUR' });
    expect(socket.emitted).toContainEqual({ type: 'socket.emitRequested', event: 'get_payment_methods', payload: {} });
    expect(child('paymentMethods').getSnapshot().value).toBe('loading');
    socket.report({ type: 'socket.messageReceived', event: 'init_payment_systems', payload: { payment_systems: [] } });
    expect(child('paymentMethods').getSnapshot().value).toBe('ready');

    actor.send({ type: 'flow.withdrawStarted', requestKey: 'key-withdraw-1' });
    expect(child('withdraw').getSnapshot().context).toMatchObject({ currency: 'EUR', balances: user.balances });
    const richer = { EUR: { RealBalance: 500, DemoBalance: 10000 } };
    socket.report({ type: 'socket.messageReceived', event: 'update_balances', payload: { balances: richer } });
    expect(child('withdraw').getSnapshot().context.balances).toEqual(richer);

    socket.report({ type: 'socket.messageReceived', event: 'payment_status_update', payload: { transaction: { id: 9, status: 'failed', transaction_type: 'withdrawal' } } });
    await waitFor(child('toasts'), (s) => s.context.toasts.some((t: { messageKey?: string }) => t.messageKey === 'transactions.toast_withdrawal_failed'));

    actor.send({ type: 'flow.depositEnded' });
    actor.send({ type: 'flow.withdrawEnded' });
    expect(actor.system.get('deposit')).toBeUndefined();
    expect(actor.system.get('withdraw')).toBeUndefined();

    child('transactions').send({ type: 'transactions.filtersChanged', filters: { type: 'deposit' } });
    expect(child('transactions').getSnapshot().context.filters.type).toBe('deposit');
    child('session').send({ type: 'session.logoutRequested' });
    logoutDone.resolve();
    await waitFor(child('transactions'), (s) => s.context.filters.type === 'all');
  });
});

describe('app wiring of the trading actors', () => {
  it('routes the pair, candle and order pushes and drops malformed ones', () => {
    expect(SOCKET_ROUTES.init_pairs[0].toEvent({ pairs: [EURUSD] })).toEqual({ type: 'pairs.pairsReceived', pairs: [EURUSD] });
    expect(SOCKET_ROUTES.init_pairs[0].toEvent({ pairs: 'x' })).toBeNull();
    expect(SOCKET_ROUTES.pairs_rates[0].toEvent({ rates: [{ pair_code: 'EURUSD', current_price: 1.1 }] })).toEqual({
      type: 'pairs.ratesReceived',
      rates: [{ pair_code: 'EURUSD', current_price: 1.1 }],
    });
    expect(SOCKET_ROUTES.price_update[0].toEvent({ pair_code: 'EURUSD', price: 1.2, time: 5 })).toEqual({ type: 'pairs.priceUpdated', pairCode: 'EURUSD', price: 1.2 });
    expect(SOCKET_ROUTES.pair_status[0].toEvent({ pair_code: 'BTCUSD', quotes: 'delayed' })).toEqual({ type: 'pairs.statusReceived', pairCode: 'BTCUSD', quotes: 'delayed' });
    expect(SOCKET_ROUTES.pair_status[0].toEvent({ pair_code: 'BTCUSD', quotes: 'frozen' })).toBeNull();
    expect(SOCKET_ROUTES.new_price[0].toEvent({ pair_code: 'EURUSD', open: 1, high: 2, low: 0.5, close: 1.5, time: 60, timeframe: '1m' })).toEqual({
      type: 'chart.candleUpdated',
      candle: { pair_code: 'EURUSD', timeframe: '1m', timestamp: 60, open: 1, high: 2, low: 0.5, close: 1.5, volume: 0 },
    });
    expect(SOCKET_ROUTES.new_price[0].toEvent({ pair_code: 'EURUSD', time: 60, timeframe: '2m' })).toBeNull();
    expect(SOCKET_ROUTES.init_candles[0].toEvent({ pair_code: 'EURUSD', timeframe: '1m', candles: [] })).toEqual({
      type: 'chart.candlesReceived',
      pairCode: 'EURUSD',
      timeframe: '1m',
      candles: [],
    });
    const order = makeOrder({ order_id: 9 });
    expect(SOCKET_ROUTES.order_update[0].toEvent({ change: 'settled', order })).toEqual({ type: 'orders.orderUpdated', change: 'settled', order });
    expect(SOCKET_ROUTES.order_update[0].toEvent({ change: 'moved', order })).toBeNull();
    const chartRoute = SOCKET_ROUTES.error_message.find((r) => r.to === 'chart')!;
    expect(chartRoute.toEvent({ event: 'select_pair', message: 'Pair not found' })).toEqual({ type: 'chart.subscriptionFailed', message: 'Pair not found' });
    expect(chartRoute.toEvent({ event: 'provide_token', message: 'Unauthorized' })).toBeNull();
  });

  it('on login selects the default pair, saves it, subscribes the socket and feeds the chart and the orders', async () => {
    const { actor, child, socket, saves, toasts, logIn } = startApp();
    await logIn();
    socket.report({ type: 'socket.connected' });
    socket.report({ type: 'socket.messageReceived', event: 'init_pairs', payload: { pairs: [EURUSD] } });
    expect(child('pairs').getSnapshot().context).toMatchObject({ currentPair: 'EURUSD', currentTimeframe: '5s' });
    expect(saves).toContainEqual({ patch: { currentPair: 'EURUSD', currentTimeframe: '5s' } });
    expect(socket.emitted).toContainEqual({ type: 'socket.emitRequested', event: 'select_pair', payload: { pair_code: 'EURUSD', timeframe: '5s', token: 'tok-login' } });

    socket.report({ type: 'socket.messageReceived', event: 'init_candles', payload: { pair_code: 'EURUSD', timeframe: '5s', candles: [candle(5, 1.1, { timeframe: '5s' })] } });
    expect(child('chart').getSnapshot().value).toBe('live');

    const order = makeOrder({ order_id: 11, amount: 10 });
    socket.report({ type: 'socket.messageReceived', event: 'order_update', payload: { change: 'settled', order: { ...order, status: 'closed', result: 'lost', payout: 0, profit_loss: -10 } } });
    await waitFor(child('toasts'), (s) => s.context.toasts.length > 0);
    expect(toasts()).toContain('orders.settled_lost');

    actor.send({ type: 'flow.orderCloseStarted', orderId: 11 });
    expect(child('orderClose').getSnapshot().context.orderId).toBe(11);
    actor.send({ type: 'flow.orderCloseEnded' });
    expect(actor.system.get('orderClose')).toBeUndefined();
  });

  it('refreshes the balances after an order is placed or closed, and the orders after every reconnect', async () => {
    const { actor, child, socket, orderQueries, logIn } = startApp();
    await logIn();
    const refreshing = () => child('session').getSnapshot().matches({ loggedIn: { profile: 'refreshing' } });
    const order = makeOrder({ order_id: 12 });
    actor.send({ type: 'order.placed', order });
    expect(refreshing()).toBe(true);
    await waitFor(child('session'), (s) => s.matches({ loggedIn: { profile: 'current' } }));
    actor.send({ type: 'order.closed', order: { ...order, status: 'closed', result: 'closed_early', payout: 6, profit_loss: -4 } });
    expect(refreshing()).toBe(true);

    socket.report({ type: 'socket.connected' });
    await waitFor(child('orders'), (s) => s.matches({ signedIn: { list: 'loaded', openOrders: 'loaded' } }));
    const before = orderQueries.length;
    socket.report({ type: 'socket.messageReceived', event: 'userdata', payload: { userdata: { balances: user.balances, currency_code: 'EUR' } } });
    expect(orderQueries.slice(before).map((q) => q.limit)).toEqual([10, 100]);
  });

  it('leaves the toast of an early close made here to the close flow, and toasts one made elsewhere', async () => {
    const { actor, child, socket, toasts, logIn } = startApp();
    await logIn();
    socket.report({ type: 'socket.connected' });
    const closedEarly = (id: number) => ({ ...makeOrder({ order_id: id, amount: 10 }), status: 'closed', result: 'closed_early', is_closed: true, payout: 6.5, profit_loss: -3.5 });
    actor.send({ type: 'order.closeRequested', orderId: 21 });
    socket.report({ type: 'socket.messageReceived', event: 'order_update', payload: { change: 'settled', order: closedEarly(21) } });
    actor.send({ type: 'order.closed', order: closedEarly(21) as never });
    expect(toasts()).toEqual([]);
    socket.report({ type: 'socket.messageReceived', event: 'order_update', payload: { change: 'settled', order: closedEarly(22) } });
    await waitFor(child('toasts'), (s) => s.context.toasts.length > 0);
    expect(toasts()).toEqual(['orders.settled_closed_early']);
  });
});
