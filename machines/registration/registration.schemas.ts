/**
 * The registration steps' rules (spec section 5, Registration), as valibot schemas the machine
 * uses as its step guards and the view uses for per-field validation on blur. They mirror the
 * server's rules: username 3-32 English letters/digits; a valid email; password 8-128 with no
 * spaces and at least one lowercase, uppercase, digit and special character; the confirmation
 * matches; first/last name required up to 64; phone with an optional +, 7-15 digits, spaces,
 * dashes, dots and parentheses allowed; a known currency; terms accepted (contract/auth.ts
 * holds the server's copy of the same rules, with English messages).
 *
 * Messages are locale keys (the view translates them); the English texts are listed in
 * machines/README.md.
 */
import * as v from 'valibot';
import { CURRENCY_CODES } from '../../contract/currencies';

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 64;
export const EMAIL_MAX = 254;
export const PHONE_MAX = 32;

export const UsernameSchema = v.pipe(
  v.string('validation.username_required'),
  v.trim(),
  v.nonEmpty('validation.username_required'),
  v.minLength(USERNAME_MIN, 'validation.username_min_length'),
  v.maxLength(USERNAME_MAX, 'validation.username_max_length'),
  v.regex(/^[A-Za-z0-9]+$/, 'validation.username_chars'),
);

export const EmailSchema = v.pipe(
  v.string('validation.email_required'),
  v.trim(),
  v.nonEmpty('validation.email_required'),
  v.maxLength(EMAIL_MAX, 'validation.email_invalid'),
  v.email('validation.email_invalid'),
);

export const PasswordSchema = v.pipe(
  v.string('validation.password_required'),
  v.nonEmpty('validation.password_required'),
  v.minLength(PASSWORD_MIN, 'validation.password_min_length'),
  v.maxLength(PASSWORD_MAX, 'validation.password_max_length'),
  v.regex(/^\S+$/, 'validation.password_no_spaces'),
  v.regex(/[a-z]/, 'validation.password_lowercase'),
  v.regex(/[A-Z]/, 'validation.password_uppercase'),
  v.regex(/[0-9]/, 'validation.password_digit'),
  v.regex(/[^A-Za-z0-9\s]/, 'validation.password_special'),
);

const requiredName = (requiredKey: string) =>
  v.pipe(v.string(requiredKey), v.trim(), v.nonEmpty(requiredKey), v.maxLength(NAME_MAX, 'validation.name_max_length'));

export const FirstNameSchema = requiredName('validation.first_name_required');
export const LastNameSchema = requiredName('validation.last_name_required');

export const PhoneSchema = v.pipe(
  v.string('validation.phone_required'),
  v.trim(),
  v.nonEmpty('validation.phone_required'),
  v.maxLength(PHONE_MAX, 'validation.phone_invalid'),
  v.regex(/^\+?[0-9\s\-().]+$/, 'validation.phone_invalid'),
  v.check((phone) => {
    const digits = phone.replace(/\D/g, '').length;
    return digits >= 7 && digits <= 15;
  }, 'validation.phone_invalid'),
);

export const CurrencySchema = v.pipe(
  v.string('validation.currency_required'),
  v.trim(),
  v.nonEmpty('validation.currency_required'),
  v.toUpperCase(),
  v.check((code) => CURRENCY_CODES.includes(code), 'validation.currency_required'),
);

export const TermsSchema = v.literal(true, 'validation.terms_required');

/** Step 1: username, email, password and its confirmation. */
export const BasicInfoSchema = v.pipe(
  v.object({
    username: UsernameSchema,
    email: EmailSchema,
    password: PasswordSchema,
    password_confirmation: v.pipe(v.string('validation.password_confirmation_required'), v.nonEmpty('validation.password_confirmation_required')),
  }),
  v.forward(
    v.partialCheck(
      [['password'], ['password_confirmation']],
      (input) => input.password === input.password_confirmation,
      'validation.passwords_do_not_match',
    ),
    ['password_confirmation'],
  ),
);

/** Step 2: first name, last name, phone. */
export const PersonalDetailsSchema = v.object({
  first_name: FirstNameSchema,
  last_name: LastNameSchema,
  phone: PhoneSchema,
});

/** Step 3: account currency and the terms. */
export const AccountSettingsSchema = v.object({
  currency: CurrencySchema,
  terms_accepted: TermsSchema,
});

export type BasicInfoValues = v.InferOutput<typeof BasicInfoSchema>;
export type PersonalDetailsValues = v.InferOutput<typeof PersonalDetailsSchema>;
export type AccountSettingsValues = v.InferOutput<typeof AccountSettingsSchema>;

/** The form's starting values (what the view shows before anything is typed). */
export interface RegistrationDraft {
  basicInfo: { username: string; email: string; password: string; password_confirmation: string };
  personalDetails: { first_name: string; last_name: string; phone: string };
  accountSettings: { currency: string; terms_accepted: boolean };
}
