/**
 * The root of the browser app: it owns the long-lived actors and routes events between them.
 *
 * Lifecycle: on start it spawns session, socket, balance, theme, locale, modals and toasts, each
 * with the same id and systemId (views reach them with `snapshot.children.<id>` or
 * `system.get('<id>')`), then forgets its startup input. It never ends. It routes:
 * - session logged in -> socket (token), balance (user), locale and theme (the user's saved
 *   language and theme); logged out -> socket (no token), balance (cleared), a toast;
 *   user re-fetched -> balance; token refreshed -> socket;
 * - socket messages -> their owner through SOCKET_ROUTES (below), and every message is also
 *   emitted as `socket.received` {event, payload} for any subscriber (`appActor.on(...)`);
 * - `settings.changed` from balance, theme or locale -> session (saved only when logged in),
 *   and the save's outcome -> a toast;
 * - `toast.requested` from anyone -> toasts; `session.registered` from the registration flow
 *   -> session.
 * Two regions track the per-flow wizards: `flow.registrationStarted` / `flow.passwordResetStarted`
 * spawn 'registration' / 'passwordReset' (replacing a previous one), the matching `...Ended`
 * events stop them. `flow.profileOpened` / `flow.profileClosed` spawn and stop 'profilePage', the
 * profile screen's section actors; their `session.userRefreshRequested` (a new avatar, two-factor
 * switched) goes to the session.
 * Money: 'paymentMethods' and 'transactions' are long-lived; `flow.depositStarted` /
 * `flow.withdrawStarted` {requestKey} spawn 'deposit' / 'withdraw' (the currency and balances
 * of the balance actor as input) and ask 'paymentMethods' for a fresh catalogue, the matching
 * `...Ended` events stop them; a child's `socket.emitRequested` goes to the socket; logout
 * clears the history.
 * Trading: 'pairs' (which owns the candles actor 'chart'), 'orderPlacement' and 'orders' are
 * long-lived; login starts pairs and orders with the user's saved pair, logout ends them; an
 * order placed or closed refreshes 'orders' and the balances (the session re-fetches the user);
 * the close flow's `order.closeRequested` goes to 'orders' (the flow toasts that close itself);
 * every userdata (the socket's answer after each (re)connect) refreshes 'orders', since a
 * settlement may have been missed while it was down; `flow.orderCloseStarted {orderId}` /
 * `flow.orderCloseEnded` spawn and stop 'orderClose' (the close confirmation; the region is
 * `idle` before a flow starts).
 */
import * as v from 'valibot';
import { assertEvent, assign, emit, enqueueActions, sendTo, setup, spawnChild, stopChild, type AnyActorRef, type EventObject } from 'xstate';
import { CurrencySchema } from '../../contract/currencies';
import { BalancesSchema, type Language, type ThemeSetting, type User } from '../../contract/user';
import { SocketErrorSchema } from '../../contract/socket';
import type { PersistedSession, SettingsPatch, SocketMessage, ToastRequest } from '../types';
import { sessionMachine, type SessionEvent, type SessionParentEvent } from '../session/session.machine';
import { socketMachine, type SocketEvent } from '../socket/socket.machine';
import { balanceMachine, type BalanceEvent } from '../balance/balance.machine';
import { themeMachine, type ThemeEvent } from '../theme/theme.machine';
import { localeMachine, type LocaleEvent } from '../locale/locale.machine';
import { modalsMachine } from '../modals/modals.machine';
import { toastsMachine, type ToastsEvent } from '../toasts/toasts.machine';
import { registrationMachine } from '../registration/registration.machine';
import { passwordResetMachine } from '../password-reset/password-reset.machine';
import { profilePageMachine } from '../profile/profile-page.machine';
import { DocumentStatusUpdateEventSchema } from '../../contract/profile';
import type { DocumentsEvent } from '../documents/documents.machine';
import { InitPaymentSystemsSchema, PaymentStatusUpdateEventSchema } from '../../contract/payments';
import type { Balances } from '../../contract/user';
import { paymentMethodsMachine, type PaymentMethodsEvent } from '../payment-methods/payment-methods.machine';
import { depositMachine, type DepositEvent } from '../deposit/deposit.machine';
import { withdrawMachine, type WithdrawEvent } from '../withdraw/withdraw.machine';
import { transactionsMachine, type TransactionsEvent } from '../transactions/transactions.machine';
import { OrderUpdateEventSchema, type Order } from '../../contract/orders';
import { InitCandlesSchema, InitPairsSchema, NewPriceSchema, PairsRatesSchema, PriceUpdateSchema } from '../../contract/socket';
import { pairsMachine, type PairsEvent } from '../pairs/pairs.machine';
import type { ChartEvent } from '../chart/chart.machine';
import { orderPlacementMachine } from '../order-placement/order-placement.machine';
import { ordersMachine, type OrdersEvent } from '../orders/orders.machine';
import { orderCloseMachine } from '../order-close/order-close.machine';

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

