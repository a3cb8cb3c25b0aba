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
 * events stop them.
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
  | { type: 'flow.passwordResetEnded' };

/** What subscribers of the root actor hear: `appActor.on('socket.received', ...)`. */
export type AppEmitted = { type: 'socket.received' } & SocketMessage;

/** The ids (and systemIds) of the long-lived children. */
export const APP_CHILDREN = ['session', 'socket', 'balance', 'theme', 'locale', 'modals', 'toasts'] as const;

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

export const SOCKET_ROUTES: Record<string, SocketRoute[]> = {
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
  ],
  update_balances: [
    {
      to: 'balance',
      toEvent: (payload): BalanceEvent | null => {
        const parsed = v.safeParse(UpdateBalancesPayload, payload);
        return parsed.success ? { type: 'balance.balancesReceived', balances: parsed.output.balances } : null;
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
  ],
};

/** The toast (if any) that confirms a saved settings change. Pair and timeframe show on the chart itself. */
export function settingsSavedToastKey(patch: SettingsPatch): string | null {
  if (patch.current_currency !== undefined) return 'settings.currency_saved';
  if (patch.balance_type !== undefined) return 'settings.balance_type_saved';
  if (patch.language !== undefined || patch.theme !== undefined) return 'settings.saved';
  return null;
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
    'forgetStartup',
  ],
  type: 'parallel',
  on: {
    'session.loggedIn': { actions: ['connectSocket', 'loadBalances', 'adoptUserLanguage', 'adoptUserTheme'] },
    'session.loggedOut': { actions: ['disconnectSocket', 'clearBalances', 'toastLoggedOut'] },
    'session.userUpdated': { actions: 'refreshBalances' },
    'session.tokenRefreshed': { actions: 'updateSocketToken' },
    'session.settingsSaved': { actions: 'toastSettingsSaved' },
    'session.settingsSaveFailed': { actions: 'toastSettingsFailed' },
    'session.registered': { actions: 'openRegisteredSession' },
    'socket.messageReceived': { actions: 'routeSocketMessage' },
    'settings.changed': { actions: 'saveSettings' },
    'toast.requested': { actions: 'showToast' },
  },
  states: {
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

export type AppMachine = typeof appMachine;
