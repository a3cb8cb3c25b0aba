/**
 * The deposit machine's generated paths, replayed through the rendered deposit modal
 * (DepositModal on the real app machine, which spawns the real deposit machine and feeds it the
 * method catalogue and the live payment statuses; only `createDeposit` and `confirmDeposit` are
 * controlled stubs). A person picks the account currency and a method by name, types the amount
 * and presses Continue, Back, "I have paid" or Retry; the server answers the two calls and
 * pushes payment_status_update over the socket. At every step the screen must show the step in
 * the indicator and what that step shows a payer: the methods of the currency, the amount kept,
 * the card requisites or crypto address or payment link, the waiting note, the outcome.
 *
 * The amount form checks the method's limits before sending, so only a valid amount reaches the
 * machine (the machine's own amount rules are covered by its path test and by wallet.test.tsx).
 */
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { depositMachine, type DepositContext } from '../../machines/deposit/deposit.machine';
import { methodsFor } from '../../machines/payment-methods/amounts';
import type { DepositConfirmationResult, IntegrationType } from '../../contract/payments';
import { DepositModal } from '../../src/features/wallet/DepositModal';
import en from '../../locales/en.json';
import { generatePaths, type PathModel, type PathStep } from '../machines/harness';
import { makeUser } from '../machines/fixtures';
import { METHODS, depositResult, transaction } from '../machines/money-fixtures';
import { ControlledActors, allStateKeys, labelText, replayUiPath, startApp, type UiDriver, uiPathCases } from './ui-paths';

const REQUEST_KEY = 'ui-paths-deposit';
const results: Record<IntegrationType, AnyEventObject[]> = {
  manual: [
    { type: 'xstate.done.actor.createDeposit', output: depositResult('manual') },
    // A replayed request whose payment window had already closed.
    { type: 'xstate.done.actor.createDeposit', output: depositResult('manual', { status: 'expired' }) },
  ],
  crypto_address: [{ type: 'xstate.done.actor.createDeposit', output: depositResult('crypto_address') }],
  oxapay_link: [
    { type: 'xstate.done.actor.createDeposit', output: depositResult('oxapay_link') },
    { type: 'xstate.done.actor.createDeposit', output: depositResult('oxapay_link', { status: 'approved' }) },
  ],
};
const confirmation: DepositConfirmationResult = { status: true, transaction: transaction({ approval_status: 'processing' }) };
const status = (transactionId: number, value: string) => ({ type: 'deposit.statusUpdated', transactionId, status: value });

/**
 * What a payer (or the server) can do in each state. The live statuses are offered where they
 * change what the payer sees (each one elsewhere only multiplies paths through the same
 * screens); the EUR bank transfer goes the shortest way, since past the method list it looks
 * like the card.
 */
function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const context = snapshot.context as DepositContext;
  const eur = context.currency === 'EUR';
  if (snapshot.matches('method')) {
    return [
      ...(eur ? [] : [{ type: 'deposit.currencyChosen', currency: 'EUR' }]),
      // In EUR only the EUR-only bank transfer: the other methods behave as in USD.
      ...methodsFor(METHODS, context.currency, 'deposit')
        .filter((o) => !eur || o.method.currency_code === 'EUR')
        .map((o) => ({ type: 'deposit.methodChosen', method: o.method })),
    ];
  }
  if (snapshot.matches('amount')) return [{ type: 'deposit.amountSubmitted', amount: '100' }, ...(eur ? [] : [{ type: 'deposit.backRequested' }])];
  if (snapshot.matches('submitting')) {
    if (eur) return [results.manual[0]];
    // A refused request raises the attempt number: the failures only on the first attempt.
    if (context.attempt > 0) return results[context.method!.integration_type];
    return [
      ...results[context.method!.integration_type],
      { type: 'xstate.error.actor.createDeposit', error: { message: 'Amount too high: maximum 5000.00 USD' } },
      { type: 'xstate.error.actor.createDeposit', error: null },
      // No answer at all (a network failure): the same attempt.
      { type: 'xstate.error.actor.createDeposit', error: { status: 0, message: 'Failed to create deposit' } },
    ];
  }
  if (snapshot.matches({ process: { manual: 'awaitingConfirmation' } })) {
    return eur ? [{ type: 'deposit.confirmRequested' }] : [{ type: 'deposit.confirmRequested' }, { type: 'deposit.backRequested' }, status(41, 'approved'), status(41, 'expired')];
  }
  if (snapshot.matches({ process: { manual: 'confirming' } })) {
    return [
      { type: 'xstate.done.actor.confirmDeposit', output: confirmation },
      ...(eur ? [] : [{ type: 'xstate.error.actor.confirmDeposit', error: { message: 'This deposit can no longer be confirmed' } }, status(41, 'approved')]),
    ];
  }
  if (snapshot.matches({ process: 'integration' })) return [{ type: 'deposit.backRequested' }, status(41, 'approved'), status(41, 'expired'), status(41, 'processing')];
  if (snapshot.matches({ process: 'integrationLink' })) return [{ type: 'deposit.backRequested' }, status(41, 'approved'), status(41, 'processing'), status(99, 'approved')];
  if (snapshot.matches({ complete: 'pending' })) return eur ? [status(41, 'approved')] : [status(41, 'approved'), status(41, 'expired'), status(41, 'processing')];
  if (snapshot.matches({ complete: 'requestFailed' })) return [{ type: 'deposit.retryRequested' }];
  return [];
}

