/**
 * The root of the browser app: it owns the long-lived actors and routes events between them.
 *
 * Lifecycle: on start it spawns session, balance, theme, locale, modals and toasts, each with
 * the same id and systemId (views reach them with `snapshot.children.<id>` or
 * `system.get('<id>')`), then forgets its startup input. It never ends.
 * Features (region `features`): what only a logged-in person uses is not loaded with the first
 * page. The first `session.loggedIn` invokes `loadFeatures` (the composition root loads the
 * feature chunk and provides the children's logic, see features.ts); when it is done the
 * long-lived feature children are spawned, each with its systemId: 'socket', 'paymentMethods',
 * 'transactions', 'pairs' (which owns the candles actor 'chart'), 'orderPlacement', 'orders',
 * 'traderPrefs', 'priceAlerts', 'support' and 'chartSetup'; if the session is still open the socket
 * connects with its token and trading starts with its user. A failed load is tried again after
 * `featuresRetryDelay`. The per-flow children of the features are spawned only in `ready`.
 * It routes:
 * - session logged in -> balance (user), locale and theme (the user's saved language and theme)
 *   and, once the features are ready, socket (token) and trading; logged out -> balance
 *   (cleared), a toast, and socket (no token), history cleared, trading ended; user re-fetched
 *   -> balance; token refreshed -> socket;
 * - socket messages -> their owner through SOCKET_ROUTES (below), and every message is also
 *   emitted as `socket.received` {event, payload} for any subscriber (`appActor.on(...)`);
 * - `settings.changed` from balance, theme, locale, chartSetup or traderPrefs -> session (saved
 *   only when logged in), and the save's outcome -> a toast;
 * - `toast.requested` from anyone -> toasts; `session.registered` from the registration flow
 *   -> session.
 * Two regions track the public wizards: `flow.registrationStarted` / `flow.passwordResetStarted`
 * spawn 'registration' / 'passwordReset' (replacing a previous one), the matching `...Ended`
 * events stop them. Inside `features.ready`: `flow.profileOpened` / `flow.profileClosed` spawn
 * and stop 'profilePage', the profile screen's section actors (their
 * `session.userRefreshRequested`, a new avatar or two-factor switched, goes to the session);
 * `flow.depositStarted` / `flow.withdrawStarted` {requestKey} spawn 'deposit' / 'withdraw' (the
 * currency and balances of the balance actor as input) and ask 'paymentMethods' for a fresh
 * catalogue, the matching `...Ended` events stop them; a child's `socket.emitRequested` goes to
 * the socket; an order placed or closed refreshes 'orders' and the balances (the session
 * re-fetches the user); the close flow's `order.closeRequested` goes to 'orders' (the flow
 * toasts that close itself); every userdata (the socket's answer after each (re)connect)
 * refreshes 'orders', since a settlement may have been missed while it was down;
 * `flow.orderCloseStarted {orderId}` / `flow.orderCloseEnded` spawn and stop 'orderClose'.
 * 'chartSetup' (chart type, studies and drawings per pair) gets the user's saved
 * `chart_setups` at login; 'traderPrefs' (keyboard trading and trade sounds) the saved
 * `keyboard_shortcuts` and `sounds` (order_update pushes play the sounds); 'priceAlerts' loads
 * the alerts at login, forgets them at logout, and price_alert pushes toast; 'support' (the
 * trader's tickets) likewise, and support_update pushes update its list and open thread.
 */
