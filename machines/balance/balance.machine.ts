/**
 * Balances per currency and which one the header shows (spec section 3, Balance state).
 *
 * Lifecycle: long-lived, spawned by the app. It is fed by the app: `balance.userLoaded` when a
 * session starts (balances plus the section 4 default-currency rule), `balance.balancesReceived`
 * from me / userdata / update_balances, `balance.currenciesReceived` from the socket, and
 * `balance.cleared` on logout. `balance.ratesReceived` (the server's rate table with the
 * userdata) sets the rates balances are compared at; while the currency or type was derived
 * (none saved) and the user has not chosen, the default is derived again at those rates. The user's choices (`balance.currencyChosen`,
 * `balance.typeChosen`) apply at once and go to the parent as `settings.changed` so the
 * session saves them; once saved (`balance.settingsSaved`, from the app) `savedNote` holds the
 * spec's success message, which the balance panel shows beside the control (issue 26: not a
 * toast); the next choice or logout clears it. A demo reset runs in `resettingDemo`; its outcome reaches the parent as a
 * `toast.requested` (a locale key, or the server's text on failure).
 */
import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import { CURRENCIES, DEFAULT_CURRENCY, type Currency, type RateTable } from '../../contract/currencies';
import type { BalanceType, Balances, FrontSettings, User } from '../../contract/user';
import { ErrorText } from '../../contract/envelope';
import { errorText, type SettingsPatch, type ToastRequest } from '../types';
import { defaultCurrencyChoice } from './default-currency';

export interface BalanceContext {
  balances: Balances;
  /** The catalogue shipped with the app until the server's list arrives over the socket. */
  currencies: Currency[];
  /** Whether the server's currency list has arrived (it comes only over the socket). */
  currenciesLoaded: boolean;
  selectedCurrency: string;
  balanceType: BalanceType;
  /** The success message of the last saved choice, shown beside its control; null when none. */
  savedNote: 'settings.currency_saved' | 'settings.balance_type_saved' | null;
  /** The market's rates against USD (the server's table; empty: the configured rates). */
  rates: RateTable;
  /** The user's saved choice while the shown one was derived (something unsaved) and not yet chosen; else null. */
  derivedFrom: Pick<FrontSettings, 'current_currency' | 'balance_type'> | null;
}

export type BalanceEvent =
  | { type: 'balance.userLoaded'; user: User }
  | { type: 'balance.balancesReceived'; balances: Balances }
  | { type: 'balance.currenciesReceived'; currencies: Currency[] }
  | { type: 'balance.ratesReceived'; rates: RateTable }
  | { type: 'balance.currencyChosen'; currency: string }
  | { type: 'balance.typeChosen'; balanceType: BalanceType }
  | { type: 'balance.demoResetRequested'; currency: string }
  | { type: 'balance.settingsSaved'; patch: SettingsPatch }
  | { type: 'balance.cleared' };

export type BalanceParentEvent = { type: 'settings.changed'; patch: SettingsPatch } | { type: 'toast.requested'; toast: ToastRequest };

export interface ResetDemoInput {
  currency: string;
}
/** POST /api/v2/payments/reset-demo-balance answers {new_balance: {CUR: amount}, message}. */
export interface ResetDemoOutput {
  new_balance: Record<string, number>;
  message?: string;
}

export const DEFAULT_BALANCE_TYPE: BalanceType = 'DemoBalance';

function applyNewDemoBalances(balances: Balances, newBalance: Record<string, number>): Balances {
  const next: Balances = { ...balances };
  for (const [code, amount] of Object.entries(newBalance)) {
    next[code] = { RealBalance: balances[code]?.RealBalance ?? 0, DemoBalance: amount };
  }
  return next;
}

