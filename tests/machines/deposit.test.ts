/**
 * The deposit wizard: generated paths over method -> amount -> submitting -> process (manual,
 * integration, integration link) -> complete, then focused behaviour with real promise actors:
 * what is sent to the server (idempotency key, normalised amount), the amount rules as locale
 * keys, the live status rules (approved / failed / processing / someone else's transaction),
 * the manual confirmation and its failure, and Back. Last, the money flows with their real
 * implementations (src/services/money-actors.ts) against a real server: a payment-link
 * deposit paid on the sandbox checkout, a manual deposit confirmed and approved by the
 * operator, a withdrawal held, the history and its CSV export.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fromPromise, waitFor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import * as v from 'valibot';
import { PaymentClientRequestIdSchema, type DepositConfirmationResult, type DepositResult } from '../../contract/payments';
import {
  depositMachine,
  depositProcessMode,
  isPollingCurrent,
  type ConfirmDepositInput,
  type CreateDepositInput,
  type DepositContext,
  type DepositInput,
} from '../../machines/deposit/deposit.machine';
import type { AnyActorRef } from 'xstate';
import { createAppActor, type AppRuntime } from '../../src/app/create-app-actor';
import { featuresReady } from '../support/live-app';
import { createStorage, type KeyValueStore } from '../../src/services/storage';
import { createMoneyApi } from '../../src/services/money-api';
import { retryOnce } from '../../src/services/retry';
import { ApiError, type HttpClient } from '../../src/services/http';
import { startTestServer, type TestServer } from '../support/server';
import { auditLedgerAfterEach } from '../support/ledger-audit';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';
import { CARD, OXAPAY, SEPA, USDT, depositResult, transaction } from './money-fixtures';

const input: DepositInput = { requestKey: 'flow-key-0001', currency: 'USD' };

const manual = depositResult('manual');
const crypto = depositResult('crypto_address');
const link = depositResult('oxapay_link');
const replayedApproved = depositResult('oxapay_link', { status: 'approved' });
const replayedExpired = depositResult('manual', { status: 'expired' });
const confirmation: DepositConfirmationResult = { status: true, transaction: transaction({ approval_status: 'processing' }) };

const ev = {
  eur: { type: 'deposit.currencyChosen', currency: 'EUR' },
  usd: { type: 'deposit.currencyChosen', currency: 'USD' },
  card: { type: 'deposit.methodChosen', method: CARD },
  sepa: { type: 'deposit.methodChosen', method: SEPA },
  usdt: { type: 'deposit.methodChosen', method: USDT },
  oxapay: { type: 'deposit.methodChosen', method: OXAPAY },
  amountOk: { type: 'deposit.amountSubmitted', amount: '100' },
  amountLow: { type: 'deposit.amountSubmitted', amount: '1' },
  amountEmpty: { type: 'deposit.amountSubmitted', amount: '' },
  back: { type: 'deposit.backRequested' },
  confirm: { type: 'deposit.confirmRequested' },
  retry: { type: 'deposit.retryRequested' },
  approved: { type: 'deposit.statusUpdated', transactionId: 41, status: 'approved' },
  failed: { type: 'deposit.statusUpdated', transactionId: 41, status: 'failed' },
  expired: { type: 'deposit.statusUpdated', transactionId: 41, status: 'expired' },
  processing: { type: 'deposit.statusUpdated', transactionId: 41, status: 'processing' },
  otherApproved: { type: 'deposit.statusUpdated', transactionId: 99, status: 'approved' },
  pollingOn: { type: 'deposit.pollingUpdated', transactionId: 41, polling: true },
  createdManual: { type: 'xstate.done.actor.createDeposit', output: manual },
  createdCrypto: { type: 'xstate.done.actor.createDeposit', output: crypto },
  createdLink: { type: 'xstate.done.actor.createDeposit', output: link },
  createdApproved: { type: 'xstate.done.actor.createDeposit', output: replayedApproved },
  createdExpired: { type: 'xstate.done.actor.createDeposit', output: replayedExpired },
  createFailed: { type: 'xstate.error.actor.createDeposit', error: { message: 'Amount too high: maximum 5000.00 USD' } },
  createFailedSilently: { type: 'xstate.error.actor.createDeposit', error: null },
  createUnanswered: { type: 'xstate.error.actor.createDeposit', error: { status: 0, message: 'Failed to create deposit' } },
  confirmed: { type: 'xstate.done.actor.confirmDeposit', output: confirmation },
  confirmFailed: { type: 'xstate.error.actor.confirmDeposit', error: { message: 'This deposit can no longer be confirmed' } },
} as const satisfies Record<string, AnyEventObject>;

/** A refused request raises the attempt number: offer the failures only on the first attempt, so the graph stays finite. */
const requestFailures: readonly AnyEventObject[] = [ev.createFailed, ev.createFailedSilently, ev.createUnanswered];
const boundAttempts = (events: readonly AnyEventObject[]) => (snapshot: AnyMachineSnapshot) =>
  (snapshot.context as DepositContext).attempt === 0 ? [...events] : events.filter((e) => !requestFailures.includes(e));

