/**
 * The registration schemas the SPA runs per wizard step (on blur) and the server runs as a
 * whole: each step accepts its valid fields and reports the spec's messages on the right field.
 */
import { describe, expect, it } from 'vitest';
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

// The SPA's registration steps are these very schemas (machines/registration/registration.schemas.ts
// re-exports RegisterStep1..3Schema), so there is no second copy to compare with.
it('the wizard validates with the contract schemas themselves', async () => {
  const spa = await import('../../machines/registration/registration.schemas');
  expect([spa.BasicInfoSchema, spa.PersonalDetailsSchema, spa.AccountSettingsSchema]).toEqual([RegisterStep1Schema, RegisterStep2Schema, RegisterStep3Schema]);
});
