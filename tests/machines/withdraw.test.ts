/**
 * The withdraw wizard: generated paths over method -> details -> submitting -> completion with
 * Back and live status, then focused behaviour with a real promise actor: the request sent
 * (real account, requisites, idempotency key), every rule of spec section 5 as a locale key
 * (amount, requisites, bounds, the real balance, kept current by balance pushes), the payment
 * link never accepted, failure texts, the success toast and the completion outcomes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fromPromise, waitFor, type AnyEventObject } from 'xstate';
import * as v from 'valibot';
import { PaymentClientRequestIdSchema, type WithdrawalResult } from '../../contract/payments';
import { withdrawFormSchema } from '../../machines/withdraw/withdraw.schemas';
import {
  availableMinor,
  withdrawLimits,
  withdrawMachine,
  withdrawOutcome,
  type CreateWithdrawalInput,
  type WithdrawInput,
} from '../../machines/withdraw/withdraw.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';
import { CARD, OXAPAY, SEPA, USDT, withdrawalResult } from './money-fixtures';

const input: WithdrawInput = {
  requestKey: 'flow-key-0002',
  currency: 'USD',
  balances: { USD: { RealBalance: 120.5, DemoBalance: 10000 }, EUR: { RealBalance: 0, DemoBalance: 10000 } },
};
const result = withdrawalResult();

const ev = {
  eur: { type: 'withdraw.currencyChosen', currency: 'EUR' },
  usd: { type: 'withdraw.currencyChosen', currency: 'USD' },
  card: { type: 'withdraw.methodChosen', method: CARD },
  oxapay: { type: 'withdraw.methodChosen', method: OXAPAY },
  sepa: { type: 'withdraw.methodChosen', method: SEPA },
  ok: { type: 'withdraw.submitted', amount: '25', requisites: '4111 1111 1111 1111' },
  tooMuch: { type: 'withdraw.submitted', amount: '500', requisites: '4111 1111 1111 1111' },
  short: { type: 'withdraw.submitted', amount: '25', requisites: ' ab ' },
  back: { type: 'withdraw.backRequested' },
  richer: { type: 'withdraw.balancesReceived', balances: { USD: { RealBalance: 1000, DemoBalance: 10000 } } },
  approved: { type: 'withdraw.statusUpdated', transactionId: 52, status: 'approved' },
  other: { type: 'withdraw.statusUpdated', transactionId: 7, status: 'failed' },
  done: { type: 'xstate.done.actor.createWithdrawal', output: result },
  refused: { type: 'xstate.error.actor.createWithdrawal', error: { message: 'Insufficient balance' } },
  refusedSilently: { type: 'xstate.error.actor.createWithdrawal', error: null },
} as const satisfies Record<string, AnyEventObject>;

const model: PathModel = {
  name: 'withdraw',
  machine: withdrawMachine,
  input,
  events: Object.values(ev),
  simplePathEvents: [ev.card, ev.ok, ev.short, ev.back, ev.done, ev.refused, ev.approved],
  simplePaths: 300,
};

describe('withdraw machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('withdraw'));
});

function withCreate(create: (input: CreateWithdrawalInput) => Promise<WithdrawalResult>) {
  return withdrawMachine.provide({
    actors: { createWithdrawal: fromPromise<WithdrawalResult, CreateWithdrawalInput>(({ input: request }) => create(request)) },
  });
}

describe('withdraw behaviour', () => {
  it('sends a real-account withdrawal with the requisites and a stable key, then toasts and refreshes', async () => {
    const sent: CreateWithdrawalInput[] = [];
    const { actor, parentEvents } = startUnderParent(withCreate(async (r) => (sent.push(r), result)), input);
    actor.send(ev.card);
    actor.send({ type: 'withdraw.submitted', amount: '25,00', requisites: '  4111 1111 1111 1111  ' });
    await waitFor(actor, (s) => s.matches('completion'));
    expect(sent[0]).toMatchObject({
      amount: '25.00',
      currency: 'USD',
      payment_method_id: 'card_visa_mastercard',
      account_type: 'real',
      payment_system: CARD.name,
      payment_details: { requisites: '4111 1111 1111 1111', payment_method: CARD.name },
    });
    expect(v.is(PaymentClientRequestIdSchema, sent[0].client_request_id)).toBe(true);
    expect(parentEvents).toEqual([
      { type: 'toast.requested', toast: { type: 'success', messageKey: 'withdraw.success_message' } },
      { type: 'session.userRefreshRequested' },
    ]);
    expect(actor.getSnapshot().context.result?.estimated_processing_time).toBe('up to 24 hours');
    actor.send(ev.other);
    expect(actor.getSnapshot().context.result?.status).toBe('pending');
    actor.send(ev.approved);
    expect(actor.getSnapshot().context.result?.status).toBe('approved');
  });

  it('checks every rule with locale keys and sends nothing until they pass', () => {
    const sent: CreateWithdrawalInput[] = [];
    const { actor } = startUnderParent(withCreate(async (r) => (sent.push(r), result)), input);
    actor.send(ev.oxapay);
    expect(actor.getSnapshot().value).toBe('method');
    actor.send(ev.sepa);
    expect(actor.getSnapshot().value).toBe('method');
    actor.send(ev.card);
    const card = '4111 1111 1111 1111';
    const cases: Array<[string, string, string | null, string | null]> = [
      ['', '', 'validation.amount_number', 'withdraw.card_number_length'],
      ['-3', card, 'validation.amount_number', null],
      ['0', card, 'validation.amount_number', null],
      ['12.345', card, 'wallet.amount_too_precise', null],
      ['9.99', card, 'withdraw.amount_too_low', null],
      // Above both the max and the balance: the balance (120.50) is the tighter bound.
      ['5000.01', card, 'withdraw.insufficient_balance', null],
      ['120.51', card, 'withdraw.insufficient_balance', null],
      ['120.50', '  ab  ', null, 'withdraw.card_number_length'],
      ['50', '1234', null, 'withdraw.card_number_length'],
      ['50', '4111 1111 1111 111x', null, 'withdraw.card_number_length'],
      ['50', '4'.repeat(20), null, 'withdraw.card_number_length'],
      ['50', '4111 1111 1111 1112', null, 'withdraw.card_number_invalid'],
    ];
    for (const [amount, requisites, amountKey, requisitesKey] of cases) {
      actor.send({ type: 'withdraw.submitted', amount, requisites });
      expect(actor.getSnapshot().value).toBe('details');
      expect(actor.getSnapshot().context.fieldErrors).toEqual({ amount: amountKey, requisites: requisitesKey });
    }
    // Other methods keep the spec's 3 to 256 characters.
    actor.send(ev.back);
    actor.send({ type: 'withdraw.methodChosen', method: USDT });
    for (const [requisites, key] of [
      ['  ab  ', 'validation.requisites_min_length'],
      ['x'.repeat(257), 'validation.requisites_max_length'],
    ] as const) {
      actor.send({ type: 'withdraw.submitted', amount: '50', requisites });
      expect(actor.getSnapshot().context.fieldErrors).toEqual({ amount: null, requisites: key });
    }
    expect(sent).toEqual([]);
  });

  it('names the method maximum when the balance is not the tighter bound', () => {
    const { actor } = startUnderParent(withCreate(async () => result), { ...input, balances: { USD: { RealBalance: 9000, DemoBalance: 10000 } } });
    actor.send(ev.card);
    actor.send({ type: 'withdraw.submitted', amount: '5000.01', requisites: '4111 1111 1111 1111' });
    expect(actor.getSnapshot().context.fieldErrors.amount).toBe('withdraw.amount_too_high');
    actor.send({ type: 'withdraw.submitted', amount: '9000.01', requisites: '4111 1111 1111 1111' });
    expect(actor.getSnapshot().context.fieldErrors.amount).toBe('withdraw.amount_too_high');
  });

  it('follows the real balance as it changes', async () => {
    const { actor } = startUnderParent(withCreate(async () => result), input);
    actor.send(ev.card);
    actor.send(ev.tooMuch);
    expect(actor.getSnapshot().context.fieldErrors.amount).toBe('withdraw.insufficient_balance');
    actor.send(ev.richer);
    actor.send(ev.tooMuch);
    await waitFor(actor, (s) => s.matches('completion'));
  });

  it('a refused request returns to the details with the server text; Back and currency changes reset the method', async () => {
    const { actor } = startUnderParent(withCreate(() => Promise.reject(new Error('Insufficient balance'))), input);
    actor.send(ev.card);
    actor.send(ev.ok);
    await waitFor(actor, (s) => s.matches('details'));
    expect(actor.getSnapshot().context).toMatchObject({ error: 'Insufficient balance', amount: '25', requisites: '4111 1111 1111 1111' });
    actor.send(ev.back);
    actor.send(ev.eur);
    expect(actor.getSnapshot().context).toMatchObject({ currency: 'EUR', method: { id: 'card_visa_mastercard' }, amount: '', error: null });
    actor.send({ type: 'withdraw.methodChosen', method: USDT });
    actor.send(ev.back);
    actor.send(ev.usd);
    expect(actor.getSnapshot().context.method?.id).toBe('usdt_trc20');
  });

  it('limits, form schema and outcome texts agree', () => {
    const context = { method: CARD, currency: 'USD', balances: input.balances };
    const limits = withdrawLimits(context)!;
    expect(limits).toEqual({ min: 1000, max: 500000, decimals: 2, available: 12050 });
    expect(withdrawLimits({ ...context, method: OXAPAY })).toBeNull();
    expect(withdrawLimits({ ...context, method: null })).toBeNull();
    expect(availableMinor({}, 'USD', 2)).toBe(0);
    const messages = (schema: ReturnType<typeof withdrawFormSchema>, values: { amount: string; requisites: string }) => {
      const parsed = v.safeParse(schema, values, { abortPipeEarly: true });
      return parsed.success ? [] : parsed.issues.map((i) => i.message);
    };
    expect(messages(withdrawFormSchema(limits, CARD), { amount: '200', requisites: 'ab' })).toEqual(['withdraw.insufficient_balance', 'withdraw.card_number_length']);
    expect(messages(withdrawFormSchema(limits, CARD), { amount: '20', requisites: '4111 1111 1111 1112' })).toEqual(['withdraw.card_number_invalid']);
    expect(messages(withdrawFormSchema(limits, CARD), { amount: '20', requisites: '5555-5555-5555-4444' })).toEqual([]);
    expect(messages(withdrawFormSchema(limits, USDT), { amount: '200', requisites: 'ab' })).toEqual(['withdraw.insufficient_balance', 'validation.requisites_min_length']);
    expect(messages(withdrawFormSchema(limits, USDT), { amount: '20', requisites: 'T12' })).toEqual([]);
    expect(withdrawOutcome('approved')).toBe('done');
    expect(withdrawOutcome('failed')).toBe('failed');
    expect(withdrawOutcome('cancelled')).toBe('failed');
    expect(withdrawOutcome('pending')).toBe('pending');
    expect(withdrawOutcome('processing')).toBe('pending');
  });
});