const model: PathModel = {
  name: 'deposit',
  machine: depositMachine,
  input,
  events: boundAttempts(Object.values(ev)),
  simplePathEvents: boundAttempts([ev.card, ev.amountOk, ev.createdManual, ev.createdLink, ev.createFailed, ev.createUnanswered, ev.confirm, ev.confirmed, ev.approved, ev.back]),
  simplePaths: 400,
};

describe('deposit machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('deposit'));
});

function withActors(create: (input: CreateDepositInput) => Promise<DepositResult>, confirm?: (input: ConfirmDepositInput) => Promise<DepositConfirmationResult>) {
  return depositMachine.provide({
    actors: {
      createDeposit: fromPromise<DepositResult, CreateDepositInput>(({ input: request }) => create(request)),
      confirmDeposit: fromPromise<DepositConfirmationResult, ConfirmDepositInput>(({ input: request }) =>
        confirm ? confirm(request) : Promise.reject(new Error('unused')),
      ),
    },
  });
}

describe('deposit behaviour', () => {
  it('sends the request with a stable client_request_id and the normalised amount', async () => {
    const sent: CreateDepositInput[] = [];
    const { actor } = startUnderParent(withActors(async (r) => (sent.push(r), link)), input);
    actor.send(ev.oxapay);
    actor.send({ type: 'deposit.amountSubmitted', amount: ' 25,5 ' });
    await waitFor(actor, (s) => s.matches({ process: 'integrationLink' }));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ amount: '25.5', currency: 'USD', account_type: 'real', payment_method_id: 'oxapay_crypto', payment_system: OXAPAY.name });
    expect(v.is(PaymentClientRequestIdSchema, sent[0].client_request_id)).toBe(true);
    expect(depositProcessMode(actor.getSnapshot().value)).toBe('integrationLink');

    // Back and the same request again: the same key, so the server answers with the same deposit.
    actor.send(ev.back);
    expect(actor.getSnapshot().value).toBe('amount');
    expect(actor.getSnapshot().context.result).toBeNull();
    actor.send({ type: 'deposit.amountSubmitted', amount: '25.5' });
    await waitFor(actor, (s) => s.matches('process'));
    expect(sent[1].client_request_id).toBe(sent[0].client_request_id);
    actor.send(ev.back);
    actor.send({ type: 'deposit.amountSubmitted', amount: '30' });
    await waitFor(actor, (s) => s.matches('process'));
    expect(sent[2].client_request_id).not.toBe(sent[0].client_request_id);
  });

  it('refuses amounts outside the rules with locale keys and sends nothing', () => {
    const sent: CreateDepositInput[] = [];
    const { actor } = startUnderParent(withActors(async (r) => (sent.push(r), manual)), input);
    actor.send(ev.sepa);
    expect(actor.getSnapshot().value).toBe('method');
    actor.send(ev.card);
    const expectations: Array<[string, string]> = [
      ['', 'deposit.amount_required'],
      ['zero', 'deposit.amount_invalid'],
      ['0', 'deposit.amount_invalid'],
      ['10.005', 'wallet.amount_too_precise'],
      ['9.99', 'deposit.amount_too_low'],
      ['5000.01', 'deposit.amount_too_high'],
    ];
    for (const [amount, key] of expectations) {
      actor.send({ type: 'deposit.amountSubmitted', amount });
      expect(actor.getSnapshot().value).toBe('amount');
      expect(actor.getSnapshot().context.fieldError).toBe(key);
      expect(actor.getSnapshot().context.amount).toBe(amount);
    }
    expect(sent).toEqual([]);
  });

  it('converts the bounds for another currency and drops a method that does not serve it', () => {
    const { actor } = startUnderParent(withActors(async () => manual), input);
    actor.send(ev.card);
    actor.send(ev.back);
    actor.send(ev.eur);
    expect(actor.getSnapshot().context.method?.id).toBe('card_visa_mastercard');
    // 9.20 EUR is the card's converted minimum.
    actor.send(ev.card);
    actor.send({ type: 'deposit.amountSubmitted', amount: '9.19' });
    expect(actor.getSnapshot().context.fieldError).toBe('deposit.amount_too_low');
    actor.send(ev.back);
    actor.send(ev.sepa);
    actor.send(ev.back);
    actor.send(ev.usd);
    expect(actor.getSnapshot().context.method).toBeNull();
  });

  it('completes on an approved push for its own transaction and asks for a balance refresh', async () => {
    const { actor, parentEvents } = startUnderParent(withActors(async () => crypto), input);
    actor.send(ev.usdt);
    actor.send(ev.amountOk);
    await waitFor(actor, (s) => s.matches({ process: 'integration' }));
    actor.send(ev.otherApproved);
    expect(actor.getSnapshot().matches({ process: 'integration' })).toBe(true);
    actor.send(ev.processing);
    expect(actor.getSnapshot().context.paymentStatus).toBe('processing');
    expect(actor.getSnapshot().matches({ process: 'integration' })).toBe(true);
    actor.send(ev.approved);
    expect(actor.getSnapshot().value).toEqual({ complete: 'succeeded' });
    expect(parentEvents).toEqual([{ type: 'session.userRefreshRequested' }]);
  });

  it('keeps polling_status, even one that came before the answer, and tells whether its own deposit is being checked', async () => {
    let answer: (r: DepositResult) => void = () => undefined;
    const { actor } = startUnderParent(withActors(() => new Promise<DepositResult>((resolve) => (answer = resolve))), input);
    actor.send(ev.usdt);
    actor.send(ev.amountOk);
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    actor.send(ev.pollingOn);
    expect(isPollingCurrent(actor.getSnapshot().context)).toBe(false);
    answer(crypto);
    await waitFor(actor, (s) => s.matches({ process: 'integration' }));
    expect(isPollingCurrent(actor.getSnapshot().context)).toBe(true);
    actor.send({ type: 'deposit.pollingUpdated', transactionId: 99, polling: true });
    expect(isPollingCurrent(actor.getSnapshot().context)).toBe(false);
    actor.send({ type: 'deposit.pollingUpdated', transactionId: 41, polling: false });
    expect(isPollingCurrent(actor.getSnapshot().context)).toBe(false);
    expect(actor.getSnapshot().matches({ process: 'integration' })).toBe(true);
  });

  it('ends in "Payment failed!" on a failed, expired or cancelled push', async () => {
    for (const status of ['failed', 'expired', 'cancelled'] as const) {
      const { actor, parentEvents } = startUnderParent(withActors(async () => link), input);
      actor.send(ev.oxapay);
      actor.send(ev.amountOk);
      await waitFor(actor, (s) => s.matches('process'));
      actor.send({ type: 'deposit.statusUpdated', transactionId: 41, status });
      expect(actor.getSnapshot().value).toEqual({ complete: 'failed' });
      expect(actor.getSnapshot().context.paymentStatus).toBe(status);
      expect(parentEvents).toEqual([]);
    }
  });

  it('a failed request is "Deposit Failed!" with the server text, and Try again keeps the amount', async () => {
    const { actor } = startUnderParent(withActors(() => Promise.reject(new Error('Failed to create deposit'))), input);
    actor.send(ev.card);
    actor.send(ev.amountOk);
    await waitFor(actor, (s) => s.matches({ complete: 'requestFailed' }));
    expect(actor.getSnapshot().context.error).toBe('Failed to create deposit');
    actor.send(ev.retry);
    expect(actor.getSnapshot().value).toBe('amount');
    expect(actor.getSnapshot().context.amount).toBe('100');
  });

  it('Retry after a refused request is a new attempt with a new client_request_id; after no answer it keeps the id', async () => {
    const sent: CreateDepositInput[] = [];
    const answers: Array<() => Promise<DepositResult>> = [
      // The provider failed: the server marked that deposit failed and answered 502.
      () => Promise.reject(new ApiError(502, 'Failed to create deposit')),
      // No answer at all: the deposit may exist on the server.
      () => Promise.reject(new ApiError(0, 'Failed to create deposit', { serverMessage: null })),
      async () => link,
    ];
    const { actor } = startUnderParent(withActors((r) => (sent.push(r), (answers[sent.length - 1] ?? (async () => link))())), input);
    actor.send(ev.oxapay);
    actor.send(ev.amountOk);
    await waitFor(actor, (s) => s.matches({ complete: 'requestFailed' }));
    expect(actor.getSnapshot().context).toMatchObject({ error: 'Failed to create deposit', attempt: 1 });
    actor.send(ev.retry);
    actor.send(ev.amountOk);
    await waitFor(actor, (s) => s.matches({ complete: 'requestFailed' }));
    expect(actor.getSnapshot().context.attempt).toBe(1);
    actor.send(ev.retry);
    actor.send(ev.amountOk);
    await waitFor(actor, (s) => s.matches({ process: 'integrationLink' }));
    const ids = sent.map((r) => r.client_request_id);
    expect(ids[1]).not.toBe(ids[0]);
    expect(ids[2]).toBe(ids[1]);
    expect(ids.every((id) => v.is(PaymentClientRequestIdSchema, id))).toBe(true);
    // The same request again in the same attempt (Back, Continue) still replays.
    actor.send(ev.back);
    actor.send(ev.amountOk);
    await waitFor(actor, (s) => s.matches('process'));
    expect(sent[3].client_request_id).toBe(ids[2]);
  });

  it('sends a deposit that got no answer once more with the same id, and refusals not at all', async () => {
    let calls = 0;
    const flaky = () => {
      calls += 1;
      return calls === 1 ? Promise.reject(new ApiError(0, 'Failed to create deposit', { serverMessage: null })) : Promise.resolve('second');
    };
    await expect(retryOnce(flaky, 1)).resolves.toBe('second');
    expect(calls).toBe(2);
    calls = 0;
    const refused = () => {
      calls += 1;
      return Promise.reject(new ApiError(502, 'Failed to create deposit'));
    };
    await expect(retryOnce(refused, 1)).rejects.toMatchObject({ status: 502 });
    expect(calls).toBe(1);
  });

  it('reads any server-side failure of a deposit as "Failed to create deposit"', async () => {
    const failing = (error: unknown): HttpClient => ({ request: () => Promise.reject(error), setAuth: () => {} });
    const body = { amount: '10', currency: 'USD', account_type: 'real', payment_method_id: 'card_visa_mastercard', client_request_id: 'd-abcdefgh-1' } as const;
    const cases: Array<[ApiError, number, string]> = [
      [new ApiError(502, 'Failed to create deposit'), 502, 'Failed to create deposit'],
      [new ApiError(500, 'Internal server error'), 500, 'Failed to create deposit'],
      [new ApiError(504, 'Request failed', { serverMessage: null }), 504, 'Failed to create deposit'],
      [new ApiError(400, 'Amount too high: maximum 5000.00 USD'), 400, 'Amount too high: maximum 5000.00 USD'],
    ];
    for (const [error, status, message] of cases) {
      await expect(createMoneyApi(failing(error)).createDeposit(body)).rejects.toMatchObject({ status, message });
    }
  });

  it('manual: Confirm sends the transaction id; a refusal stays with the error, success waits in complete', async () => {
    const confirms: ConfirmDepositInput[] = [];
    let fail = true;
    const machine = withActors(
      async () => manual,
      async (r) => {
        confirms.push(r);
        if (fail) throw new Error('This deposit can no longer be confirmed');
        return confirmation;
      },
    );
    const { actor, parentEvents } = startUnderParent(machine, input);
    actor.send(ev.card);
    actor.send(ev.amountOk);
    await waitFor(actor, (s) => s.matches({ process: { manual: 'awaitingConfirmation' } }));
    expect(depositProcessMode(actor.getSnapshot().value)).toBe('manual');
    actor.send(ev.confirm);
    actor.send(ev.back);
    expect(actor.getSnapshot().matches({ process: { manual: 'confirming' } })).toBe(true);
    await waitFor(actor, (s) => s.matches({ process: { manual: 'awaitingConfirmation' } }));
    expect(actor.getSnapshot().context.confirmError).toBe('This deposit can no longer be confirmed');
    fail = false;
    actor.send(ev.confirm);
    await waitFor(actor, (s) => s.matches({ complete: 'pending' }));
    expect(confirms).toEqual([{ transactionId: 41 }, { transactionId: 41 }]);
    expect(actor.getSnapshot().context).toMatchObject({ paymentStatus: 'processing', confirmError: null });
    actor.send(ev.approved);
    expect(actor.getSnapshot().value).toEqual({ complete: 'succeeded' });
    expect(parentEvents).toEqual([{ type: 'session.userRefreshRequested' }]);
  });

  it('a replayed request that is already final goes straight to its outcome', async () => {
    const a = startUnderParent(withActors(async () => replayedApproved), input).actor;
    a.send(ev.oxapay);
    a.send(ev.amountOk);
    await waitFor(a, (s) => s.matches('complete'));
    expect(a.getSnapshot().value).toEqual({ complete: 'succeeded' });
    const b = startUnderParent(withActors(async () => replayedExpired), input).actor;
    b.send(ev.card);
    b.send(ev.amountOk);
    await waitFor(b, (s) => s.matches('complete'));
    expect(b.getSnapshot().value).toEqual({ complete: 'failed' });
    expect(depositProcessMode('method')).toBeNull();
  });
});

