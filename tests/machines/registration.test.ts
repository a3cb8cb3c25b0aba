/**
 * Registration: generated paths through the three steps, plus per-step validation with the
 * shared schemas, Back keeping values, the payload sent (with tracking fields and language),
 * where a failure lands, and the parent hearing session.registered.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { fromPromise, waitFor } from 'xstate';
import { registrationMachine, type RegisterInput } from '../../machines/registration/registration.machine';
import {
  AccountSettingsSchema,
  BasicInfoSchema,
  PasswordSchema,
  PersonalDetailsSchema,
  PhoneSchema,
} from '../../machines/registration/registration.schemas';
import { FieldText, UsernameSchema } from '../../contract/auth';
import { serverTextKey } from '../../src/i18n/server-texts';
import type { AuthSession } from '../../machines/types';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';
import { makeUser } from './fixtures';
import { registrationEvents, registrationValues } from './path-events';

const user = makeUser();
const { basic, personal, settings } = registrationValues;
const events = registrationEvents;

const model: PathModel = {
  name: 'registration',
  machine: registrationMachine,
  input: { tracking: { utm_source: 'news' }, language: 'es' },
  events,
  simplePaths: 500,
  simplePathEvents: [events[0], events[2], events[4], events[6], events[8], events[9]],
};

describe('registration machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('registration'));
});

describe('registration step schemas (spec section 5)', () => {
  const ok = (schema: v.GenericSchema, value: unknown) => v.safeParse(schema, value).success;
  const message = (schema: v.GenericSchema, value: unknown) => {
    const r = v.safeParse(schema, value, { abortPipeEarly: true });
    // The contract's English message, shown through the locale key it maps to.
    return r.success ? null : (serverTextKey(r.issues[0].message) ?? r.issues[0].message);
  };

  it('checks the username: 3 to 32 English letters or digits', () => {
    expect(ok(UsernameSchema, 'abc')).toBe(true);
    expect(ok(UsernameSchema, 'Trader2024')).toBe(true);
    expect(message(UsernameSchema, '')).toBe('validation.username_required');
    expect(message(UsernameSchema, 'ab')).toBe('validation.username_min_length');
    expect(message(UsernameSchema, 'a'.repeat(33))).toBe('validation.username_max_length');
    expect(message(UsernameSchema, 'trader_7')).toBe('validation.username_chars');
    expect(message(UsernameSchema, 'трейдер')).toBe('validation.username_chars');
  });

  it('checks the password: 8+, no spaces, lower, upper, digit, special, at most 128', () => {
    expect(ok(PasswordSchema, 'Secret#123')).toBe(true);
    expect(message(PasswordSchema, 'Se#1')).toBe('validation.password_min_length');
    expect(message(PasswordSchema, 'Secret #123')).toBe('validation.password_no_spaces');
    expect(message(PasswordSchema, 'SECRET#123')).toBe('validation.password_lowercase');
    expect(message(PasswordSchema, 'secret#123')).toBe('validation.password_uppercase');
    expect(message(PasswordSchema, 'Secret#abc')).toBe('validation.password_digit');
    expect(message(PasswordSchema, 'Secret1234')).toBe('validation.password_special');
    expect(message(PasswordSchema, 'Aa1#' + 'x'.repeat(125))).toBe('validation.password_max_length');
  });

  it('checks the confirmation, the names, the phone, the currency and the terms', () => {
    expect(ok(BasicInfoSchema, basic)).toBe(true);
    const mismatch = v.safeParse(BasicInfoSchema, { ...basic, password_confirmation: 'Secret#124' });
    expect(mismatch.success ? [] : mismatch.issues.map((i) => [v.getDotPath(i), serverTextKey(i.message)])).toEqual([['password_confirmation', 'server_texts.auth.passwords_do_not_match']]);
    expect(ok(PersonalDetailsSchema, personal)).toBe(true);
    expect(message(PersonalDetailsSchema, { ...personal, first_name: '  ' })).toBe('validation.first_name_required');
    expect(message(PersonalDetailsSchema, { ...personal, last_name: 'x'.repeat(65) })).toBe('validation.name_max_length');
    expect(ok(PhoneSchema, '+7 912 345-67-89')).toBe(true);
    expect(ok(PhoneSchema, '5550102')).toBe(true);
    expect(message(PhoneSchema, '123456')).toBe('validation.phone_invalid');
    expect(message(PhoneSchema, '+1234567890123456')).toBe('validation.phone_invalid');
    expect(message(PhoneSchema, '+1 555 CALL NOW')).toBe('validation.phone_invalid');
    expect(message(PhoneSchema, '')).toBe('validation.phone_required');
    expect(ok(AccountSettingsSchema, settings)).toBe(true);
    expect(message(AccountSettingsSchema, { currency: '', terms_accepted: true })).toBe('validation.currency_required');
    expect(message(AccountSettingsSchema, { currency: 'XYZ', terms_accepted: true })).toBe('validation.currency_required');
    expect(message(AccountSettingsSchema, { currency: 'USD', terms_accepted: false })).toBe('server_texts.auth.terms_required');
  });
});

function start(register: (input: RegisterInput) => Promise<AuthSession>) {
  const calls: RegisterInput[] = [];
  const machine = registrationMachine.provide({
    actors: {
      register: fromPromise<AuthSession, RegisterInput>(({ input }) => {
        calls.push(input);
        return register(input);
      }),
    },
  });
  return { ...startUnderParent(machine, { tracking: { utm_source: 'news', sub1: 'x', bogus: 'dropped' }, language: 'ru' }), calls };
}

describe('registration wizard', () => {
  it('advances only with valid values and reports the field errors of the step', () => {
    const { actor } = start(() => new Promise(() => {}));
    actor.send({ type: 'registration.stepSubmitted', values: { ...basic, username: 'ab' } });
    expect(actor.getSnapshot().value).toBe('basicInfo');
    expect(actor.getSnapshot().context.fieldErrors).toEqual([{ field: 'username', message: FieldText.usernameMinLength }]);
    actor.send({ type: 'registration.stepSubmitted', values: basic });
    expect(actor.getSnapshot().value).toBe('personalDetails');
    expect(actor.getSnapshot().context.fieldErrors).toEqual([]);
    actor.send({ type: 'registration.stepSubmitted', values: { first_name: 'Ann' } });
    expect(actor.getSnapshot().value).toBe('personalDetails');
    expect(actor.getSnapshot().context.fieldErrors.map((e) => e.field)).toEqual(['last_name', 'phone']);
  });

  it('goes back a step at a time and keeps what was entered', () => {
    const { actor } = start(() => new Promise(() => {}));
    actor.send({ type: 'registration.stepSubmitted', values: basic });
    actor.send({ type: 'registration.stepSubmitted', values: personal });
    expect(actor.getSnapshot().value).toBe('accountSettings');
    actor.send({ type: 'registration.backRequested' });
    expect(actor.getSnapshot().value).toBe('personalDetails');
    actor.send({ type: 'registration.backRequested' });
    expect(actor.getSnapshot().value).toBe('basicInfo');
    actor.send({ type: 'registration.backRequested' });
    expect(actor.getSnapshot().value).toBe('basicInfo');
    expect(actor.getSnapshot().context.values).toEqual({ basicInfo: basic, personalDetails: personal, accountSettings: { currency: 'USD', terms_accepted: false } });
  });

  it('sends every field, the language and the known tracking fields, then tells the parent', async () => {
    const { actor, calls, parentEvents } = start(() => Promise.resolve({ token: 'tok', refreshToken: 'ref', user }));
    actor.send({ type: 'registration.stepSubmitted', values: basic });
    actor.send({ type: 'registration.stepSubmitted', values: personal });
    actor.send({ type: 'registration.stepSubmitted', values: { currency: 'eur', terms_accepted: true } });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls).toEqual([
      {
        payload: {
          ...basic,
          ...personal,
          // The contract's normalised form (the server stores the same).
          phone: '+15550102030',
          currency: 'EUR',
          terms_accepted: true,
          language: 'ru',
          utm_source: 'news',
          sub1: 'x',
        },
      },
    ]);
    expect(parentEvents.filter((e) => !e.type.startsWith('xstate.'))).toEqual([{ type: 'session.registered', token: 'tok', refreshToken: 'ref', user }]);
  });

  it('returns to the first step when the server rejects the username or email, else stays on the last', async () => {
    const taken = start(() => Promise.reject(Object.assign(new Error('Username is already taken'), { status: 409 })));
    taken.actor.send({ type: 'registration.stepSubmitted', values: basic });
    taken.actor.send({ type: 'registration.stepSubmitted', values: personal });
    taken.actor.send({ type: 'registration.stepSubmitted', values: settings });
    await waitFor(taken.actor, (s) => s.matches('basicInfo'));
    expect(taken.actor.getSnapshot().context.error).toBe('Username is already taken');
    expect(taken.actor.getSnapshot().context.values.basicInfo).toEqual(basic);

    const detailed = start(() =>
      Promise.reject(Object.assign(new Error('Validation failed'), { details: [{ field: 'email', message: 'Email is already registered' }] })),
    );
    detailed.actor.send({ type: 'registration.stepSubmitted', values: basic });
    detailed.actor.send({ type: 'registration.stepSubmitted', values: personal });
    detailed.actor.send({ type: 'registration.stepSubmitted', values: settings });
    await waitFor(detailed.actor, (s) => s.matches('basicInfo'));
    expect(detailed.actor.getSnapshot().context.fieldErrors).toEqual([{ field: 'email', message: 'Email is already registered' }]);

    const other = start(() => Promise.reject(new Error('Registration failed')));
    other.actor.send({ type: 'registration.stepSubmitted', values: basic });
    other.actor.send({ type: 'registration.stepSubmitted', values: personal });
    other.actor.send({ type: 'registration.stepSubmitted', values: settings });
    await waitFor(other.actor, (s) => s.matches('accountSettings'));
    expect(other.actor.getSnapshot().context.error).toBe('Registration failed');
    expect(other.parentEvents).toEqual([]);
  });
});