const STEP_NAMES = [en.deposit.step_method, en.deposit.step_amount, en.deposit.step_process, en.deposit.step_complete];

function stepIndex(step: PathStep): number {
  const value = JSON.stringify(step.value);
  if (value.includes('method')) return 0;
  if (value.includes('amount') || value.includes('submitting')) return 1;
  if (value.includes('process')) return 2;
  return 3;
}

function startDeposit() {
  const controlled = new ControlledActors();
  const session = startApp(
    { deposit: depositMachine.provide({ actors: { createDeposit: controlled.logic('createDeposit'), confirmDeposit: controlled.logic('confirmDeposit') } }) },
    makeUser({ balances: { USD: { RealBalance: 120.5, DemoBalance: 10000 } }, front_settings: { current_currency: 'USD', balance_type: 'DemoBalance' } }),
  );
  session.render(<DepositModal data={null} onClose={() => {}} />);
  void session.push('init_payment_systems', { payment_systems: METHODS });
  return { ...session, controlled, flow: () => session.app.getSnapshot().children.deposit };
}

function driver(session: ReturnType<typeof startDeposit>): UiDriver {
  const { user } = session;
  return {
    flow: session.flow,
    normalize: (context) => ({ ...(context as DepositContext), requestKey: REQUEST_KEY }),
    async perform(event: EventObject) {
      const e = event as AnyEventObject;
      switch (e.type) {
        case 'deposit.currencyChosen':
          await user.selectOptions(screen.getByLabelText(labelText(en.wallet.account_currency), { selector: 'select' }), e.currency);
          return;
        case 'deposit.methodChosen':
          await user.click(screen.getByRole('button', { name: new RegExp(`^${escape(e.method.name)}`) }));
          return;
        case 'deposit.amountSubmitted': {
          const field = screen.getByLabelText(labelText(en.deposit.amount_label), { selector: 'input' });
          await user.clear(field);
          await user.click(field);
          await user.paste(e.amount);
          await user.tab();
          await user.click(screen.getByRole('button', { name: en.deposit.continue }));
          return;
        }
        case 'deposit.backRequested':
          await user.click(screen.getByRole('button', { name: en.common.back }));
          return;
        case 'deposit.confirmRequested':
          await user.click(screen.getByRole('button', { name: en.deposit.confirm }));
          return;
        case 'deposit.retryRequested':
          await user.click(screen.getByRole('button', { name: en.common.retry }));
          return;
        case 'deposit.statusUpdated':
          await session.push('payment_status_update', { transaction: { id: e.transactionId, status: e.status, transaction_type: 'deposit' } });
          return;
        default:
          throw new Error(`no UI action for ${e.type}`);
      }
    },
    expectScreen(step: PathStep) {
      const context = step.context as DepositContext;
      const dialog = screen.getByRole('dialog', { name: en.deposit.title });
      const steps = within(within(dialog).getByRole('list', { name: en.deposit.steps_label })).getAllByRole('listitem');
      const index = stepIndex(step);
      expect(steps.map((li) => li.getAttribute('aria-current'))).toEqual(STEP_NAMES.map((_, i) => (i === index ? 'step' : null)));
      const value = JSON.stringify(step.value);
      const q = within(dialog);

      if (step.value === 'method') {
        expect((q.getByLabelText(labelText(en.wallet.account_currency), { selector: 'select' }) as HTMLSelectElement).value).toBe(context.currency);
        const names = methodsFor(METHODS, context.currency, 'deposit').map((o) => o.method.name);
        const listed = q.getAllByRole('button', { pressed: false }).concat(q.queryAllByRole('button', { pressed: true }));
        for (const name of names) expect(listed.some((b) => b.textContent?.startsWith(name)), `${name} is offered`).toBe(true);
        if (context.method) expect(q.getByRole('button', { pressed: true }).textContent).toContain(context.method.name);
        return;
      }
      if (step.value === 'amount' || step.value === 'submitting') {
        const submitting = step.value === 'submitting';
        expect(q.getByText(context.method!.name)).toBeTruthy();
        expect((q.getByLabelText(labelText(en.deposit.amount_label), { selector: 'input' }) as HTMLInputElement).value).toBe(context.amount);
        const go = q.getByRole('button', { name: submitting ? en.deposit.creating : en.deposit.continue });
        expect(go.getAttribute('aria-busy')).toBe(submitting ? 'true' : null);
        expect((q.getByRole('button', { name: en.common.back }) as HTMLButtonElement).disabled).toBe(submitting);
        return;
      }
      const result = context.result!;
      if (value.includes('manual')) {
        const confirming = value.includes('confirming');
        expect(q.getByText(result.transaction.requisit!.card_number!)).toBeTruthy();
        expect(q.getByText(`#${result.transaction_id}`)).toBeTruthy();
        const confirm = q.getByRole('button', { name: confirming ? en.deposit.confirming : en.deposit.confirm });
        expect(confirm.getAttribute('aria-busy')).toBe(confirming ? 'true' : null);
        expect((q.getByRole('button', { name: en.common.back }) as HTMLButtonElement).disabled).toBe(confirming);
        if (context.confirmError !== null) expect(q.getByText(context.confirmError || en.deposit.confirmed_error_hint)).toBeTruthy();
        return;
      }
      if (value.includes('integrationLink')) {
        expect(q.getByRole('link', { name: new RegExp(en.deposit.open_payment_page) }).getAttribute('href')).toBe(result.payment_url);
        expect(q.getByRole('status').textContent).toContain(context.paymentStatus === 'processing' ? en.deposit.processing_note : en.deposit.waiting_payment);
        return;
      }
      if (value.includes('integration')) {
        expect(q.getByText(result.integration_data!.crypto_wallet_address!)).toBeTruthy();
        expect(q.getByText(result.integration_data!.crypto_network!)).toBeTruthy();
        expect(q.getByRole('status').textContent).toContain(context.paymentStatus === 'processing' ? en.deposit.processing_note : en.deposit.waiting_payment);
        return;
      }
      // complete
      if (value.includes('succeeded')) {
        expect(q.getByRole('heading', { name: en.deposit.success_title })).toBeTruthy();
        expect(q.getByRole('button', { name: en.common.done })).toBeTruthy();
      } else if (value.includes('requestFailed')) {
        expect(q.getByRole('alert').textContent).toContain(en.deposit.deposit_failed);
        expect(q.getByRole('alert').textContent).toContain(context.error ?? en.deposit.request_failed_text);
        expect(q.getByRole('button', { name: en.common.retry })).toBeTruthy();
      } else if (value.includes('failed')) {
        expect(q.getByRole('alert').textContent).toContain(en.deposit.payment_failed);
        expect(q.getByRole('alert').textContent).toContain(context.paymentStatus === 'expired' ? en.deposit.failed_expired : en.deposit.failed_text);
      } else {
        expect(q.getByRole('heading', { name: en.deposit.pending_title })).toBeTruthy();
        expect(q.getByText(en.deposit.pending_wait)).toBeTruthy();
      }
    },
  };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const model: PathModel = {
  name: 'deposit (UI)',
  machine: depositMachine,
  // The modal opens the flow in the header's currency (USD here) with a key of its own.
  input: { requestKey: REQUEST_KEY, currency: 'USD' },
  events,
  simplePaths: false,
};
const { cases } = uiPathCases(generatePaths(model));
const visited = new Set<string>();

describe('deposit paths through the deposit modal', () => {
  it.each(cases)('%s', async (_, path) => {
    const session = startDeposit();
    try {
      for (const key of await replayUiPath(path, driver(session), { machine: depositMachine, controlled: session.controlled, clock: session.clock })) visited.add(key);
    } finally {
      session.stop();
    }
  });

  it('went through every state of the machine on screen', () => {
    expect(allStateKeys(depositMachine).filter((key) => !visited.has(key))).toEqual([]);
  });
});