import { assertEvent, assign, emit, enqueueActions, fromPromise, sendTo, setup, spawnChild, stopChild, type AnyActorRef } from 'xstate';
import type { Language, ThemeSetting, User } from '../../contract/user';
import type { PersistedSession, SettingsPatch, SocketMessage, ToastRequest } from '../types';
import { SOCKET_ROUTES } from './socket-routes';
import { providedLater, type FeatureLogic } from './features';
import { sessionMachine, type SessionEvent, type SessionParentEvent } from '../session/session.machine';
import type { SocketEvent } from '../socket/socket.machine';
import { balanceMachine, type BalanceEvent } from '../balance/balance.machine';
import { themeMachine, type ThemeEvent } from '../theme/theme.machine';
import { localeMachine, type LocaleEvent } from '../locale/locale.machine';
import { modalsMachine } from '../modals/modals.machine';
import { toastsMachine, type ToastsEvent } from '../toasts/toasts.machine';
import { registrationMachine } from '../registration/registration.machine';
import { passwordResetMachine } from '../password-reset/password-reset.machine';
import type { Balances } from '../../contract/user';
import type { PaymentMethodsEvent } from '../payment-methods/payment-methods.machine';
import type { TransactionsEvent } from '../transactions/transactions.machine';
import type { Order } from '../../contract/orders';
import type { PairsEvent } from '../pairs/pairs.machine';
import type { OrdersEvent } from '../orders/orders.machine';
import type { ChartSetupEvent } from '../chart-setup/chart-setup.machine';
import type { TraderPrefsEvent } from '../trader-prefs/trader-prefs.machine';
import type { PriceAlertsEvent } from '../price-alerts/price-alerts.machine';
import type { SupportEvent } from '../support/support.machine';

export interface AppInput {
  persistedSession: PersistedSession | null;
  adminToken: string | null;
  storedLanguage: Language | null;
  storedTheme: ThemeSetting | null;
  systemPrefersDark: boolean;
}

export interface AppContext {
  /** The startup input, held only until the children are spawned from it. */
  startup: AppInput | null;
  /** The open session's token and user, kept so the features can start with it once their code is in. */
  signedIn: { token: string; user: User } | null;
}

export type AppEvent =
  | SessionParentEvent
  | ({ type: 'socket.messageReceived' } & SocketMessage)
  | { type: 'settings.changed'; patch: SettingsPatch }
  | { type: 'toast.requested'; toast: ToastRequest }
  | { type: 'session.registered'; token: string; refreshToken: string | null; user: User }
  | { type: 'flow.registrationStarted'; tracking?: Record<string, string>; language?: Language }
  | { type: 'flow.registrationEnded' }
  | { type: 'flow.passwordResetStarted'; linkToken?: string | null }
  | { type: 'flow.passwordResetEnded' }
  | { type: 'flow.profileOpened' }
  | { type: 'flow.profileClosed' }
  | { type: 'session.userRefreshRequested' }
  | { type: 'flow.depositStarted'; requestKey: string }
  | { type: 'flow.depositEnded' }
  | { type: 'flow.withdrawStarted'; requestKey: string }
  | { type: 'flow.withdrawEnded' }
  | { type: 'socket.emitRequested'; event: string; payload?: unknown }
  | { type: 'order.placed'; order: Order }
  | { type: 'order.closed'; order: Order }
  | { type: 'order.closeRequested'; orderId: number }
  | { type: 'flow.orderCloseStarted'; orderId: number }
  | { type: 'flow.orderCloseEnded' };

/** What subscribers of the root actor hear: `appActor.on('socket.received', ...)`. */
export type AppEmitted = { type: 'socket.received' } & SocketMessage;

export { SOCKET_ROUTES, type SocketRoute } from './socket-routes';

/** The ids (and systemIds) of the long-lived children. */
export const APP_CHILDREN = ['session', 'balance', 'theme', 'locale', 'modals', 'toasts'] as const;
/** The long-lived feature children, spawned once the features are loaded (features.ts). */
export const APP_FEATURE_CHILDREN = ['socket', 'paymentMethods', 'transactions', 'pairs', 'orderPlacement', 'orders', 'chartSetup', 'traderPrefs', 'priceAlerts', 'support'] as const;
export { FEATURE_CHILDREN, type FeatureLogic } from './features';


/**
 * The toast (if any) that confirms a saved settings change. Pair and timeframe save silently:
 * the chart itself shows the choice; currency and account type confirm beside their control
 * (the balance actor's savedNote) rather than in a toast (issue 26).
 */
export function settingsSavedToastKey(patch: SettingsPatch): string | null {
  if (patch.current_currency !== undefined || patch.balance_type !== undefined) return null;
  if (patch.language !== undefined || patch.theme !== undefined) return 'settings.saved';
  if (patch.keyboard_shortcuts !== undefined || patch.sounds !== undefined) return 'settings.saved';
  return null;
}

