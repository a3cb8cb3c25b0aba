/**
 * The withdraw machine's generated paths, replayed through the rendered withdraw modal
 * (WithdrawModal on the real app machine, which spawns the real withdraw machine with the
 * balances, and routes the method catalogue, balance pushes and payment statuses to it; only
 * `createWithdrawal` is a controlled stub). A person picks the currency and a method by name,
 * types the amount and the card number or wallet address, presses Withdraw or Back; the server
 * answers the request and pushes update_balances and payment_status_update. At every step the
 * screen must show the step in the indicator, the real balance available, the amount and
 * requisites kept, the server's refusal, the busy button, and the outcome with its reference.
 *
 * The form checks the amount and requisites before sending, so only valid details reach the
 * machine (its own rules are covered by its path test and by wallet.test.tsx).
 */
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { withdrawMachine, withdrawOutcome, type WithdrawContext } from '../../machines/withdraw/withdraw.machine';
import { methodsFor } from '../../machines/payment-methods/amounts';
import type { Balances } from '../../contract/user';
import { WithdrawModal } from '../../src/features/wallet/WithdrawModal';
import en from '../../locales/en.json';
import { generatePaths, type PathModel, type PathStep } from '../machines/harness';
import { makeUser } from '../machines/fixtures';
import { METHODS, withdrawalResult } from '../machines/money-fixtures';
import { ControlledActors, allStateKeys, labelText, replayUiPath, startApp, type UiDriver, uiPathCases } from './ui-paths';

const REQUEST_KEY = 'ui-paths-withdraw';
const balances: Balances = { USD: { RealBalance: 120.5, DemoBalance: 10000 } };
const richer: Balances = { USD: { RealBalance: 1000, DemoBalance: 10000 } };
const REQUISITES: Record<string, string> = { card_visa_mastercard: '4111 1111 1111 1111', usdt_trc20: 'TXYZabcdefghijklmnopqrstuvwxyz1234' };

/** What a person (or the server) can do in each state. */
function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const context = snapshot.context as WithdrawContext;
  const balancePush = context.balances.USD?.RealBalance === balances.USD.RealBalance ? [{ type: 'withdraw.balancesReceived', balances: richer }] : [];
  if (snapshot.matches('method')) {
    return [
      ...(context.currency === 'USD' ? [{ type: 'withdraw.currencyChosen', currency: 'EUR' }] : []),
      // In EUR (no real balance) the list is only looked at.
      ...(context.currency === 'USD' ? methodsFor(METHODS, 'USD', 'withdrawal').map((o) => ({ type: 'withdraw.methodChosen', method: o.method })) : []),
      ...balancePush,
    ];
  }
  if (snapshot.matches('details')) {
    return [{ type: 'withdraw.submitted', amount: '25', requisites: REQUISITES[context.method!.id] }, { type: 'withdraw.backRequested' }, ...balancePush];
  }
  if (snapshot.matches('submitting')) {
    return [
      { type: 'xstate.done.actor.createWithdrawal', output: withdrawalResult({ payment_method: context.method!.name }) },
      { type: 'xstate.done.actor.createWithdrawal', output: withdrawalResult({ payment_method: context.method!.name, status: 'approved' }) },
      { type: 'xstate.error.actor.createWithdrawal', error: { message: 'Insufficient balance' } },
      { type: 'xstate.error.actor.createWithdrawal', error: null },
    ];
  }
  if (context.result?.status === 'pending') {
    return [
      { type: 'withdraw.statusUpdated', transactionId: 52, status: 'approved' },
      { type: 'withdraw.statusUpdated', transactionId: 52, status: 'failed' },
      { type: 'withdraw.statusUpdated', transactionId: 7, status: 'failed' },
    ];
  }
  return [];
}

const STEP_NAMES = [en.withdraw.step_method, en.withdraw.step_details, en.withdraw.step_completion];
const stepIndex = (value: string) => (value === 'method' ? 0 : value === 'details' || value === 'submitting' ? 1 : 2);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const money = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function startWithdraw() {
  const controlled = new ControlledActors();
  const session = startApp(
    { withdraw: withdrawMachine.provide({ actors: { createWithdrawal: controlled.logic('createWithdrawal') } }) },
    makeUser({ balances, front_settings: { current_currency: 'USD', balance_type: 'RealBalance' } }),
  );
  session.render(<WithdrawModal data={null} onClose={() => {}} />);
  void session.push('init_payment_systems', { payment_systems: METHODS });
  return { ...session, controlled, flow: () => session.app.getSnapshot().children.withdraw };
}

function requisitesLabel(context: WithdrawContext): string {
  return context.method!.integration_type === 'crypto_address' ? en.withdraw.wallet_address.replace('{{network}}', context.method!.crypto_network!) : en.withdraw.card_number;
}