// ---- with the real implementations against a real server -------------------------------------

describe('money against a real server', () => {
  const WAIT = { timeout: 10_000 };
  let server: TestServer;
  let runtime: AppRuntime;
  const data = new Map<string, string>();
  const store: KeyValueStore = { getItem: (k) => data.get(k) ?? null, setItem: (k, val) => void data.set(k, val), removeItem: (k) => void data.delete(k) };
  const child = (id: string): AnyActorRef => {
    const ref = runtime.actor.system.get(id);
    if (!ref) throw new Error(`no actor ${id}`);
    return ref;
  };
  const realUsd = () => child('balance').getSnapshot().context.balances.USD?.RealBalance ?? 0;

  // The ledger audit after every test, and the real `audit` command when the server closes.
  auditLedgerAfterEach(() => server);

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT: 'false' });
    runtime = await createAppActor({ window: null, baseURL: server.baseUrl, socketUrl: server.baseUrl, storage: createStorage(store) });
    const username = `money${Date.now() % 100000}`;
    runtime.actor.send({ type: 'flow.registrationStarted' });
    const registration = child('registration');
    registration.send({ type: 'registration.stepSubmitted', values: { username, email: `${username}@example.com`, password: 'Secret#123', password_confirmation: 'Secret#123' } });
    registration.send({ type: 'registration.stepSubmitted', values: { first_name: 'Ann', last_name: 'Lee', phone: '+15550102030' } });
    registration.send({ type: 'registration.stepSubmitted', values: { currency: 'USD', terms_accepted: true } });
    await waitFor(child('session'), (s) => s.matches('loggedIn'), WAIT);
    await featuresReady(runtime);
    await waitFor(child('socket'), (s) => s.hasTag('live'), WAIT);
  }, 30_000);

  afterAll(async () => {
    runtime?.actor.stop();
    const deadline = Date.now() + 5000;
    while ((server?.ctx.io?.sockets.sockets.size ?? 0) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await server?.close();
  }, 30_000);

  it('pays a payment-link deposit on the sandbox checkout and completes on the live status', async () => {
    runtime.actor.send({ type: 'flow.depositStarted', requestKey: 'live-deposit-1' });
    const methods = await waitFor(child('paymentMethods'), (s) => s.matches('ready'), WAIT);
    const link = methods.context.methods.find((m: { integration_type: string }) => m.integration_type === 'oxapay_link');
    const deposit = child('deposit');
    deposit.send({ type: 'deposit.methodChosen', method: link });
    deposit.send({ type: 'deposit.amountSubmitted', amount: '25' });
    const shown = await waitFor(deposit, (s) => s.matches({ process: 'integrationLink' }), WAIT);
    const url: string = shown.context.result.payment_url;
    expect(url).toContain('/checkout/sandbox/');

    const page = await fetch(url).then((r) => r.text());
    const token = /name="token" value="([^"]+)"/.exec(page)?.[1];
    expect(token).toBeTruthy();
    const paid = await fetch(`${url}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: token! }) });
    expect(paid.status).toBe(200);

    await waitFor(deposit, (s) => s.matches({ complete: 'succeeded' }), WAIT);
    await waitFor(child('balance'), () => realUsd() === 25, WAIT);
    await waitFor(child('toasts'), (s) => s.context.toasts.some((t: { messageKey?: string }) => t.messageKey === 'transactions.toast_deposit_completed'), WAIT);
    runtime.actor.send({ type: 'flow.depositEnded' });
  });

  it('confirms a manual deposit and completes when the operator approves it', async () => {
    runtime.actor.send({ type: 'flow.depositStarted', requestKey: 'live-deposit-2' });
    const deposit = child('deposit');
    const card = child('paymentMethods').getSnapshot().context.methods.find((m: { id: string }) => m.id === 'card_visa_mastercard');
    deposit.send({ type: 'deposit.methodChosen', method: card });
    deposit.send({ type: 'deposit.amountSubmitted', amount: '10.50' });
    const shown = await waitFor(deposit, (s) => s.matches({ process: { manual: 'awaitingConfirmation' } }), WAIT);
    expect(shown.context.result.transaction.requisit.card_number).toBeTruthy();
    deposit.send({ type: 'deposit.confirmRequested' });
    const pending = await waitFor(deposit, (s) => s.matches({ complete: 'pending' }), WAIT);
    expect(pending.context.paymentStatus).toBe('processing');
    await server.ctx.services.payments.approve(pending.context.result.transaction_id);
    await waitFor(deposit, (s) => s.matches({ complete: 'succeeded' }), WAIT);
    await waitFor(child('balance'), () => realUsd() === 35.5, WAIT);
    runtime.actor.send({ type: 'flow.depositEnded' });
  });

  it('holds a withdrawal, refuses one above the balance, and lists both payments; the CSV has them too', async () => {
    runtime.actor.send({ type: 'flow.withdrawStarted', requestKey: 'live-withdraw-1' });
    const withdraw = child('withdraw');
    expect(withdraw.getSnapshot().context.balances.USD.RealBalance).toBe(35.5);
    const card = child('paymentMethods').getSnapshot().context.methods.find((m: { id: string }) => m.id === 'card_visa_mastercard');
    withdraw.send({ type: 'withdraw.methodChosen', method: card });
    withdraw.send({ type: 'withdraw.submitted', amount: '36', requisites: '4111 1111 1111 1111' });
    expect(withdraw.getSnapshot().context.fieldErrors.amount).toBe('withdraw.insufficient_balance');
    withdraw.send({ type: 'withdraw.submitted', amount: '12.25', requisites: '4111 1111 1111 1111' });
    const done = await waitFor(withdraw, (s) => s.matches('completion'), WAIT);
    expect(done.context.result).toMatchObject({ status: 'pending', estimated_processing_time: 'up to 24 hours' });
    await waitFor(child('balance'), () => realUsd() === 23.25, WAIT);
    runtime.actor.send({ type: 'flow.withdrawEnded' });

    const history = child('transactions');
    history.send({ type: 'transactions.opened' });
    const loaded = await waitFor(history, (s) => s.matches({ list: 'loaded' }), WAIT);
    const rows = loaded.context.transactions.map((t: { transaction_type: string; approval_status: string; amount: number }) => [t.transaction_type, t.approval_status, t.amount]);
    expect(rows).toEqual([
      ['withdrawal', 'pending', 12.25],
      ['deposit', 'approved', 10.5],
      ['deposit', 'approved', 25],
    ]);
    history.send({ type: 'transactions.filtersChanged', filters: { type: 'withdrawal', status: 'pending' } });
    const filtered = await waitFor(history, (s) => s.matches({ list: 'loaded' }), WAIT);
    expect(filtered.context.transactions).toHaveLength(1);
    expect(filtered.context.pagination).toMatchObject({ page: 1, total_count: 1, total_pages: 1 });

    const csv = await (await createMoneyApi(runtime.services.http).exportTransactions({ type: 'deposit' })).text();
    const lines = csv.replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('10.50');
  });

  it('after the provider failed (502), Retry creates a new deposit instead of replaying the failed one', async () => {
    const provider = server.ctx.services.payments.providers.get('oxapay_link')!;
    const down = vi.spyOn(provider, 'createDeposit').mockRejectedValueOnce(new Error('provider down'));
    try {
      runtime.actor.send({ type: 'flow.depositStarted', requestKey: 'live-deposit-retry' });
      const deposit = child('deposit');
      const link = child('paymentMethods').getSnapshot().context.methods.find((m: { integration_type: string }) => m.integration_type === 'oxapay_link');
      deposit.send({ type: 'deposit.methodChosen', method: link });
      deposit.send({ type: 'deposit.amountSubmitted', amount: '40' });
      const failed = await waitFor(deposit, (s) => s.matches({ complete: 'requestFailed' }), WAIT);
      expect(failed.context.error).toBe('Failed to create deposit');
      const rows = () => server.ctx.db.selectFrom('payment_transactions').select(['id', 'status', 'client_request_id']).where('amount', '=', 4000).orderBy('id').execute();
      expect((await rows()).map((r) => r.status)).toEqual(['failed']);

      deposit.send({ type: 'deposit.retryRequested' });
      deposit.send({ type: 'deposit.amountSubmitted', amount: '40' });
      const shown = await waitFor(deposit, (s) => s.matches({ process: 'integrationLink' }), WAIT);
      const [first, second] = await rows();
      expect(second).toMatchObject({ id: shown.context.result.transaction_id, status: 'pending' });
      expect(second.client_request_id).not.toBe(first.client_request_id);
      expect(down).toHaveBeenCalledTimes(2);
      runtime.actor.send({ type: 'flow.depositEnded' });
    } finally {
      down.mockRestore();
    }
  });
});