/** The ids (and systemIds) of the long-lived children. */
export const APP_CHILDREN = ['session', 'socket', 'balance', 'theme', 'locale', 'modals', 'toasts', 'paymentMethods', 'transactions', 'pairs', 'orderPlacement', 'orders'] as const;

/**
 * Where each incoming socket event goes: the systemId of its owner and the event it becomes
 * (null when the payload does not validate, so a malformed push is dropped). A feature that owns
 * live data adds its routes here, e.g. init_pairs / pairs_rates / price_update to 'pairs',
 * new_price / init_candles to its candles actor, payment_status_update to 'payments'. Every
 * message is emitted as `socket.received` as well, routed or not.
 */
export interface SocketRoute {
  to: string;
  toEvent: (payload: unknown) => EventObject | null;
}

const UserdataPayload = v.object({
  userdata: v.object({ balances: BalancesSchema }),
  valuts: v.optional(v.array(CurrencySchema)),
});
const UpdateBalancesPayload = v.object({ balances: BalancesSchema });
const InitValutsPayload = v.object({ valuts_data: v.array(CurrencySchema) });

/** payment_status_update -> its event for the deposit, withdraw and transactions actors. */
function paymentStatusRoute<E extends EventObject>(to: string, make: (update: { transactionId: number; status: PaymentStatus; transactionType?: 'deposit' | 'withdrawal' }) => E): SocketRoute {
  return {
    to,
    toEvent: (payload): E | null => {
      const parsed = v.safeParse(PaymentStatusUpdateEventSchema, payload);
      if (!parsed.success) return null;
      const { id, status, transaction_type } = parsed.output.transaction;
      return make({ transactionId: id, status, transactionType: transaction_type });
    },
  };
}
type PaymentStatus = v.InferOutput<typeof PaymentStatusUpdateEventSchema>['transaction']['status'];

