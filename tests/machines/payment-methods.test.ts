/**
 * The payment-method catalogue: generated paths, the socket request and the 10 s loading limit
 * (fake timers), and the pure money helpers the wizards share: which methods serve a currency
 * and direction with converted bounds, reading typed amounts, presets and request ids.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, type AnyEventObject } from 'xstate';
import { PaymentClientRequestIdSchema } from '../../contract/payments';
import { PAYMENT_METHODS_TIMEOUT_MS, paymentMethodsMachine } from '../../machines/payment-methods/payment-methods.machine';
import {
  amountPresets,
  amountSchema,
  clientRequestId,
  isMethodOffered,
  methodsFor,
  normaliseAmount,
  readAmount,
} from '../../machines/payment-methods/amounts';
import { DEPOSIT_AMOUNT_MESSAGES } from '../../machines/deposit/deposit.schemas';
import * as v from 'valibot';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';
import { CARD, METHODS, OXAPAY, SEPA, USDT } from './money-fixtures';

const events: AnyEventObject[] = [
  { type: 'paymentMethods.loadRequested' },
  { type: 'paymentMethods.received', methods: METHODS },
  { type: 'paymentMethods.received', methods: [] },
];
const model: PathModel = { name: 'paymentMethods', machine: paymentMethodsMachine, events };

describe('payment methods machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('paymentMethods'));
});

describe('payment methods behaviour', () => {
  afterEach(() => vi.useRealTimers());

  it('asks the socket for get_payment_methods once per load and keeps the pushed catalogue', () => {
    const { actor, parentEvents } = startUnderParent(paymentMethodsMachine);
    actor.send({ type: 'paymentMethods.loadRequested' });
    actor.send({ type: 'paymentMethods.loadRequested' });
    expect(parentEvents).toEqual([{ type: 'socket.emitRequested', event: 'get_payment_methods', payload: {} }]);
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    actor.send({ type: 'paymentMethods.received', methods: METHODS });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().hasTag('loading')).toBe(false);
    expect(actor.getSnapshot().context.methods).toEqual(METHODS);
    actor.send({ type: 'paymentMethods.loadRequested' });
    expect(parentEvents).toHaveLength(2);
  });

  it('clears the loading flag after 10 s when nothing arrives, and keeps an earlier list', () => {
    vi.useFakeTimers();
    const { actor } = startUnderParent(paymentMethodsMachine);
    actor.send({ type: 'paymentMethods.loadRequested' });
    vi.advanceTimersByTime(PAYMENT_METHODS_TIMEOUT_MS - 1);
    expect(actor.getSnapshot().value).toBe('loading');
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('unavailable');
    expect(PAYMENT_METHODS_TIMEOUT_MS).toBe(10_000);

    actor.send({ type: 'paymentMethods.received', methods: METHODS });
    actor.send({ type: 'paymentMethods.loadRequested' });
    vi.advanceTimersByTime(PAYMENT_METHODS_TIMEOUT_MS);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.methods).toHaveLength(4);
  });
});

describe('methods for a currency and direction', () => {
  it('offers deposit methods serving the currency, with bounds converted like the server does', () => {
    const usd = methodsFor(METHODS, 'USD', 'deposit');
    expect(usd.map((o) => o.method.id)).toEqual(['card_visa_mastercard', 'usdt_trc20', 'oxapay_crypto']);
    expect(usd[0]).toMatchObject({ min: 1000, max: 500000 });
    const eur = methodsFor(METHODS, 'EUR', 'deposit');
    expect(eur.map((o) => o.method.id)).toEqual(['card_visa_mastercard', 'bank_transfer_sepa', 'usdt_trc20', 'oxapay_crypto']);
    // No rates from the server: the configured 0.92 EUR per USD, as round figures: 10.00-4,500.00 EUR (docs/money.md).
    expect(eur[0]).toMatchObject({ min: 1000, max: 450000 });
    expect(eur[1]).toMatchObject({ min: 5000, max: 2000000 });
  });

  it('converts at the rates the server sent with the catalogue, attached to each method', () => {
    const rates = { EUR: { per_usd: 1 / 1.1598, source: 'pair' as const, pair: 'EUR/USD', at: 1 } };
    const actor = createActor(paymentMethodsMachine).start();
    actor.send({ type: 'paymentMethods.received', methods: METHODS, rates });
    const methods = actor.getSnapshot().context.methods;
    expect(methods.every((m) => m.rates === rates)).toBe(true);
    // 10-5,000 USD at EUR/USD 1.1598: 8.62-4,311.09 EUR -> 9.00-4,000.00 EUR.
    expect(methodsFor(methods, 'EUR', 'deposit')[0]).toMatchObject({ min: 900, max: 400000 });
    // An older server sends no rates: the methods stay as they came.
    actor.send({ type: 'paymentMethods.received', methods: METHODS });
    expect(actor.getSnapshot().context.methods).toBe(METHODS);
  });

  it('never offers the payment link, a disabled or an inactive method for withdrawal', () => {
    expect(methodsFor(METHODS, 'USD', 'withdrawal').map((o) => o.method.id)).toEqual(['card_visa_mastercard', 'usdt_trc20']);
    expect(isMethodOffered({ ...OXAPAY, withdraw_enabled: true }, 'withdrawal')).toBe(false);
    expect(isMethodOffered({ ...CARD, is_active: false }, 'deposit')).toBe(false);
    expect(isMethodOffered({ ...CARD, deposit_enabled: false }, 'deposit')).toBe(false);
    expect(isMethodOffered({ ...USDT, withdraw_enabled: false }, 'withdrawal')).toBe(false);
    expect(methodsFor([SEPA], 'USD', 'deposit')).toEqual([]);
    expect(methodsFor(METHODS, 'XXX', 'deposit')).toEqual([]);
  });
});

describe('reading a typed amount', () => {
  const limits = { min: 1000, max: 500000, decimals: 2 };
  it.each([
    ['', 'required'],
    ['   ', 'required'],
    ['abc', 'invalid'],
    ['-5', 'invalid'],
    ['0', 'invalid'],
    ['0.00', 'invalid'],
    ['1e3', 'invalid'],
    ['10.001', 'too_precise'],
    ['9.99', 'too_low'],
    ['5000.01', 'too_high'],
  ])('%j is refused as %s', (text, problem) => {
    expect(readAmount(text, limits)).toEqual({ problem });
  });

  it('accepts amounts within the bounds, with a decimal comma too, in exact minor units', () => {
    expect(readAmount('10', limits)).toEqual({ minor: 1000 });
    expect(readAmount(' 100,5 ', limits)).toEqual({ minor: 10050 });
    expect(readAmount('5000.00', limits)).toEqual({ minor: 500000 });
    expect(readAmount('0.30', { min: 1, max: 100, decimals: 2 })).toEqual({ minor: 30 });
    expect(normaliseAmount(' 1 234,50 ')).toBe('1234.50');
  });

  it('refuses more than is available', () => {
    expect(readAmount('20', { ...limits, available: 1999 })).toEqual({ problem: 'insufficient' });
    expect(readAmount('19.99', { ...limits, available: 1999 })).toEqual({ minor: 1999 });
  });

  it('gives the same first problem through the form schema, as a locale key', () => {
    const schema = amountSchema(limits, DEPOSIT_AMOUNT_MESSAGES);
    const message = (text: string) => {
      const parsed = v.safeParse(schema, text, { abortPipeEarly: true });
      return parsed.success ? null : parsed.issues[0].message;
    };
    expect(message('')).toBe('deposit.amount_required');
    expect(message('x')).toBe('deposit.amount_invalid');
    expect(message('1.234')).toBe('wallet.amount_too_precise');
    expect(message('1')).toBe('deposit.amount_too_low');
    expect(message('9999')).toBe('deposit.amount_too_high');
    expect(message('50')).toBeNull();
  });
});

describe('amount presets and request ids', () => {
  it('offers the minimum and round amounts inside the limits', () => {
    expect(amountPresets(1000, 500000, 2)).toEqual([1000, 5000, 10000, 50000, 100000]);
    expect(amountPresets(920, 460000, 2)).toEqual([920, 1000, 5000, 10000, 50000]);
    expect(amountPresets(5000, 6000, 2)).toEqual([5000]);
    expect(amountPresets(100, 50, 2)).toEqual([]);
    for (const value of amountPresets(151200, 75600000, 2)) expect(value).toBeGreaterThanOrEqual(151200);
  });

  it('makes the same id for the same request and another for a different one', () => {
    const a = clientRequestId('d', 'f1b5c2d4-9a7e-4c3b-8f00-123456789abc', ['card', 'USD', '100']);
    expect(clientRequestId('d', 'f1b5c2d4-9a7e-4c3b-8f00-123456789abc', ['card', 'USD', '100'])).toBe(a);
    expect(clientRequestId('d', 'f1b5c2d4-9a7e-4c3b-8f00-123456789abc', ['card', 'USD', '101'])).not.toBe(a);
    expect(clientRequestId('w', 'f1b5c2d4-9a7e-4c3b-8f00-123456789abc', ['card', 'USD', '100'])).not.toBe(a);
    expect(v.is(PaymentClientRequestIdSchema, a)).toBe(true);
    expect(v.is(PaymentClientRequestIdSchema, clientRequestId('w', 'x', ['a']))).toBe(true);
  });
});
