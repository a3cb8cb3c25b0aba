/**
 * Balance: generated paths, the default-currency rule of spec section 4 as a table, the
 * selectors, and what the machine tells its parent (settings changes, demo reset toasts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fromPromise, type AnyEventObject } from 'xstate';
import { CURRENCIES } from '../../contract/currencies';
import type { Balances, BalanceType } from '../../contract/user';
import { balanceMachine, currenciesProblem, selectBalance, selectCurrencySymbol, type ResetDemoOutput } from '../../machines/balance/balance.machine';
import { defaultCurrencyChoice } from '../../machines/balance/default-currency';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';
import { makeUser } from './fixtures';

const withSettings = makeUser({
  balances: { USD: { RealBalance: 50, DemoBalance: 10000 }, EUR: { RealBalance: 0, DemoBalance: 10000 } },
  front_settings: { current_currency: 'EUR', balance_type: 'DemoBalance' },
});
const withoutSettings = makeUser({ balances: { GBP: { RealBalance: 0, DemoBalance: 10000 } } });

const events: AnyEventObject[] = [
  { type: 'balance.userLoaded', user: withSettings },
  { type: 'balance.userLoaded', user: withoutSettings },
  { type: 'balance.balancesReceived', balances: { USD: { RealBalance: 75, DemoBalance: 9000 } } },
  { type: 'balance.currenciesReceived', currencies: CURRENCIES.slice(0, 3) },
  { type: 'balance.currencyChosen', currency: 'EUR' },
  { type: 'balance.currencyChosen', currency: 'USD' },
  { type: 'balance.typeChosen', balanceType: 'RealBalance' },
  { type: 'balance.typeChosen', balanceType: 'DemoBalance' },
  { type: 'balance.demoResetRequested', currency: 'USD' },
  { type: 'balance.cleared' },
  { type: 'xstate.done.actor.resetDemoBalance', output: { new_balance: { USD: 10000 }, message: 'demo_reseted' } },
  { type: 'xstate.error.actor.resetDemoBalance', error: { message: 'Too many requests, please try again later' } },
  { type: 'xstate.error.actor.resetDemoBalance', error: null },
  { type: 'balance.settingsSaved', patch: { current_currency: 'EUR' } },
  { type: 'balance.settingsSaved', patch: { balance_type: 'RealBalance' } },
  { type: 'balance.settingsSaved', patch: { theme: 'light' } },
  { type: 'balance.ratesReceived', rates: { EUR: { per_usd: 0.86, source: 'pair', pair: 'EUR/USD', at: 1 } } },
];

const model: PathModel = {
  name: 'balance',
  machine: balanceMachine,
  events,
  simplePaths: 300,
  simplePathEvents: [events[1], events[4], events[8], events[10], events[11]],
};

describe('balance machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('balance'));
});

describe('default currency rule (spec section 4)', () => {
  const b = (real: number, demo: number) => ({ RealBalance: real, DemoBalance: demo });
  const cases: Array<[string, Balances, { current_currency?: string | null; balance_type?: BalanceType | null }, string, BalanceType]> = [
    ['saved settings win', { USD: b(100, 0), EUR: b(0, 5) }, { current_currency: 'EUR', balance_type: 'DemoBalance' }, 'EUR', 'DemoBalance'],
    ['no settings: highest real balance', { USD: b(10, 10000), EUR: b(50, 10000) }, {}, 'EUR', 'RealBalance'],
    ['highest real balance by value, not by raw number', { USD: b(100, 0), JPY: b(1000, 0) }, {}, 'USD', 'RealBalance'],
    ['all real zero: highest demo balance, on demo', { USD: b(0, 100), GBP: b(0, 10000) }, {}, 'GBP', 'DemoBalance'],
    ['nothing at all: USD and RealBalance', { USD: b(0, 0) }, {}, 'USD', 'RealBalance'],
    ['no balances: USD and RealBalance', {}, {}, 'USD', 'RealBalance'],
    ['only the type missing: the saved currency stays, the type follows the balances', { USD: b(5, 0), EUR: b(0, 0) }, { current_currency: 'EUR' }, 'EUR', 'RealBalance'],
    ['only the currency missing: derived currency, saved type', { USD: b(0, 10000) }, { balance_type: 'RealBalance' }, 'USD', 'RealBalance'],
    ['an unknown saved currency counts as missing', { EUR: b(3, 0) }, { current_currency: 'XXX', balance_type: 'DemoBalance' }, 'EUR', 'DemoBalance'],
    ['ties keep the currency listed first', { EUR: b(0, 0), USD: b(0, 0) }, {}, 'USD', 'RealBalance'],
    ['equal value ties keep the list order', { GBP: b(79, 0), USD: b(100, 0) }, {}, 'USD', 'RealBalance'],
  ];
  it.each(cases)('%s', (_, balances, settings, currency, balanceType) => {
    const user = makeUser({ balances, front_settings: settings });
    expect(defaultCurrencyChoice(user)).toEqual({ currency, balanceType });
  });
});

describe('default currency at the market rates (issue 26)', () => {
  const rate = (per_usd: number, pair: string) => ({ per_usd, source: 'pair' as const, pair, at: 1_800_000_000_000 });
  // 100 USD against 92 EUR: equal at the configured 0.92 EUR per USD (USD wins the tie), but EUR
  // is worth more at the market's EUR/USD 1.16 (92 EUR = $106.7).
  const balances = { USD: { RealBalance: 100, DemoBalance: 0 }, EUR: { RealBalance: 92, DemoBalance: 0 } };

  it('compares balances at the rate table, not the configured rates', () => {
    const user = makeUser({ balances, front_settings: {} });
    expect(defaultCurrencyChoice(user).currency).toBe('USD');
    expect(defaultCurrencyChoice(user, CURRENCIES, { EUR: rate(1 / 1.16, 'EUR/USD') })).toEqual({ currency: 'EUR', balanceType: 'RealBalance' });
  });

  it('derives an unsaved default again when the rates arrive, but never overrides a choice', () => {
    const { actor } = startUnderParent(balanceMachine);
    actor.send({ type: 'balance.userLoaded', user: makeUser({ balances, front_settings: {} }) });
    expect(actor.getSnapshot().context.selectedCurrency).toBe('USD');
    actor.send({ type: 'balance.ratesReceived', rates: { EUR: rate(1 / 1.16, 'EUR/USD') } });
    expect(actor.getSnapshot().context.selectedCurrency).toBe('EUR');
    actor.send({ type: 'balance.currencyChosen', currency: 'USD' });
    actor.send({ type: 'balance.ratesReceived', rates: { EUR: rate(1 / 1.2, 'EUR/USD') } });
    expect(actor.getSnapshot().context.selectedCurrency).toBe('USD');

    // Saved settings are never re-derived.
    const saved = startUnderParent(balanceMachine).actor;
    saved.send({ type: 'balance.userLoaded', user: makeUser({ balances, front_settings: { current_currency: 'USD', balance_type: 'RealBalance' } }) });
    saved.send({ type: 'balance.ratesReceived', rates: { EUR: rate(1 / 1.16, 'EUR/USD') } });
    expect(saved.getSnapshot().context.selectedCurrency).toBe('USD');
  });
});

describe('balance behaviour', () => {
  it('applies the rule when a user loads, and the selectors read the shown balance', () => {
    const { actor } = startUnderParent(balanceMachine);
    actor.send({ type: 'balance.userLoaded', user: withoutSettings });
    const { context } = actor.getSnapshot();
    expect(context.selectedCurrency).toBe('GBP');
    expect(context.balanceType).toBe('DemoBalance');
    expect(selectBalance(context)).toBe(10000);
    expect(selectCurrencySymbol(context)).toBe('£');
    actor.send({ type: 'balance.balancesReceived', balances: { GBP: { RealBalance: 1, DemoBalance: 42.5 } } });
    expect(selectBalance(actor.getSnapshot().context)).toBe(42.5);
    expect(selectCurrencySymbol({ ...context, selectedCurrency: 'ZZZ' })).toBe('$');
    expect(selectBalance({ ...context, selectedCurrency: 'ZZZ' })).toBe(0);
  });

  it('says "WebSocket connection required" while the currencies could only come over a socket that is not live', () => {
    const { actor } = startUnderParent(balanceMachine);
    expect(currenciesProblem(actor.getSnapshot().context, false)).toBe('WebSocket connection required');
    expect(currenciesProblem(actor.getSnapshot().context, true)).toBeNull();
    actor.send({ type: 'balance.currenciesReceived', currencies: [...CURRENCIES] });
    expect(currenciesProblem(actor.getSnapshot().context, false)).toBeNull();
  });

  it('sends a settings change for a new currency or type, nothing for the same one', () => {
    const { actor, parentEvents } = startUnderParent(balanceMachine);
    actor.send({ type: 'balance.currencyChosen', currency: 'USD' });
    actor.send({ type: 'balance.currencyChosen', currency: 'EUR' });
    actor.send({ type: 'balance.typeChosen', balanceType: 'DemoBalance' });
    actor.send({ type: 'balance.typeChosen', balanceType: 'RealBalance' });
    expect(parentEvents).toEqual([
      { type: 'settings.changed', patch: { current_currency: 'EUR' } },
      { type: 'settings.changed', patch: { balance_type: 'RealBalance' } },
    ]);
    actor.send({ type: 'balance.cleared' });
    expect(actor.getSnapshot().context).toMatchObject({ balances: {}, selectedCurrency: 'USD', balanceType: 'DemoBalance' });
  });

  it('resets the demo balance once at a time and toasts the outcome', async () => {
    const calls: string[] = [];
    let finish: (output: ResetDemoOutput) => void = () => {};
    const machine = balanceMachine.provide({
      actors: {
        resetDemoBalance: fromPromise<ResetDemoOutput, { currency: string }>(({ input }) => {
          calls.push(input.currency);
          return new Promise((resolve) => (finish = resolve));
        }),
      },
    });
    const { actor, parentEvents } = startUnderParent(machine);
    actor.send({ type: 'balance.balancesReceived', balances: { USD: { RealBalance: 12, DemoBalance: 3 } } });
    actor.send({ type: 'balance.demoResetRequested', currency: 'USD' });
    actor.send({ type: 'balance.demoResetRequested', currency: 'USD' });
    expect(actor.getSnapshot().value).toBe('resettingDemo');
    finish({ new_balance: { USD: 10000 }, message: 'demo_reseted' });
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual(['USD']);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.balances.USD).toEqual({ RealBalance: 12, DemoBalance: 10000 });
    expect(parentEvents).toEqual([{ type: 'toast.requested', toast: { type: 'success', messageKey: 'balance.demo_reseted' } }]);
  });

  it('toasts the server message on a failed reset, or operation_failed without one', async () => {
    const failWith = (error: unknown) =>
      balanceMachine.provide({ actors: { resetDemoBalance: fromPromise<ResetDemoOutput, { currency: string }>(() => Promise.reject(error)) } });
    const withText = startUnderParent(failWith(new Error('Too many requests, please try again later')));
    withText.actor.send({ type: 'balance.demoResetRequested', currency: 'USD' });
    const silent = startUnderParent(failWith(undefined));
    silent.actor.send({ type: 'balance.demoResetRequested', currency: 'USD' });
    await new Promise((r) => setTimeout(r, 0));
    expect(withText.parentEvents).toEqual([{ type: 'toast.requested', toast: { type: 'error', message: 'Too many requests, please try again later' } }]);
    expect(silent.parentEvents).toEqual([{ type: 'toast.requested', toast: { type: 'error', messageKey: 'common.operation_failed' } }]);
  });
});

describe('a saved choice confirms beside its control (issue 26)', () => {
  it('holds the success message of the saved currency or account type until the next choice', () => {
    const { actor } = startUnderParent(balanceMachine);
    const note = () => actor.getSnapshot().context.savedNote;
    expect(note()).toBeNull();
    actor.send({ type: 'balance.settingsSaved', patch: { theme: 'light' } });
    expect(note()).toBeNull();
    actor.send({ type: 'balance.settingsSaved', patch: { current_currency: 'EUR' } });
    expect(note()).toBe('settings.currency_saved');
    actor.send({ type: 'balance.typeChosen', balanceType: 'RealBalance' });
    expect(note()).toBeNull();
    actor.send({ type: 'balance.settingsSaved', patch: { balance_type: 'RealBalance' } });
    expect(note()).toBe('settings.balance_type_saved');
    actor.send({ type: 'balance.cleared' });
    expect(note()).toBeNull();
  });
});