export const SOCKET_ROUTES: Record<string, SocketRoute[]> = {
  init_pairs: [
    {
      to: 'pairs',
      toEvent: (payload): PairsEvent | null => {
        const parsed = v.safeParse(InitPairsSchema, payload);
        return parsed.success ? { type: 'pairs.pairsReceived', pairs: parsed.output.pairs } : null;
      },
    },
  ],
  pairs_rates: [
    {
      to: 'pairs',
      toEvent: (payload): PairsEvent | null => {
        const parsed = v.safeParse(PairsRatesSchema, payload);
        return parsed.success ? { type: 'pairs.ratesReceived', rates: parsed.output.rates } : null;
      },
    },
  ],
  price_update: [
    {
      to: 'pairs',
      toEvent: (payload): PairsEvent | null => {
        const parsed = v.safeParse(PriceUpdateSchema, payload);
        return parsed.success ? { type: 'pairs.priceUpdated', pairCode: parsed.output.pair_code, price: parsed.output.price } : null;
      },
    },
  ],
  init_candles: [
    {
      to: 'chart',
      toEvent: (payload): ChartEvent | null => {
        const parsed = v.safeParse(InitCandlesSchema, payload);
        return parsed.success ? { type: 'chart.candlesReceived', pairCode: parsed.output.pair_code, timeframe: parsed.output.timeframe, candles: parsed.output.candles } : null;
      },
    },
  ],
  new_price: [
    {
      // new_price carries the bucket start as `time` and no volume (the chart keeps the last one).
      to: 'chart',
      toEvent: (payload): ChartEvent | null => {
        const parsed = v.safeParse(NewPriceSchema, payload);
        if (!parsed.success) return null;
        const { pair_code, timeframe, time, open, high, low, close } = parsed.output;
        return { type: 'chart.candleUpdated', candle: { pair_code, timeframe, timestamp: time, open, high, low, close, volume: 0 } };
      },
    },
  ],
  order_update: [
    {
      to: 'orders',
      toEvent: (payload): OrdersEvent | null => {
        const parsed = v.safeParse(OrderUpdateEventSchema, payload);
        return parsed.success ? { type: 'orders.orderUpdated', change: parsed.output.change, order: parsed.output.order } : null;
      },
    },
  ],
  init_payment_systems: [
    {
      to: 'paymentMethods',
      toEvent: (payload): PaymentMethodsEvent | null => {
        const parsed = v.safeParse(InitPaymentSystemsSchema, payload);
        return parsed.success ? { type: 'paymentMethods.received', methods: parsed.output.payment_systems } : null;
      },
    },
  ],
  payment_status_update: [
    paymentStatusRoute('deposit', (u): DepositEvent => ({ type: 'deposit.statusUpdated', transactionId: u.transactionId, status: u.status })),
    paymentStatusRoute('withdraw', (u): WithdrawEvent => ({ type: 'withdraw.statusUpdated', transactionId: u.transactionId, status: u.status })),
    paymentStatusRoute('transactions', (u): TransactionsEvent => ({ type: 'transactions.statusUpdated', ...u })),
  ],
  document_status_update: [
    {
      to: 'documents',
      toEvent: (payload): DocumentsEvent | null => {
        const parsed = v.safeParse(DocumentStatusUpdateEventSchema, payload);
        return parsed.success ? { type: 'documents.statusUpdated', document: parsed.output.document } : null;
      },
    },
  ],
  userdata: [
    {
      to: 'balance',
      toEvent: (payload): BalanceEvent | null => {
        const parsed = v.safeParse(UserdataPayload, payload);
        return parsed.success ? { type: 'balance.balancesReceived', balances: parsed.output.userdata.balances } : null;
      },
    },
    {
      to: 'balance',
      toEvent: (payload): BalanceEvent | null => {
        const parsed = v.safeParse(UserdataPayload, payload);
        return parsed.success && parsed.output.valuts ? { type: 'balance.currenciesReceived', currencies: parsed.output.valuts } : null;
      },
    },
    {
      // userdata answers the get_userdata the socket sends after every (re)connect, once the
      // socket is authenticated (in the user's room): pushes flow again from here, and the
      // orders are fetched again in case a settlement was pushed while the socket was down.
      to: 'orders',
      toEvent: (payload): OrdersEvent | null => (v.safeParse(UserdataPayload, payload).success ? { type: 'orders.refreshRequested' } : null),
    },
  ],
  update_balances: [
    {
      to: 'balance',
      toEvent: (payload): BalanceEvent | null => {
        const parsed = v.safeParse(UpdateBalancesPayload, payload);
        return parsed.success ? { type: 'balance.balancesReceived', balances: parsed.output.balances } : null;
      },
    },
    {
      // The withdraw form limits the amount by the real balance.
      to: 'withdraw',
      toEvent: (payload): WithdrawEvent | null => {
        const parsed = v.safeParse(UpdateBalancesPayload, payload);
        return parsed.success ? { type: 'withdraw.balancesReceived', balances: parsed.output.balances } : null;
      },
    },
  ],
  init_valuts: [
    {
      to: 'balance',
      toEvent: (payload): BalanceEvent | null => {
        const parsed = v.safeParse(InitValutsPayload, payload);
        return parsed.success ? { type: 'balance.currenciesReceived', currencies: parsed.output.valuts_data } : null;
      },
    },
  ],
  error_message: [
    {
      // The socket refused our token (it expired): re-fetching the user makes the HTTP client
      // refresh it, and the refreshed token reaches the socket as a new provide_token.
      to: 'session',
      toEvent: (payload): SessionEvent | null => {
        const parsed = v.safeParse(SocketErrorSchema, payload);
        const refused = parsed.success && parsed.output.message === 'Unauthorized' && ['provide_token', 'get_userdata'].includes(parsed.output.event);
        return refused ? { type: 'session.userRefreshRequested' } : null;
      },
    },
    {
      // select_pair refused (e.g. "Pair not found"): the chart stops waiting for its candles.
      to: 'chart',
      toEvent: (payload): ChartEvent | null => {
        const parsed = v.safeParse(SocketErrorSchema, payload);
        return parsed.success && parsed.output.event === 'select_pair' ? { type: 'chart.subscriptionFailed', message: parsed.output.message } : null;
      },
    },
  ],
};

