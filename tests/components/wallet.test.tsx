/**
 * The money views on the real machines (the app machine with its money children; the REST
 * calls and the socket stubbed): the deposit modal through each process mode and its outcomes,
 * the method list (images with a default on failure, the empty state for a currency), the
 * withdraw modal's rules and result, and the transaction history (rows, badges, empty and
 * failed states, paging, export, the details modal with its conditional sections and copy).
 */
import { describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { appMachine, type AppInput } from '../../machines/app/app.machine';
import { withFeatures } from '../support/app-features';
import { sessionMachine, type SaveFrontSettingsInput } from '../../machines/session/session.machine';
import { socketMachine, type SocketEmitEvent } from '../../machines/socket/socket.machine';
import { depositMachine, type ConfirmDepositInput, type CreateDepositInput } from '../../machines/deposit/deposit.machine';
import { withdrawMachine, type CreateWithdrawalInput } from '../../machines/withdraw/withdraw.machine';
import {
  transactionsMachine,
  type ExportTransactionsInput,
  type FetchTransactionsInput,
  type TransactionListOutput,
} from '../../machines/transactions/transactions.machine';
import type { DepositConfirmationResult, DepositResult, PaymentMethod, WithdrawalResult } from '../../contract/payments';
import type { Balances } from '../../contract/user';
import type { RateTable } from '../../contract/currencies';
import { RuntimeProvider } from '../../src/shared/runtime';
import type { AppRuntime } from '../../src/app/create-app-actor';
import { ModalHost } from '../../src/app/modal-host';
import { I18nProvider } from '../../src/i18n';
import { DepositModal } from '../../src/features/wallet/DepositModal';
import { WithdrawModal } from '../../src/features/wallet/WithdrawModal';
import { TransactionsSection } from '../../src/features/transactions/TransactionsSection';
import { makeUser } from '../machines/fixtures';
import { CARD, METHODS, SEPA, USDT, depositResult, transaction, withdrawalResult } from '../machines/money-fixtures';

const never = <T,>() => new Promise<T>(() => {});

interface MoneyServer {
  createDeposit: (input: CreateDepositInput) => Promise<DepositResult>;
  confirmDeposit: (input: ConfirmDepositInput) => Promise<DepositConfirmationResult>;
  createWithdrawal: (input: CreateWithdrawalInput) => Promise<WithdrawalResult>;
  listTransactions: (input: FetchTransactionsInput) => Promise<TransactionListOutput>;
  exportTransactions: (input: ExportTransactionsInput) => Promise<void>;
}

function startMoneyApp(server: Partial<MoneyServer> = {}, balances: Balances = { USD: { RealBalance: 120.5, DemoBalance: 10000 } }) {
  const emitted: SocketEmitEvent[] = [];
  const calls = { createDeposit: [] as CreateDepositInput[], confirmDeposit: [] as ConfirmDepositInput[], createWithdrawal: [] as CreateWithdrawalInput[], list: [] as FetchTransactionsInput[], export: [] as ExportTransactionsInput[] };
  const logic = appMachine.provide({
    actors: {
      ...withFeatures,
      session: sessionMachine.provide({ actors: { saveFrontSettings: fromPromise<unknown, SaveFrontSettingsInput>(() => Promise.resolve({})) } }),
      socket: socketMachine.provide({
        actors: {
          socketConnection: fromCallback<SocketEmitEvent, { token: string }>(({ receive, sendBack }) => {
            receive((e) => emitted.push(e));
            sendBack({ type: 'socket.connected' });
          }),
        },
      }),
      deposit: depositMachine.provide({
        actors: {
          createDeposit: fromPromise<DepositResult, CreateDepositInput>(({ input }) => (calls.createDeposit.push(input), (server.createDeposit ?? never)(input))),
          confirmDeposit: fromPromise<DepositConfirmationResult, ConfirmDepositInput>(({ input }) => (calls.confirmDeposit.push(input), (server.confirmDeposit ?? never)(input))),
        },
      }),
      withdraw: withdrawMachine.provide({
        actors: {
          createWithdrawal: fromPromise<WithdrawalResult, CreateWithdrawalInput>(({ input }) => (calls.createWithdrawal.push(input), (server.createWithdrawal ?? never)(input))),
        },
      }),
      transactions: transactionsMachine.provide({
        actors: {
          fetchTransactions: fromPromise<TransactionListOutput, FetchTransactionsInput>(({ input }) => (calls.list.push(input), (server.listTransactions ?? never)(input))),
          exportTransactions: fromPromise<void, ExportTransactionsInput>(({ input }) => (calls.export.push(input), (server.exportTransactions ?? (() => Promise.resolve()))(input))),
        },
      }),
    },
  });
  const input: AppInput = { persistedSession: null, adminToken: null, storedLanguage: null, storedTheme: null, systemPrefersDark: true };
  const actor = createActor(logic, { input }).start();
  const user = makeUser({ balances, front_settings: { current_currency: 'USD', balance_type: 'DemoBalance' } });
  actor.system.get('session').send({ type: 'session.registered', token: 'tok', refreshToken: null, user });
  const push = (event: string, payload: unknown) => actor.send({ type: 'socket.messageReceived', event, payload });
  const runtime = { actor, services: {} } as unknown as AppRuntime;
  const toasts = (): string[] =>
    actor.system.get('toasts').getSnapshot().context.toasts.map((t: { messageKey?: string; message?: string }) => t.messageKey ?? t.message);
  return {
    actor,
    emitted,
    calls,
    push,
    toasts,
    feedMethods: (methods: PaymentMethod[] = METHODS, rates?: RateTable) => act(() => push('init_payment_systems', { payment_systems: methods, ...(rates ? { rates } : {}) })),
    render: (ui: ReactNode, language = 'en') =>
      render(
        <RuntimeProvider runtime={runtime}>
          <I18nProvider language={language}>
            {ui}
            <ModalHost />
          </I18nProvider>
        </RuntimeProvider>,
      ),
  };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('deposit modal', () => {
  it('asks for the catalogue, lists the methods for the currency and falls back to the default image', async () => {
    const app = startMoneyApp();
    app.render(<DepositModal data={null} onClose={() => {}} />);
    expect(app.emitted).toContainEqual({ type: 'socket.emitRequested', event: 'get_payment_methods', payload: {} });
    expect(screen.getByText('Loading payment methods…')).toBeTruthy();
    app.feedMethods();
    const dialog = screen.getByRole('dialog', { name: 'Deposit' });
    const names = within(dialog).getAllByRole('button', { pressed: false }).map((b) => b.textContent);
    expect(names.some((n) => n?.includes('Visa / Mastercard'))).toBe(true);
    expect(names.some((n) => n?.includes('Bank transfer (SEPA)'))).toBe(false);
    expect(within(dialog).getByText('Visa / Mastercard').closest('button')!.textContent).toContain('Min $10.00 · Max $5,000.00');

    const image = dialog.querySelector<HTMLImageElement>('img.method-image')!;
    expect(image.getAttribute('src')).toBe('/payment_methods/visa_mastercard.svg');
    fireEvent.error(image);
    expect(image.getAttribute('src')).toBe('/payment_methods/default.svg');

    await userEvent.selectOptions(within(dialog).getByLabelText('Account currency'), 'EUR');
    expect(within(dialog).getByText('Bank transfer (SEPA)')).toBeTruthy();
    // No rates from the server: the configured ones, as round figures ($10 = €9.20 -> €10).
    expect(within(dialog).getByText('Visa / Mastercard').closest('button')!.textContent).toContain('Min €10.00 · Max €4,500.00');
  });

  it('converts the limits at the server\'s market rates, as round figures', async () => {
    const app = startMoneyApp();
    app.render(<DepositModal data={null} onClose={() => {}} />);
    // EUR/USD at 1.1598: $10 = €8.62 -> €9, $5000 = €4311.09 -> €4000 (not "Min €9.20").
    app.feedMethods(METHODS, { EUR: { per_usd: 1 / 1.1598, source: 'pair', pair: 'EUR/USD', at: Date.now() } });
    const dialog = screen.getByRole('dialog', { name: 'Deposit' });
    await userEvent.selectOptions(within(dialog).getByLabelText('Account currency'), 'EUR');
    expect(within(dialog).getByText('Visa / Mastercard').closest('button')!.textContent).toContain('Min €9.00 · Max €4,000.00');
  });

  it('shows the rate of a conversion with its market pair and time, or says it is configured', async () => {
    const at = new Date(2026, 10, 27, 14, 5, 9).getTime();
    const BTC: PaymentMethod = { ...USDT, id: 'btc', name: 'Bitcoin', avatar_url: 'btc.svg', payment_currency: 'BTC', crypto_network: 'Bitcoin' };
    const app = startMoneyApp();
    app.render(<DepositModal data={null} onClose={() => {}} />);
    app.feedMethods([USDT, BTC], { BTC: { per_usd: 1 / 94_300, source: 'pair', pair: 'BTC/USD', at } });
    await userEvent.click(screen.getByText('Bitcoin'));
    expect(screen.getByText('1 USD = 0.0000106044 BTC')).toBeTruthy();
    expect(screen.getByText('Market price of BTC/USD at 14:05:09')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await userEvent.click(screen.getByText('USDT (TRC20)'));
    expect(screen.getByText('1 USD = 1.000000 USDT')).toBeTruthy();
    expect(screen.getByText('Configured rate for USDT (no market pair)')).toBeTruthy();
  });

  it('says when no method serves the currency', () => {
    const app = startMoneyApp();
    app.render(<DepositModal data={null} onClose={() => {}} />);
    app.feedMethods([SEPA]);
    expect(screen.getByText('No payment methods available for the selected currency')).toBeTruthy();
  });

  it('manual: checks the amount, pays by card requisites, confirms and completes on the live status', async () => {
    const created = deferred<DepositResult>();
    const app = startMoneyApp({
      createDeposit: () => created.promise,
      confirmDeposit: () => Promise.resolve({ status: true, transaction: transaction({ approval_status: 'processing' }) }),
    });
    app.render(<DepositModal data={null} onClose={() => {}} />);
    app.feedMethods();
    await userEvent.click(screen.getByText('Visa / Mastercard'));
    const amount = screen.getByLabelText(/^Amount/);
    await userEvent.type(amount, '5');
    fireEvent.blur(amount);
    await screen.findByText('Amount too low: minimum $10.00');
    await userEvent.clear(amount);
    await userEvent.type(amount, '10.001');
    fireEvent.blur(amount);
    await waitFor(() => expect(document.querySelector('.field-error')?.textContent).toBe('Use at most 2 decimal places'));
    await userEvent.click(screen.getByRole('button', { name: '$100.00' }));
    expect((amount as HTMLInputElement).value).toBe('100');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(app.calls.createDeposit[0]).toMatchObject({ amount: '100', currency: 'USD', payment_method_id: 'card_visa_mastercard' });
    expect(screen.getByRole('button', { name: /Creating payment/ }).hasAttribute('disabled')).toBe(true);

    await act(async () => created.resolve(depositResult('manual', { expired_at: Math.floor(Date.now() / 1000) + 1800 })));
    expect(await screen.findByText('4000 0012 3456 7899')).toBeTruthy();
    expect(screen.getByText('TRADETERMINAL LTD')).toBeTruthy();
    expect(screen.getByText('Expires in')).toBeTruthy();
    expect(screen.getByText(/^(29|30):\d\d$/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'I have paid' }));
    expect(app.calls.confirmDeposit).toEqual([{ transactionId: 41 }]);
    expect(await screen.findByText('Confirmation received')).toBeTruthy();

    act(() => app.push('payment_status_update', { transaction: { id: 41, status: 'approved', transaction_type: 'deposit' } }));
    expect(await screen.findByText('Deposit completed')).toBeTruthy();
    expect(app.toasts()).toContain('transactions.toast_deposit_completed');
  });

  it('"Show real account" after a deposit shows the real account and closes the modal (issue 26)', async () => {
    const app = startMoneyApp({ createDeposit: () => Promise.resolve(depositResult('manual', { expired_at: Math.floor(Date.now() / 1000) + 1800 })) });
    let closed = 0;
    app.render(<DepositModal data={null} onClose={() => (closed += 1)} />);
    app.feedMethods();
    await userEvent.click(screen.getByText('Visa / Mastercard'));
    await userEvent.type(screen.getByLabelText(/^Amount/), '100');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('4000 0012 3456 7899')).toBeTruthy();
    act(() => app.push('payment_status_update', { transaction: { id: 41, status: 'approved', transaction_type: 'deposit' } }));
    await userEvent.click(await screen.findByRole('button', { name: 'Show real account' }));
    expect(app.actor.system.get('balance').getSnapshot().context.balanceType).toBe('RealBalance');
    expect(closed).toBe(1);
  });

  it('manual: a refused confirmation shows deposit.confirmed_error and stays', async () => {
    const app = startMoneyApp({
      createDeposit: () => Promise.resolve(depositResult('manual', { expired_at: Math.floor(Date.now() / 1000) + 600 })),
      confirmDeposit: () => Promise.reject(new Error('This deposit can no longer be confirmed')),
    });
    app.render(<DepositModal data={null} onClose={() => {}} />);
    app.feedMethods();
    await userEvent.click(screen.getByText('Visa / Mastercard'));
    await userEvent.type(screen.getByLabelText(/^Amount/), '50');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await userEvent.click(await screen.findByRole('button', { name: 'I have paid' }));
    expect(await screen.findByText('Could not confirm the deposit')).toBeTruthy();
    expect(screen.getByText('This deposit can no longer be confirmed')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'I have paid' })).toBeTruthy();
  });

  it('integration: address, network and QR, a processing note, then "Payment failed!"', async () => {
    const app = startMoneyApp({ createDeposit: () => Promise.resolve(depositResult('crypto_address')) });
    app.render(<DepositModal data={null} onClose={() => {}} />);
    app.feedMethods();
    await userEvent.click(screen.getByText('USDT (TRC20)'));
    expect(screen.getByText(/You will pay the equivalent in USDT on TRC20/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText(/^Amount/), '100');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('TXYZabcdefghijklmnopqrstuvwxyz1234')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'QR code of the USDT payment' }).getAttribute('src')).toMatch(/^data:image\/png/);
    expect(screen.getByText('TRC20')).toBeTruthy();
    // Crypto: the code after the number, no trailing zeros beyond 2 decimals.
    expect(screen.getByText('100.00 USDT')).toBeTruthy();
    act(() => app.push('payment_status_update', { transaction: { id: 41, status: 'processing', transaction_type: 'deposit' } }));
    expect(await screen.findByText('Payment received, waiting for confirmation…')).toBeTruthy();
    act(() => app.push('payment_status_update', { transaction: { id: 41, status: 'expired', transaction_type: 'deposit' } }));
    expect(await screen.findByText('Payment failed!')).toBeTruthy();
    expect(screen.getByText('The payment window has expired.')).toBeTruthy();
  });

  it('integration link: opens the payment page in a new tab and copies the link', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const app = startMoneyApp({ createDeposit: () => Promise.resolve(depositResult('oxapay_link')) });
    app.render(<DepositModal data={null} onClose={() => {}} />);
    app.feedMethods();
    await userEvent.click(screen.getByText('Crypto payment link (OxaPay)'));
    await userEvent.type(screen.getByLabelText(/^Amount/), '100');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const open = await screen.findByRole('link', { name: /Open payment page/ });
    expect(open.getAttribute('href')).toBe('http://127.0.0.1/checkout/sandbox/inv_1');
    expect(open.getAttribute('target')).toBe('_blank');
    await userEvent.click(screen.getByRole('button', { name: 'Copy Payment link' }));
    expect(writeText).toHaveBeenCalledWith('http://127.0.0.1/checkout/sandbox/inv_1');
    await waitFor(() => expect(app.toasts()).toContain('common.copied'));
  });

  it('a failed request is "Deposit Failed!" with the server text; Retry returns to the amount', async () => {
    const app = startMoneyApp({ createDeposit: () => Promise.reject(new Error('Failed to create deposit')) });
    app.render(<DepositModal data={null} onClose={() => {}} />);
    app.feedMethods();
    await userEvent.click(screen.getByText('Visa / Mastercard'));
    await userEvent.type(screen.getByLabelText(/^Amount/), '20');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Deposit Failed!')).toBeTruthy();
    expect(screen.getByText('Failed to create deposit')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect((screen.getByLabelText(/^Amount/) as HTMLInputElement).value).toBe('20');
  });

  it('ends the flow when it closes and speaks Russian', () => {
    const app = startMoneyApp();
    const view = app.render(<DepositModal data={null} onClose={() => {}} />, 'ru');
    expect(app.actor.system.get('deposit')).toBeDefined();
    expect(screen.getByRole('dialog', { name: 'Пополнение' })).toBeTruthy();
    view.unmount();
    expect(app.actor.system.get('deposit')).toBeUndefined();
  });
});