/** The balance actor's currency and balances (the money flows start from them). */
function currentBalances(self: AnyActorRef): { currency: string; balances: Balances } {
  const context: unknown = self.system.get('balance')?.getSnapshot()?.context;
  const currency: unknown = context && Reflect.get(context, 'selectedCurrency');
  const balances: unknown = context && Reflect.get(context, 'balances');
  return {
    currency: typeof currency === 'string' ? currency : 'USD',
    balances: typeof balances === 'object' && balances !== null ? (balances as Balances) : {},
  };
}

/** What the trading children hear when a session starts: the user's saved pair, chart setups and trader preferences. */
function tradingStartEvents(user: User): Array<['pairs', PairsEvent] | ['orders', OrdersEvent] | ['chartSetup', ChartSetupEvent] | ['traderPrefs', TraderPrefsEvent] | ['priceAlerts', PriceAlertsEvent] | ['support', SupportEvent]> {
  const { currentPair, currentTimeframe, chart_setups, keyboard_shortcuts, sounds, favourite_pairs } = user.front_settings;
  return [
    ['pairs', { type: 'pairs.sessionStarted', currentPair, currentTimeframe }],
    ['orders', { type: 'orders.sessionStarted' }],
    ['chartSetup', { type: 'chartSetup.sessionStarted', setups: chart_setups }],
    ['traderPrefs', { type: 'traderPrefs.userLoaded', shortcuts: keyboard_shortcuts, sounds, favourites: favourite_pairs }],
    ['priceAlerts', { type: 'alerts.sessionStarted' }],
    ['support', { type: 'support.sessionStarted' }],
  ];
}

function currentLanguage(self: AnyActorRef): Language | undefined {
  const locale: AnyActorRef | undefined = self.system.get('locale');
  const language: unknown = locale?.getSnapshot()?.context?.language;
  return language === 'en' || language === 'ru' || language === 'es' ? language : undefined;
}

