/**
 * The registration schemas the SPA runs per wizard step (on blur) and the server runs as a
 * whole: each step accepts its valid fields and reports the spec's messages on the right field.
 */
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { parseWith } from '../../contract/validation';
import {
  LoginSchema,
  RegisterSchema,
  RegisterStep1Schema,
  RegisterStep2Schema,
  RegisterStep3Schema,
  FrontSettingsRequestSchema,
} from '../../contract/auth';

const step1 = { username: 'trader1', email: 'a@b.co', password: 'Str0ng!Pass', password_confirmation: 'Str0ng!Pass' };
const step2 = { first_name: ' Ada ', last_name: 'Lovelace', phone: '+44 (20) 7946-0958' };
const step3 = { currency: 'usd', terms_accepted: true };

describe('registration step schemas', () => {
  it('accept valid steps and normalise them', () => {
    expect(parseWith(RegisterStep1Schema, step1)).toEqual({ ok: true, value: step1 });
    expect(parseWith(RegisterStep2Schema, step2)).toEqual({ ok: true, value: { first_name: 'Ada', last_name: 'Lovelace', phone: '+442079460958' } });
    expect(parseWith(RegisterStep3Schema, step3)).toEqual({ ok: true, value: { currency: 'USD', terms_accepted: true } });
    const whole = parseWith(RegisterSchema, { ...step1, ...step2, ...step3, language: 'ru', utm_source: 'x' });
    expect(whole.ok).toBe(true);
  });

  it('report the message on the offending field', () => {
    expect(parseWith(RegisterStep1Schema, { ...step1, password_confirmation: 'other' })).toEqual({
      ok: false,
      errors: [{ field: 'password_confirmation', message: 'Passwords do not match' }],
    });
    expect(parseWith(RegisterStep1Schema, { ...step1, username: 'a-b' })).toEqual({
      ok: false,
      errors: [{ field: 'username', message: 'Username may contain only English letters and digits' }],
    });
    expect(parseWith(RegisterStep2Schema, { ...step2, phone: '12' })).toEqual({
      ok: false,
      errors: [{ field: 'phone', message: 'Please enter a valid phone number' }],
    });
    expect(parseWith(RegisterStep3Schema, { currency: 'USD' })).toEqual({
      ok: false,
      errors: [{ field: 'terms_accepted', message: 'Please accept terms and privacy policy' }],
    });
  });

  it('a step ignores the other steps\' fields', () => {
    expect(parseWith(RegisterStep2Schema, { ...step2, username: 'x' }).ok).toBe(true);
  });
});

describe('login schema', () => {
  it('takes the identifier from username, email or login', () => {
    expect(parseWith(LoginSchema, { email: ' a@b.co ', password: 'p' })).toEqual({ ok: true, value: { identifier: 'a@b.co', password: 'p' } });
    expect(parseWith(LoginSchema, { login: 'bob', password: 'p' })).toEqual({ ok: true, value: { identifier: 'bob', password: 'p' } });
    expect(parseWith(LoginSchema, { username: 'bob' })).toEqual({ ok: false, errors: [{ field: '', message: 'Missing credentials' }] });
  });
});

describe('front settings request', () => {
  it('accepts plausible pair codes and refuses others', () => {
    for (const currentPair of ['EURUSD', 'BTC/USD', 'XAU_USD', 'V']) expect(parseWith(FrontSettingsRequestSchema, { currentPair }).ok).toBe(true);
    for (const currentPair of ['EUR USD', '<script>', '/EURUSD']) {
      expect(parseWith(FrontSettingsRequestSchema, { currentPair })).toEqual({ ok: false, errors: [{ field: 'currentPair', message: 'Unknown pair code' }] });
    }
  });
});

describe('the SPA and the server apply the same registration rules', async () => {
  const spa = await import('../../machines/registration/registration.schemas');
  const pairs = [
    ['step 1', RegisterStep1Schema, spa.BasicInfoSchema, step1],
    ['step 2', RegisterStep2Schema, spa.PersonalDetailsSchema, step2],
    ['step 3', RegisterStep3Schema, spa.AccountSettingsSchema, step3],
  ] as const;
  const variants: Record<string, unknown[]> = {
    username: ['', 'ab', 'abc', 'trader_1', 'trader 1', 'Trader1', 'a'.repeat(32), 'a'.repeat(33), 'трейдер', 42, null],
    email: ['', 'a@b', 'a@b.co', 'not-an-email', `${'a'.repeat(250)}@b.co`, ' a@b.co ', 7],
    password: ['', 'Short1!', 'Str0ng!Pass', 'str0ng!pass', 'STR0NG!PASS', 'Strong!Pass', 'Str0ngPass1', 'Str0ng !Pass', 'A1!' + 'a'.repeat(126), 'A1!' + 'a'.repeat(125)],
    password_confirmation: ['', 'Str0ng!Pass', 'Other!Pass1'],
    first_name: ['', ' ', 'Ada', 'a'.repeat(64), 'a'.repeat(65), 1],
    last_name: ['', 'Lovelace'],
    phone: ['', '123', '+1 555 0100', '+44 (20) 7946-0958', '12345678901234567', 'phone', '+1-555-0100x'],
    currency: ['', 'usd', 'USD', 'EUR', 'XXX', 'btc'],
    terms_accepted: [true, false, 'true', 1, null],
  };
  for (const [label, server, client, valid] of pairs) {
    it(`${label}: every variant of every field is accepted or refused alike, and blamed on that field alike`, () => {
      const differences: string[] = [];
      for (const field of Object.keys(valid)) {
        for (const value of variants[field] ?? []) {
          const input = { ...valid, [field]: value };
          if (field === 'password') Object.assign(input, { password_confirmation: value });
          const a = v.safeParse(server, input);
          const b = v.safeParse(client, input);
          const fieldsOf = (r: typeof a | typeof b) => (r.success ? [] : [...new Set(r.issues.map((i) => String(i.path?.[0]?.key ?? '')))].sort());
          if (a.success !== b.success || fieldsOf(a).includes(field) !== fieldsOf(b).includes(field)) {
            differences.push(`${field}=${JSON.stringify(value)}: server ${a.success ? 'accepts' : fieldsOf(a).join()} / SPA ${b.success ? 'accepts' : fieldsOf(b).join()}`);
          }
        }
      }
      expect(differences).toEqual([]);
    });
  }
});