function driver(session: ReturnType<typeof startWithdraw>): UiDriver {
  const { user } = session;
  const retype = async (label: string, value: string) => {
    const field = screen.getByLabelText(labelText(label), { selector: 'input' });
    await user.clear(field);
    await user.click(field);
    await user.paste(value);
    await user.tab();
  };
  return {
    flow: session.flow,
    normalize: (context) => ({ ...(context as WithdrawContext), requestKey: REQUEST_KEY }),
    async perform(event: EventObject, before: PathStep) {
      const e = event as AnyEventObject;
      switch (e.type) {
        case 'withdraw.currencyChosen':
          await user.selectOptions(screen.getByLabelText(labelText(en.wallet.account_currency), { selector: 'select' }), e.currency);
          return;
        case 'withdraw.methodChosen':
          await user.click(screen.getByRole('button', { name: new RegExp(`^${escape(e.method.name)}`) }));
          return;
        case 'withdraw.submitted':
          await retype(en.withdraw.amount_label, e.amount);
          await retype(requisitesLabel(before.context as WithdrawContext), e.requisites);
          await user.click(screen.getByRole('button', { name: en.withdraw.submit }));
          return;
        case 'withdraw.backRequested':
          await user.click(screen.getByRole('button', { name: en.common.back }));
          return;
        case 'withdraw.balancesReceived':
          await session.push('update_balances', { balances: e.balances });
          return;
        case 'withdraw.statusUpdated':
          await session.push('payment_status_update', { transaction: { id: e.transactionId, status: e.status, transaction_type: 'withdrawal' } });
          return;
        default:
          throw new Error(`no UI action for ${e.type}`);
      }
    },
    expectScreen(step: PathStep) {
      const context = step.context as WithdrawContext;
      const state = step.value as string;
      const dialog = screen.getByRole('dialog', { name: en.withdraw.title });
      const q = within(dialog);
      const steps = within(q.getByRole('list', { name: en.withdraw.steps_label })).getAllByRole('listitem');
      expect(steps.map((li) => li.getAttribute('aria-current'))).toEqual(STEP_NAMES.map((_, i) => (i === stepIndex(state) ? 'step' : null)));

      if (state === 'method' || state === 'details' || state === 'submitting') {
        // The real balance of the flow's currency, kept current by the balance pushes.
        const available = q.getByText(en.withdraw.available).parentElement!;
        expect(available.textContent).toContain(context.currency === 'USD' ? money(context.balances.USD.RealBalance) : '0.00');
      }
      if (state === 'method') {
        expect((q.getByLabelText(labelText(en.wallet.account_currency), { selector: 'select' }) as HTMLSelectElement).value).toBe(context.currency);
        for (const { method } of methodsFor(METHODS, context.currency, 'withdrawal')) {
          expect(q.getByRole('button', { name: new RegExp(`^${escape(method.name)}`) })).toBeTruthy();
        }
        return;
      }
      if (state === 'details' || state === 'submitting') {
        const submitting = state === 'submitting';
        expect(q.getByText(context.method!.name)).toBeTruthy();
        expect((q.getByLabelText(labelText(en.withdraw.amount_label), { selector: 'input' }) as HTMLInputElement).value).toBe(context.amount);
        expect((q.getByLabelText(labelText(requisitesLabel(context)), { selector: 'input' }) as HTMLInputElement).value).toBe(context.requisites);
        const go = q.getByRole('button', { name: submitting ? en.withdraw.submitting : en.withdraw.submit });
        expect(go.getAttribute('aria-busy')).toBe(submitting ? 'true' : null);
        expect((q.getByRole('button', { name: en.common.back }) as HTMLButtonElement).disabled).toBe(submitting);
        if (state === 'details' && context.error !== null) expect(q.getByText(context.error || en.withdraw.error_message)).toBeTruthy();
        if (state === 'details' && context.error === null) expect(q.queryByText(en.withdraw.error_message)).toBeNull();
        return;
      }
      const result = context.result!;
      const outcome = withdrawOutcome(result.status);
      const title = outcome === 'done' ? en.withdraw.done_title : outcome === 'failed' ? en.withdraw.failed_title : en.withdraw.pending_title;
      expect(q.getByRole('heading', { name: title })).toBeTruthy();
      expect(q.getByText(en.withdraw.reference.replace('{{id}}', String(result.transaction_id)))).toBeTruthy();
      if (outcome === 'pending') expect(q.getByText(result.estimated_processing_time)).toBeTruthy();
      expect(q.getByRole('button', { name: en.withdraw.new_withdrawal })).toBeTruthy();
    },
  };
}

const model: PathModel = {
  name: 'withdraw (UI)',
  machine: withdrawMachine,
  // The modal opens the flow in the header's currency with the balances the header shows.
  input: { requestKey: REQUEST_KEY, currency: 'USD', balances },
  events,
  simplePaths: false,
};
const { cases } = uiPathCases(generatePaths(model));
const visited = new Set<string>();

describe('withdraw paths through the withdraw modal', () => {
  it.each(cases)('%s', async (_, path) => {
    const session = startWithdraw();
    try {
      for (const key of await replayUiPath(path, driver(session), { machine: withdrawMachine, controlled: session.controlled, clock: session.clock })) visited.add(key);
    } finally {
      session.stop();
    }
  });

  it('went through every state of the machine on screen', () => {
    expect(allStateKeys(withdrawMachine).filter((key) => !visited.has(key))).toEqual([]);
  });
});