export const appMachine = setup({
  types: {
    context: {} as AppContext,
    events: {} as AppEvent,
    input: {} as AppInput,
    emitted: {} as AppEmitted,
    children: {} as {
      session: 'session';
      socket: 'socket';
      balance: 'balance';
      theme: 'theme';
      locale: 'locale';
      modals: 'modals';
      toasts: 'toasts';
      registration: 'registration';
      passwordReset: 'passwordReset';
      profilePage: 'profilePage';
      paymentMethods: 'paymentMethods';
      transactions: 'transactions';
      deposit: 'deposit';
      withdraw: 'withdraw';
      pairs: 'pairs';
      orderPlacement: 'orderPlacement';
      orders: 'orders';
      orderClose: 'orderClose';
      chartSetup: 'chartSetup';
      traderPrefs: 'traderPrefs';
      priceAlerts: 'priceAlerts';
      support: 'support';
    },
  },
  actors: {
    session: sessionMachine,
    balance: balanceMachine,
    theme: themeMachine,
    locale: localeMachine,
    modals: modalsMachine,
    toasts: toastsMachine,
    registration: registrationMachine,
    passwordReset: passwordResetMachine,
    // The features: provided by the composition root once loadFeatures is done (features.ts).
    loadFeatures: fromPromise<void>(() => Promise.resolve()),
    socket: providedLater<FeatureLogic['socket']>('socket'),
    profilePage: providedLater<FeatureLogic['profilePage']>('profilePage'),
    paymentMethods: providedLater<FeatureLogic['paymentMethods']>('paymentMethods'),
    transactions: providedLater<FeatureLogic['transactions']>('transactions'),
    deposit: providedLater<FeatureLogic['deposit']>('deposit'),
    withdraw: providedLater<FeatureLogic['withdraw']>('withdraw'),
    pairs: providedLater<FeatureLogic['pairs']>('pairs'),
    orderPlacement: providedLater<FeatureLogic['orderPlacement']>('orderPlacement'),
    orders: providedLater<FeatureLogic['orders']>('orders'),
    orderClose: providedLater<FeatureLogic['orderClose']>('orderClose'),
    chartSetup: providedLater<FeatureLogic['chartSetup']>('chartSetup'),
    traderPrefs: providedLater<FeatureLogic['traderPrefs']>('traderPrefs'),
    priceAlerts: providedLater<FeatureLogic['priceAlerts']>('priceAlerts'),
    support: providedLater<FeatureLogic['support']>('support'),
  },
  delays: {
    featuresRetryDelay: 3_000,
  },
  guards: {
    isSignedIn: ({ context }) => context.signedIn !== null,
  },
  actions: {
    spawnSession: spawnChild('session', {
      id: 'session',
      systemId: 'session',
      input: ({ context }) => ({
        persistedSession: context.startup?.persistedSession ?? null,
        adminToken: context.startup?.adminToken ?? null,
      }),
    }),
    spawnBalance: spawnChild('balance', { id: 'balance', systemId: 'balance' }),
    spawnTheme: spawnChild('theme', {
      id: 'theme',
      systemId: 'theme',
      input: ({ context }) => ({
        stored: context.startup?.storedTheme ?? null,
        systemPrefersDark: context.startup?.systemPrefersDark ?? true,
      }),
    }),
    spawnLocale: spawnChild('locale', {
      id: 'locale',
      systemId: 'locale',
      input: ({ context }) => ({ stored: context.startup?.storedLanguage ?? null }),
    }),
    spawnModals: spawnChild('modals', { id: 'modals', systemId: 'modals' }),
    spawnToasts: spawnChild('toasts', { id: 'toasts', systemId: 'toasts' }),
    forgetStartup: assign({ startup: null }),
    rememberSignedIn: assign(({ event }) => {
      assertEvent(event, 'session.loggedIn');
      return { signedIn: { token: event.token, user: event.user } };
    }),
    rememberRefreshedToken: assign(({ context, event }) => {
      assertEvent(event, 'session.tokenRefreshed');
      return { signedIn: context.signedIn && { ...context.signedIn, token: event.token } };
    }),
    forgetSignedIn: assign({ signedIn: null }),

    connectSocket: sendTo('socket', ({ event }): SocketEvent => {
      assertEvent(event, 'session.loggedIn');
      return { type: 'socket.tokenChanged', token: event.token };
    }),
    connectSocketSignedIn: sendTo('socket', ({ context }): SocketEvent => ({ type: 'socket.tokenChanged', token: context.signedIn?.token ?? null })),
    updateSocketToken: sendTo('socket', ({ event }): SocketEvent => {
      assertEvent(event, 'session.tokenRefreshed');
      return { type: 'socket.tokenChanged', token: event.token };
    }),
    disconnectSocket: sendTo('socket', (): SocketEvent => ({ type: 'socket.tokenChanged', token: null })),
    loadBalances: sendTo('balance', ({ event }): BalanceEvent => {
      assertEvent(event, 'session.loggedIn');
      return { type: 'balance.userLoaded', user: event.user };
    }),
    refreshBalances: sendTo('balance', ({ event }): BalanceEvent => {
      assertEvent(event, 'session.userUpdated');
      return { type: 'balance.balancesReceived', balances: event.user.balances };
    }),
    clearBalances: sendTo('balance', (): BalanceEvent => ({ type: 'balance.cleared' })),
    adoptUserLanguage: sendTo('locale', ({ event }): LocaleEvent => {
      assertEvent(event, 'session.loggedIn');
      return { type: 'locale.userLoaded', language: event.user.front_settings.language };
    }),
    adoptUserTheme: sendTo('theme', ({ event }): ThemeEvent => {
      assertEvent(event, 'session.loggedIn');
      return { type: 'theme.userLoaded', theme: event.user.front_settings.theme };
    }),
    saveSettings: sendTo('session', ({ event }): SessionEvent => {
      assertEvent(event, 'settings.changed');
      return { type: 'session.settingsChanged', patch: event.patch };
    }),
    openRegisteredSession: sendTo('session', ({ event }): SessionEvent => {
      assertEvent(event, 'session.registered');
      return { type: 'session.registered', token: event.token, refreshToken: event.refreshToken, user: event.user };
    }),
    showToast: sendTo('toasts', ({ event }): ToastsEvent => {
      assertEvent(event, 'toast.requested');
      return { type: 'toast.requested', toast: event.toast };
    }),
    toastLoggedOut: sendTo('toasts', ({ event }): ToastsEvent => {
      assertEvent(event, 'session.loggedOut');
      return {
        type: 'toast.requested',
        toast: event.reason === 'unauthorized' ? { type: 'warning', messageKey: 'auth.session_expired' } : { type: 'info', messageKey: 'auth.logged_out' },
      };
    }),
    toastSettingsSaved: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'session.settingsSaved');
      const messageKey = settingsSavedToastKey(event.patch);
      if (messageKey) enqueue.sendTo('toasts', { type: 'toast.requested', toast: { type: 'success', messageKey } } satisfies ToastsEvent);
      enqueue.sendTo('balance', { type: 'balance.settingsSaved', patch: event.patch } satisfies BalanceEvent);
    }),
    toastSettingsFailed: sendTo('toasts', ({ event }): ToastsEvent => {
      assertEvent(event, 'session.settingsSaveFailed');
      return {
        type: 'toast.requested',
        toast: event.message ? { type: 'error', message: event.message } : { type: 'error', messageKey: 'common.operation_failed' },
      };
    }),
    routeSocketMessage: enqueueActions(({ event, system, enqueue }) => {
      assertEvent(event, 'socket.messageReceived');
      for (const route of SOCKET_ROUTES[event.event] ?? []) {
        const target: AnyActorRef | undefined = system.get(route.to);
        const routed = route.toEvent(event.payload);
        if (target && routed) enqueue.sendTo(target, routed);
      }
      enqueue(emit({ type: 'socket.received', event: event.event, payload: event.payload }));
    }),

    spawnRegistration: spawnChild('registration', {
      id: 'registration',
      systemId: 'registration',
      input: ({ event, self }) => {
        assertEvent(event, 'flow.registrationStarted');
        return { tracking: event.tracking ?? {}, language: event.language ?? currentLanguage(self) ?? 'en' };
      },
    }),
    stopRegistration: stopChild('registration'),
    spawnPasswordReset: spawnChild('passwordReset', {
      id: 'passwordReset',
      systemId: 'passwordReset',
      input: ({ event }) => {
        assertEvent(event, 'flow.passwordResetStarted');
        return { linkToken: event.linkToken ?? null };
      },
    }),
    stopPasswordReset: stopChild('passwordReset'),
    spawnProfilePage: spawnChild('profilePage', { id: 'profilePage', systemId: 'profilePage' }),
    stopProfilePage: stopChild('profilePage'),
    refreshUser: sendTo('session', (): SessionEvent => ({ type: 'session.userRefreshRequested' })),
    loadPaymentMethods: sendTo('paymentMethods', (): PaymentMethodsEvent => ({ type: 'paymentMethods.loadRequested' })),
    clearTransactions: sendTo('transactions', (): TransactionsEvent => ({ type: 'transactions.cleared' })),
    forwardToSocket: sendTo('socket', ({ event }): SocketEvent => {
      assertEvent(event, 'socket.emitRequested');
      return { type: 'socket.emitRequested', event: event.event, payload: event.payload };
    }),
    spawnDeposit: spawnChild('deposit', {
      id: 'deposit',
      systemId: 'deposit',
      input: ({ event, self }) => {
        assertEvent(event, 'flow.depositStarted');
        return { requestKey: event.requestKey, currency: currentBalances(self).currency };
      },
    }),
    stopDeposit: stopChild('deposit'),
    spawnWithdraw: spawnChild('withdraw', {
      id: 'withdraw',
      systemId: 'withdraw',
      input: ({ event, self }) => {
        assertEvent(event, 'flow.withdrawStarted');
        return { requestKey: event.requestKey, ...currentBalances(self) };
      },
    }),
    stopWithdraw: stopChild('withdraw'),
    spawnFeatures: enqueueActions(({ enqueue }) => {
      enqueue.spawnChild('socket', { id: 'socket', systemId: 'socket' });
      enqueue.spawnChild('paymentMethods', { id: 'paymentMethods', systemId: 'paymentMethods' });
      enqueue.spawnChild('transactions', { id: 'transactions', systemId: 'transactions' });
      enqueue.spawnChild('pairs', { id: 'pairs', systemId: 'pairs' });
      enqueue.spawnChild('orderPlacement', { id: 'orderPlacement', systemId: 'orderPlacement' });
      enqueue.spawnChild('orders', { id: 'orders', systemId: 'orders' });
      enqueue.spawnChild('traderPrefs', { id: 'traderPrefs', systemId: 'traderPrefs' });
      enqueue.spawnChild('priceAlerts', { id: 'priceAlerts', systemId: 'priceAlerts' });
      enqueue.spawnChild('support', { id: 'support', systemId: 'support' });
      enqueue.spawnChild('chartSetup', { id: 'chartSetup', systemId: 'chartSetup' });
    }),
    startTrading: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'session.loggedIn');
      for (const [to, sent] of tradingStartEvents(event.user)) enqueue.sendTo(to, sent);
    }),
    startTradingSignedIn: enqueueActions(({ context, enqueue }) => {
      if (!context.signedIn) return;
      for (const [to, sent] of tradingStartEvents(context.signedIn.user)) enqueue.sendTo(to, sent);
    }),
    endTrading: enqueueActions(({ enqueue }) => {
      enqueue.sendTo('pairs', { type: 'pairs.sessionEnded' } satisfies PairsEvent);
      enqueue.sendTo('orders', { type: 'orders.sessionEnded' } satisfies OrdersEvent);
      enqueue.sendTo('chartSetup', { type: 'chartSetup.sessionEnded' } satisfies ChartSetupEvent);
      enqueue.sendTo('priceAlerts', { type: 'alerts.sessionEnded' } satisfies PriceAlertsEvent);
      enqueue.sendTo('support', { type: 'support.sessionEnded' } satisfies SupportEvent);
    }),
    refreshOrdersAfterPlacement: sendTo('orders', ({ event }): OrdersEvent => {
      assertEvent(event, 'order.placed');
      return { type: 'orders.orderUpdated', change: 'opened', order: event.order };
    }),
    refreshOrdersAfterClose: sendTo('orders', ({ event }): OrdersEvent => {
      assertEvent(event, 'order.closed');
      return { type: 'orders.orderUpdated', change: 'settled', order: event.order };
    }),
    rememberOrderClose: sendTo('orders', ({ event }): OrdersEvent => {
      assertEvent(event, 'order.closeRequested');
      return { type: 'orders.closeRequested', orderId: event.orderId };
    }),
    spawnOrderClose: spawnChild('orderClose', {
      id: 'orderClose',
      systemId: 'orderClose',
      input: ({ event }) => {
        assertEvent(event, 'flow.orderCloseStarted');
        return { orderId: event.orderId };
      },
    }),
    stopOrderClose: stopChild('orderClose'),
  },
}).createMachine({
  id: 'app',
  context: ({ input }) => ({ startup: input, signedIn: null }),
  entry: ['spawnSession', 'spawnBalance', 'spawnTheme', 'spawnLocale', 'spawnModals', 'spawnToasts', 'forgetStartup'],
  type: 'parallel',
  on: {
    'session.userUpdated': { actions: 'refreshBalances' },
    'session.settingsSaved': { actions: 'toastSettingsSaved' },
    'session.settingsSaveFailed': { actions: 'toastSettingsFailed' },
    'session.registered': { actions: 'openRegisteredSession' },
    'socket.messageReceived': { actions: 'routeSocketMessage' },
    'settings.changed': { actions: 'saveSettings' },
    'toast.requested': { actions: 'showToast' },
    'session.userRefreshRequested': { actions: 'refreshUser' },
  },
  states: {
    account: {
      description: 'The session as the first page sees it. Its own region, so the features region handling the same events does not hide these (a parallel state takes its own transitions only when no region has one).',
      initial: 'signedOut',
      on: {
        'session.loggedIn': { target: '.signedIn', actions: ['rememberSignedIn', 'loadBalances', 'adoptUserLanguage', 'adoptUserTheme'] },
        'session.loggedOut': { target: '.signedOut', actions: ['forgetSignedIn', 'clearBalances', 'toastLoggedOut'] },
      },
      states: {
        signedOut: {},
        signedIn: {
          on: {
            'session.tokenRefreshed': { actions: 'rememberRefreshedToken' },
          },
        },
      },
    },
    features: {
      description: 'The logged-in features (socket, trading, money, profile, trader tools): their code loads when a session first opens, so the public pages and /auth never load it.',
      initial: 'notLoaded',
      states: {
        notLoaded: {
          on: {
            'session.loggedIn': { target: 'loading' },
          },
        },
        loading: {
          invoke: {
            id: 'loadFeatures',
            src: 'loadFeatures',
            onDone: [
              {
                guard: 'isSignedIn',
                target: 'ready',
                actions: ['spawnFeatures', 'connectSocketSignedIn', 'startTradingSignedIn'],
                description: 'The session is still open: the socket connects and trading starts with its user.',
              },
              { target: 'ready', actions: 'spawnFeatures', description: 'The session ended while the code loaded: the features wait for the next login.' },
            ],
            onError: { target: 'failed' },
          },
        },
        failed: {
          description: 'The feature chunk did not load (network): tried again after a pause.',
          after: {
            featuresRetryDelay: { target: 'loading' },
          },
        },
        ready: {
          type: 'parallel',
          on: {
            'session.loggedIn': { actions: ['connectSocket', 'startTrading'] },
            'session.loggedOut': { actions: ['disconnectSocket', 'clearTransactions', 'endTrading'] },
            'session.tokenRefreshed': { actions: 'updateSocketToken' },
            'socket.emitRequested': { actions: 'forwardToSocket', description: 'A child asks for a socket message (get_payment_methods, select_pair).' },
            'order.placed': { actions: ['refreshOrdersAfterPlacement', 'refreshUser'], description: 'Shown at once, even before the order_update push; the balances are re-fetched (spec section 4, Order).' },
            'order.closed': { actions: ['refreshOrdersAfterClose', 'refreshUser'], description: 'The list and the balances are refreshed (spec section 4, Order).' },
            'order.closeRequested': { actions: 'rememberOrderClose' },
          },
          states: {
            orderCloseFlow: {
              initial: 'idle',
              on: {
                'flow.orderCloseStarted': {
                  target: '.active',
                  description: 'A close confirmation for another order replaces the earlier one.',
                  actions: ['stopOrderClose', 'spawnOrderClose'],
                },
              },
              states: {
                idle: { description: 'No close confirmation: the orderClose machine, spawned per flow, starts at confirming.' },
                active: {
                  on: {
                    'flow.orderCloseEnded': { target: 'idle', actions: 'stopOrderClose' },
                  },
                },
              },
            },
            depositFlow: {
              initial: 'inactive',
              on: {
                'flow.depositStarted': {
                  target: '.active',
                  description: 'The deposit modal opened: a fresh wizard and a fresh method catalogue.',
                  actions: ['stopDeposit', 'spawnDeposit', 'loadPaymentMethods'],
                },
              },
              states: {
                inactive: {},
                active: {
                  on: {
                    'flow.depositEnded': { target: 'inactive', actions: 'stopDeposit' },
                  },
                },
              },
            },
            withdrawFlow: {
              initial: 'inactive',
              on: {
                'flow.withdrawStarted': {
                  target: '.active',
                  description: 'The withdraw modal opened: a fresh wizard and a fresh method catalogue.',
                  actions: ['stopWithdraw', 'spawnWithdraw', 'loadPaymentMethods'],
                },
              },
              states: {
                inactive: {},
                active: {
                  on: {
                    'flow.withdrawEnded': { target: 'inactive', actions: 'stopWithdraw' },
                  },
                },
              },
            },
            profileFlow: {
              initial: 'inactive',
              on: {
                'flow.profileOpened': {
                  target: '.active',
                  description: 'Each opening starts fresh sections (and loads fresh data).',
                  actions: ['stopProfilePage', 'spawnProfilePage'],
                },
              },
              states: {
                inactive: {},
                active: {
                  on: {
                    'flow.profileClosed': { target: 'inactive', actions: 'stopProfilePage' },
                  },
                },
              },
            },
          },
        },
      },
    },
    registrationFlow: {
      initial: 'inactive',
      on: {
        'flow.registrationStarted': {
          target: '.active',
          description: 'A new wizard replaces any earlier one, finished or not.',
          actions: ['stopRegistration', 'spawnRegistration'],
        },
      },
      states: {
        inactive: {},
        active: {
          on: {
            'flow.registrationEnded': { target: 'inactive', actions: 'stopRegistration' },
          },
        },
      },
    },
    passwordResetFlow: {
      initial: 'inactive',
      on: {
        'flow.passwordResetStarted': {
          target: '.active',
          description: 'A new flow replaces any earlier one, finished or not.',
          actions: ['stopPasswordReset', 'spawnPasswordReset'],
        },
      },
      states: {
        inactive: {},
        active: {
          on: {
            'flow.passwordResetEnded': { target: 'inactive', actions: 'stopPasswordReset' },
          },
        },
      },
    },
  },
});