describe('withdraw modal', () => {
  it('offers no payment link, enforces the rules against the real balance and shows the pending result', async () => {
    const app = startMoneyApp({ createWithdrawal: () => Promise.resolve(withdrawalResult()) });
    app.render(<WithdrawModal data={null} onClose={() => {}} />);
    app.feedMethods();
    const dialog = screen.getByRole('dialog', { name: 'Withdraw' });
    expect(within(dialog).queryByText('Crypto payment link (OxaPay)')).toBeNull();
    expect(within(dialog).getByText('$120.50')).toBeTruthy();
    await userEvent.click(within(dialog).getByText('Visa / Mastercard'));

    const amount = screen.getByLabelText(/^Amount/);
    await userEvent.type(amount, '500');
    fireEvent.blur(amount);
    expect(await screen.findByText('Insufficient balance: $120.50 available')).toBeTruthy();
    // Above the method's max too: the balance is the tighter bound, so it is the one named.
    await userEvent.clear(amount);
    await userEvent.type(amount, '6000');
    fireEvent.blur(amount);
    expect(await screen.findByText('Insufficient balance: $120.50 available')).toBeTruthy();
    expect(screen.queryByText(/maximum/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Max' }));
    expect((amount as HTMLInputElement).value).toBe('120.50');
    // A card number: the digit keyboard, the browser's saved cards, grouped in fours, Luhn-checked.
    const requisites = screen.getByLabelText(/^Card number/) as HTMLInputElement;
    expect(requisites.getAttribute('inputmode')).toBe('numeric');
    expect(requisites.getAttribute('autocomplete')).toBe('cc-number');
    await userEvent.type(requisites, 'ab12');
    fireEvent.blur(requisites);
    expect(requisites.value).toBe('12');
    expect(await screen.findByText('Enter a card number of 12 to 19 digits')).toBeTruthy();
    await userEvent.clear(requisites);
    await userEvent.type(requisites, '4111111111111112');
    expect(requisites.value).toBe('4111 1111 1111 1112');
    expect(await screen.findByText('This card number is not valid: check the digits')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(app.calls.createWithdrawal).toHaveLength(0);
    await userEvent.type(requisites, '{backspace}1');
    expect(requisites.value).toBe('4111 1111 1111 1111');
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(app.calls.createWithdrawal[0]).toMatchObject({ amount: '120.50', currency: 'USD', account_type: 'real', payment_details: { requisites: '4111 1111 1111 1111' } });
    expect(await screen.findByText('Withdrawal requested')).toBeTruthy();
    expect(screen.getByText('Waiting for the payment provider.')).toBeTruthy();
    expect(screen.getByText('up to 24 hours')).toBeTruthy();
    expect(app.toasts()).toContain('withdraw.success_message');
  });

  it('speaks Russian: translated processing times, Max with a decimal comma', async () => {
    const app = startMoneyApp({ createWithdrawal: () => Promise.resolve(withdrawalResult()) });
    app.render(<WithdrawModal data={null} onClose={() => {}} />, 'ru');
    app.feedMethods();
    const dialog = screen.getByRole('dialog', { name: 'Вывод средств' });
    expect(within(dialog).getAllByText('Срок обработки: до 24 часов').length).toBeGreaterThan(0);
    expect(within(dialog).getAllByText('Срок обработки: до 1 часа').length).toBeGreaterThan(0);
    expect(dialog.textContent).not.toContain('up to');
    await userEvent.click(within(dialog).getByText('Visa / Mastercard'));
    await userEvent.click(screen.getByRole('button', { name: 'Макс.' }));
    const amount = screen.getByLabelText(/^Сумма/) as HTMLInputElement;
    expect(amount.value).toBe('120,50');
    await userEvent.type(screen.getByLabelText(/^Номер карты/), '4111111111111111');
    await userEvent.click(screen.getByRole('button', { name: 'Вывести' }));
    expect(app.calls.createWithdrawal[0]).toMatchObject({ amount: '120.50' });
    expect(await screen.findByText('до 24 часов')).toBeTruthy();
  });

  it('shows the server refusal, or withdraw.error_message when there is no text', async () => {
    const app = startMoneyApp({ createWithdrawal: () => Promise.reject(new Error('Insufficient balance')) });
    app.render(<WithdrawModal data={null} onClose={() => {}} />);
    app.feedMethods();
    await userEvent.click(screen.getByText('USDT (TRC20)'));
    await userEvent.type(screen.getByLabelText(/^Amount/), '20');
    await userEvent.type(screen.getByLabelText(/^Wallet address \(TRC20\)/), 'TXYZabcdefghijklmnopqrstuvwxyz1234');
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('Insufficient balance')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Withdraw' })).toBeTruthy();
  });
});

const history = (rows = [
  transaction({ id: 43, transaction_type: 'withdrawal', type: 'withdrawal', amount: 12.25, final_amount: 12.25, approval_status: 'pending', created_at: 1_799_999_000 }),
  transaction({
    id: 42,
    approval_status: 'approved',
    method: 'Crypto payment link (OxaPay)',
    payment_method_id: 'oxapay_crypto',
    integration_type: 'oxapay_link',
    payment_url: 'http://127.0.0.1/checkout/sandbox/inv_9',
    amount: 25,
    balance_before: 0,
    balance_after: 25,
    created_at: 1_799_998_800,
  }),
  transaction({ id: 41, approval_status: 'expired', amount: 100 }),
], total = rows.length, limit = 10): TransactionListOutput => ({ transactions: rows, pagination: { page: 1, limit, total_count: total, total_pages: Math.ceil(total / limit) } });

describe('transaction history', () => {
  it('shows rows with 2-decimal amounts, DD.MM.YYYY HH:mm dates and the spec badges', async () => {
    const app = startMoneyApp({ listTransactions: () => Promise.resolve(history()) });
    app.render(<TransactionsSection standalone />);
    expect(screen.getByRole('region', { name: 'Transaction history' }).id).toBe('transactions');
    expect(screen.getByText('Loading transactions…')).toBeTruthy();
    await screen.findByText('#43');
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0].textContent).toContain('Withdrawal');
    expect(rows[0].textContent).toContain('-$12.25');
    expect(rows[0].textContent).toMatch(/\d\d\.\d\d\.\d{4} \d\d:\d\d/);
    expect(rows[1].textContent).toContain('+$25.00');
    const pending = within(rows[0]).getByText('Pending').closest('.info-chip')!;
    expect(pending.className).toContain('info-chip-warning');
    // A pending payment waits: a clock, and the accessible text is the status alone (no "Warning:").
    expect(pending.querySelector('[data-icon="clock"]')).not.toBeNull();
    expect(pending.querySelector('[data-icon="warning"]')).toBeNull();
    expect(pending.textContent).toBe('Pending');
    expect(within(rows[1]).getByText('Completed').closest('.info-chip')!.className).toContain('info-chip-success');
    // An expired deposit keeps its own label; the deposit badge rule makes it an error.
    expect(within(rows[2]).getByText('Expired').closest('.info-chip')!.className).toContain('info-chip-error');
    expect(app.calls.list[0]).toEqual({ query: { page: 1, limit: 10 } });
  });

  it('filters, changes the page size, pages and exports with the same filters', async () => {
    const app = startMoneyApp({ listTransactions: () => Promise.resolve(history(undefined, 25)) });
    app.render(<TransactionsSection />);
    await screen.findByText('#43');
    await userEvent.selectOptions(screen.getByLabelText('Type'), 'withdrawal');
    await screen.findByText('#43');
    expect(app.calls.list.at(-1)).toEqual({ query: { page: 1, limit: 10, type: 'withdrawal' } });
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(app.calls.list.at(-1)).toEqual({ query: { page: 2, limit: 10, type: 'withdrawal' } }));
    await screen.findByText('#43');
    await userEvent.selectOptions(screen.getByLabelText('Rows per page'), '50');
    await waitFor(() => expect(app.calls.list.at(-1)).toEqual({ query: { page: 1, limit: 50, type: 'withdrawal' } }));
    await screen.findByText('#43');
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(app.calls.export).toEqual([{ query: { type: 'withdrawal' } }]));
    await waitFor(() => expect(app.toasts()).toContain('transactions.export_done'));
  });

  it('says "Transactions not found" with what to do, and "Failed to get transactions" with Retry', async () => {
    let fail = true;
    const app = startMoneyApp({
      listTransactions: () => (fail ? Promise.reject(new Error('Failed to get transactions')) : Promise.resolve(history([]))),
    });
    app.render(<TransactionsSection />);
    expect(await screen.findByText('Failed to get transactions')).toBeTruthy();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Transactions not found')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Make a deposit' })).toBeTruthy();
  });

  it('opens the details: sections, no crypto block without crypto data, the payment link copied', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const app = startMoneyApp({ listTransactions: () => Promise.resolve(history()) });
    app.render(<TransactionsSection />);
    await userEvent.click(await screen.findByRole('button', { name: 'Transaction #42: details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Transaction #42' });
    for (const section of ['Basic information', 'Amounts', 'Balances', 'Dates', 'Payment link']) expect(within(dialog).getByText(section)).toBeTruthy();
    expect(within(dialog).queryByText('Crypto')).toBeNull();
    // The same currency on both sides: no "1 USD = 1.000000 USD" rate.
    expect(within(dialog).queryByText('Exchange rate')).toBeNull();
    expect(within(dialog).getAllByText(/^\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d$/).length).toBeGreaterThanOrEqual(2);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy Link' }));
    expect(writeText).toHaveBeenCalledWith('http://127.0.0.1/checkout/sandbox/inv_9');
    await waitFor(() => expect(app.toasts()).toContain('common.copied'));

    writeText.mockRejectedValueOnce(new Error('denied'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy ID' }));
    await waitFor(() => expect(app.toasts()).toContain('common.copy_error'));
  });

  it('shows "Expires" only while the payment is awaited', async () => {
    const pending = transaction({ id: 60, expired_at: 1_800_000_000 });
    const done = transaction({ id: 61, approval_status: 'approved', expired_at: 1_800_000_000 });
    const app = startMoneyApp({ listTransactions: () => Promise.resolve(history([pending, done])) });
    app.render(<TransactionsSection />);
    await userEvent.click(await screen.findByRole('button', { name: 'Transaction #60: details' }));
    expect(within(await screen.findByRole('dialog', { name: 'Transaction #60' })).getByText('Expires')).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Transaction #60' })).toBeNull());
    await userEvent.click(await screen.findByRole('button', { name: 'Transaction #61: details' }));
    expect(within(await screen.findByRole('dialog', { name: 'Transaction #61' })).queryByText('Expires')).toBeNull();
  });

  it('shows the crypto block when the transaction has crypto data', async () => {
    const crypto = transaction({ id: 50, method: USDT.name, integration_type: 'crypto_address', crypto_network: 'TRC20', crypto_wallet_address: 'TAddr123', crypto_transaction_hash: 'ab'.repeat(32), payment_currency: 'USDT', amount_payment_currency: 100, exchange_rate: 1 });
    const app = startMoneyApp({ listTransactions: () => Promise.resolve(history([crypto])) });
    app.render(<TransactionsSection />);
    await userEvent.click(await screen.findByRole('button', { name: 'Transaction #50: details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Transaction #50' });
    expect(within(dialog).getByText('Crypto')).toBeTruthy();
    expect(within(dialog).getByText('TAddr123')).toBeTruthy();
    expect(within(dialog).getByText('ab'.repeat(32))).toBeTruthy();
    expect(within(dialog).queryByText('Payment link')).toBeNull();
    expect(within(dialog).getByText('1 USD = 1.000000 USDT')).toBeTruthy();
    expect(within(dialog).getByText('100.00 USDT')).toBeTruthy();
  });

  it('shows a withdrawal in Russian: the translated method and processing time, the masked card without a copy button', async () => {
    const rows = [
      transaction({
        id: 60,
        transaction_type: 'withdrawal',
        type: 'withdrawal',
        payment_details: { requisites: '•••• 1111', payment_method: CARD.name },
        estimated_processing_time: 'up to 24 hours',
      }),
      transaction({ id: 61, method: SEPA.name, payment_method_id: SEPA.id, currency_code: 'EUR', payment_currency: 'EUR' }),
    ];
    const app = startMoneyApp({ listTransactions: () => Promise.resolve(history(rows)) });
    app.render(<TransactionsSection />, 'ru');
    await screen.findByText('#60');
    expect(screen.getByText('Банковский перевод (SEPA)')).toBeTruthy();
    expect(screen.queryByText('Bank transfer (SEPA)')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Операция №60: подробнее' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('•••• 1111')).toBeTruthy();
    expect(within(dialog).getByText('до 24 часов')).toBeTruthy();
    expect(dialog.textContent).not.toContain('up to');
    expect(within(dialog).queryByRole('button', { name: 'Скопировать: Получатель' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Скопировать: ID' })).toBeTruthy();
  });

  it('refreshes the shown list on a status push', async () => {
    const app = startMoneyApp({ listTransactions: () => Promise.resolve(history()) });
    app.render(<TransactionsSection />);
    await screen.findByText('#43');
    act(() => app.push('payment_status_update', { transaction: { id: 43, status: 'approved', transaction_type: 'withdrawal' } }));
    await waitFor(() => expect(app.calls.list).toHaveLength(2));
    expect(app.toasts()).toContain('transactions.toast_withdrawal_completed');
    expect(CARD.id).toBe('card_visa_mastercard');
  });
});