export const balanceMachine = setup({
  types: {
    context: {} as BalanceContext,
    events: {} as BalanceEvent,
  },
  actors: {
    resetDemoBalance: fromPromise<ResetDemoOutput, ResetDemoInput>(() => {
      throw new Error('balanceMachine: the "resetDemoBalance" actor has no implementation; supply it with balanceMachine.provide()');
    }),
  },
  actions: {
    applyUser: assign(({ context, event }) => {
      assertEvent(event, 'balance.userLoaded');
      const choice = defaultCurrencyChoice(event.user, context.currencies, context.rates);
      const saved = event.user.front_settings;
      const derived = saved.current_currency === null || saved.balance_type === null || choice.currency !== saved.current_currency;
      return {
        balances: event.user.balances,
        selectedCurrency: choice.currency,
        balanceType: choice.balanceType,
        derivedFrom: derived ? { current_currency: saved.current_currency, balance_type: saved.balance_type } : null,
      };
    }),
    assignRates: assign(({ context, event }) => {
      assertEvent(event, 'balance.ratesReceived');
      if (context.derivedFrom === null) return { rates: event.rates };
      const choice = defaultCurrencyChoice({ balances: context.balances, front_settings: context.derivedFrom }, context.currencies, event.rates);
      return { rates: event.rates, selectedCurrency: choice.currency, balanceType: choice.balanceType };
    }),
    assignBalances: assign(({ event }) => {
      assertEvent(event, 'balance.balancesReceived');
      return { balances: event.balances };
    }),
    assignCurrencies: assign(({ event }) => {
      assertEvent(event, 'balance.currenciesReceived');
      return { currencies: event.currencies, currenciesLoaded: true };
    }),
    assignCurrency: assign(({ event }) => {
      assertEvent(event, 'balance.currencyChosen');
      return { selectedCurrency: event.currency, savedNote: null, derivedFrom: null };
    }),
    assignType: assign(({ event }) => {
      assertEvent(event, 'balance.typeChosen');
      return { balanceType: event.balanceType, savedNote: null, derivedFrom: null };
    }),
    assignSavedNote: assign(({ event }) => {
      assertEvent(event, 'balance.settingsSaved');
      return { savedNote: event.patch.current_currency !== undefined ? 'settings.currency_saved' : 'settings.balance_type_saved' };
    }),
    applyDemoReset: assign(({ context }, output: ResetDemoOutput) => ({ balances: applyNewDemoBalances(context.balances, output.new_balance) })),
    clear: assign({ balances: {}, selectedCurrency: DEFAULT_CURRENCY, balanceType: DEFAULT_BALANCE_TYPE, savedNote: null, derivedFrom: null }),
    notifyCurrencyChosen: sendParent(({ event }): BalanceParentEvent => {
      assertEvent(event, 'balance.currencyChosen');
      return { type: 'settings.changed', patch: { current_currency: event.currency } };
    }),
    notifyTypeChosen: sendParent(({ event }): BalanceParentEvent => {
      assertEvent(event, 'balance.typeChosen');
      return { type: 'settings.changed', patch: { balance_type: event.balanceType } };
    }),
    toastDemoReset: sendParent(
      (): BalanceParentEvent => ({ type: 'toast.requested', toast: { type: 'success', messageKey: 'balance.demo_reseted' } }),
    ),
    toastDemoResetFailed: sendParent(
      (_, params: { message: string | null }): BalanceParentEvent => ({
        type: 'toast.requested',
        toast: params.message ? { type: 'error', message: params.message } : { type: 'error', messageKey: 'common.operation_failed' },
      }),
    ),
  },
  guards: {
    isBalanceSetting: ({ event }) => {
      assertEvent(event, 'balance.settingsSaved');
      return event.patch.current_currency !== undefined || event.patch.balance_type !== undefined;
    },
    isCurrencyChange: ({ context, event }) => {
      assertEvent(event, 'balance.currencyChosen');
      return event.currency !== context.selectedCurrency;
    },
    isTypeChange: ({ context, event }) => {
      assertEvent(event, 'balance.typeChosen');
      return event.balanceType !== context.balanceType;
    },
  },
}).createMachine({
  id: 'balance',
  context: {
    balances: {},
    currencies: [...CURRENCIES],
    currenciesLoaded: false,
    selectedCurrency: DEFAULT_CURRENCY,
    balanceType: DEFAULT_BALANCE_TYPE,
    savedNote: null,
    rates: {},
    derivedFrom: null,
  },
  initial: 'idle',
  on: {
    'balance.userLoaded': { actions: 'applyUser' },
    'balance.balancesReceived': { actions: 'assignBalances' },
    'balance.currenciesReceived': { actions: 'assignCurrencies' },
    'balance.ratesReceived': {
      description: 'The market rates (with the userdata): a default the user has not chosen is derived again at them.',
      actions: 'assignRates',
    },
    'balance.currencyChosen': {
      guard: 'isCurrencyChange',
      description: 'Choosing the currency already shown saves nothing.',
      actions: ['assignCurrency', 'notifyCurrencyChosen'],
    },
    'balance.typeChosen': {
      guard: 'isTypeChange',
      actions: ['assignType', 'notifyTypeChosen'],
    },
    'balance.settingsSaved': {
      guard: 'isBalanceSetting',
      description: 'The saved currency or account type: its success message beside the control. Other settings are not the balance panel\'s.',
      actions: 'assignSavedNote',
    },
    'balance.cleared': { actions: 'clear' },
  },
  states: {
    idle: {
      on: { 'balance.demoResetRequested': 'resettingDemo' },
    },
    resettingDemo: {
      description: 'One reset at a time; a second request while one runs is ignored.',
      invoke: {
        id: 'resetDemoBalance',
        src: 'resetDemoBalance',
        input: ({ event }) => {
          assertEvent(event, 'balance.demoResetRequested');
          return { currency: event.currency };
        },
        onDone: {
          target: 'idle',
          actions: [{ type: 'applyDemoReset', params: ({ event }) => event.output }, 'toastDemoReset'],
        },
        onError: {
          target: 'idle',
          actions: { type: 'toastDemoResetFailed', params: ({ event }) => ({ message: errorText(event.error) }) },
        },
      },
    },
  },
});


/** The amount of the selected currency and balance type (0 when there is none). */
export function selectBalance(context: BalanceContext): number {
  return context.balances[context.selectedCurrency]?.[context.balanceType] ?? 0;
}

/** The symbol of the selected currency ('$' when unknown). */
export function selectCurrencySymbol(context: BalanceContext): string {
  return context.currencies.find((c) => c.iso_code === context.selectedCurrency)?.symbol ?? '$';
}

/**
 * Loading the currencies needs the socket (spec section 8, "WebSocket connection required"):
 * the server's list comes only over it, so without a live socket and before that list arrived
 * the currency choice says so (the app's own catalogue is still offered meanwhile).
 */
export function currenciesProblem(context: Pick<BalanceContext, 'currenciesLoaded'>, socketLive: boolean): string | null {
  return context.currenciesLoaded || socketLive ? null : ErrorText.websocketRequired;
}