/** The toast (if any) that confirms a saved settings change. Pair and timeframe show on the chart itself. */
export function settingsSavedToastKey(patch: SettingsPatch): string | null {
  if (patch.current_currency !== undefined) return 'settings.currency_saved';
  if (patch.balance_type !== undefined) return 'settings.balance_type_saved';
  if (patch.language !== undefined || patch.theme !== undefined) return 'settings.saved';
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
    },
  },
  actors: {
    session: sessionMachine,
    socket: socketMachine,
    balance: balanceMachine,
    theme: themeMachine,
    locale: localeMachine,
    modals: modalsMachine,
    toasts: toastsMachine,
    registration: registrationMachine,
    passwordReset: passwordResetMachine,
    profilePage: profilePageMachine,
    paymentMethods: paymentMethodsMachine,
    transactions: transactionsMachine,
    deposit: depositMachine,
    withdraw: withdrawMachine,
    pairs: pairsMachine,
    orderPlacement: orderPlacementMachine,
    orders: ordersMachine,
    orderClose: orderCloseMachine,
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
    spawnSocket: spawnChild('socket', { id: 'socket', systemId: 'socket' }),
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

    connectSocket: sendTo('socket', ({ event }): SocketEvent => {
      assertEvent(event, 'session.loggedIn');
      return { type: 'socket.tokenChanged', token: event.token };
    }),
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
    spawnPaymentMethods: spawnChild('paymentMethods', { id: 'paymentMethods', systemId: 'paymentMethods' }),
    spawnTransactions: spawnChild('transactions', { id: 'transactions', systemId: 'transactions' }),
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
    spawnPairs: spawnChild('pairs', { id: 'pairs', systemId: 'pairs' }),
    spawnOrderPlacement: spawnChild('orderPlacement', { id: 'orderPlacement', systemId: 'orderPlacement' }),
    spawnOrders: spawnChild('orders', { id: 'orders', systemId: 'orders' }),
    startTrading: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'session.loggedIn');
      const { currentPair, currentTimeframe } = event.user.front_settings;
      enqueue.sendTo('pairs', { type: 'pairs.sessionStarted', currentPair, currentTimeframe } satisfies PairsEvent);
      enqueue.sendTo('orders', { type: 'orders.sessionStarted' } satisfies OrdersEvent);
    }),
    endTrading: enqueueActions(({ enqueue }) => {
      enqueue.sendTo('pairs', { type: 'pairs.sessionEnded' } satisfies PairsEvent);
      enqueue.sendTo('orders', { type: 'orders.sessionEnded' } satisfies OrdersEvent);
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
  context: ({ input }) => ({ startup: input }),
  entry: [
    'spawnSession',
    'spawnSocket',
    'spawnBalance',
    'spawnTheme',
    'spawnLocale',
    'spawnModals',
    'spawnToasts',
    'spawnPaymentMethods',
    'spawnTransactions',
    'spawnPairs',
    'spawnOrderPlacement',
    'spawnOrders',
    'forgetStartup',
  ],
  type: 'parallel',
  on: {
    'session.loggedIn': { actions: ['connectSocket', 'loadBalances', 'adoptUserLanguage', 'adoptUserTheme', 'startTrading'] },
    'session.loggedOut': { actions: ['disconnectSocket', 'clearBalances', 'toastLoggedOut', 'clearTransactions', 'endTrading'] },
    'session.userUpdated': { actions: 'refreshBalances' },
    'session.tokenRefreshed': { actions: 'updateSocketToken' },
    'session.settingsSaved': { actions: 'toastSettingsSaved' },
    'session.settingsSaveFailed': { actions: 'toastSettingsFailed' },
    'session.registered': { actions: 'openRegisteredSession' },
    'socket.messageReceived': { actions: 'routeSocketMessage' },
    'settings.changed': { actions: 'saveSettings' },
    'toast.requested': { actions: 'showToast' },
    'session.userRefreshRequested': { actions: 'refreshUser' },
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
});

export type AppMachine = typeof appMachine;
