/**
 * The texts the server (and the API layer's spec section 8 fallbacks) can put in front of a
 * person, mapped to locale keys, so an error or notice that arrives in English is shown in the
 * reader's language. The server keeps answering in the spec's English (section 8 says the
 * server's text is shown); the SPA translates the known ones at display time and shows any
 * other text as it came.
 *
 * Locale keys: `server_texts.<catalogue>.<name in snake_case>`; the English value is the text
 * itself (tests/unit/locales.test.ts checks every text of every catalogue has its key in all
 * three languages, so a new server text cannot ship untranslated).
 */
import { ErrorText } from '../../contract/envelope';
import { AuthText, FieldText } from '../../contract/auth';
import { ProfileText } from '../../contract/profile';
import { OrderErrorText } from '../../contract/orders';
import { AlertErrorText } from '../../contract/alerts';
import { ConsoleText } from '../../contract/console';
import { PaymentErrorText, PaymentMethodName, ProcessingTimeText } from '../../contract/payments';
import { FALLBACK } from '../services/api';
import { TRADING_FALLBACK } from '../services/trading-api';
import { MONEY_FALLBACK } from '../services/money-api';

/** Catalogue name -> its texts (name -> English text). Earlier catalogues win for a repeated text. */
export const SERVER_TEXT_CATALOGUES: Record<string, Record<string, string>> = {
  common: ErrorText,
  auth: AuthText,
  profile: ProfileText,
  orders: OrderErrorText,
  alerts: AlertErrorText,
  payments: PaymentErrorText,
  // The seeded methods' descriptive names (brand names such as "Visa / Mastercard" stay as they are).
  payment_methods: { bankTransfer: PaymentMethodName.bankTransfer, cryptoLink: PaymentMethodName.cryptoLink },
  processing_times: ProcessingTimeText,
  // The operator console's server texts (issue 27), incl. the read-only admin session's refusal a trader-side page shows.
  console: ConsoleText,
  fallback: { ...FALLBACK, ...TRADING_FALLBACK, ...MONEY_FALLBACK },
};

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function buildIndex(): Map<string, string> {
  const index = new Map<string, string>();
  for (const [catalogue, texts] of Object.entries(SERVER_TEXT_CATALOGUES)) {
    for (const [name, text] of Object.entries(texts)) {
      if (!index.has(text)) index.set(text, `server_texts.${catalogue}.${snake(name)}`);
    }
  }
  return index;
}

/**
 * The registration field messages (contract/auth.ts FieldText, used by the server and by the
 * SPA's forms alike) -> the form validation keys. Typed over every FieldText name, so a new
 * message cannot ship without its key.
 */
export const FIELD_TEXT_KEYS: Record<keyof typeof FieldText, string> = {
  usernameRequired: 'validation.username_required',
  usernameMinLength: 'validation.username_min_length',
  usernameMaxLength: 'validation.username_max_length',
  usernameChars: 'validation.username_chars',
  emailRequired: 'validation.email_required',
  emailMaxLength: 'validation.email_invalid',
  emailInvalid: 'validation.email_invalid',
  passwordRequired: 'validation.password_required',
  passwordMinLength: 'validation.password_min_length',
  passwordMaxLength: 'validation.password_max_length',
  passwordNoSpaces: 'validation.password_no_spaces',
  passwordLowercase: 'validation.password_lowercase',
  passwordUppercase: 'validation.password_uppercase',
  passwordDigit: 'validation.password_digit',
  passwordSpecial: 'validation.password_special',
  passwordConfirmationRequired: 'validation.password_confirmation_required',
  firstNameRequired: 'validation.first_name_required',
  lastNameRequired: 'validation.last_name_required',
  firstNameMaxLength: 'validation.name_max_length',
  lastNameMaxLength: 'validation.name_max_length',
  phoneRequired: 'validation.phone_required',
  phoneInvalid: 'validation.phone_invalid',
  currencyRequired: 'validation.currency_required',
  currencyUnknown: 'validation.currency_required',
};

/** English text -> locale key. */
export const SERVER_TEXT_KEYS: ReadonlyMap<string, string> = buildIndex();

const FIELD_TEXT_INDEX: ReadonlyMap<string, string> = new Map(
  Object.entries(FIELD_TEXT_KEYS).map(([name, key]) => [FieldText[name as keyof typeof FieldText], key]),
);

/** The locale key of a known server text, or null. */
export function serverTextKey(text: string): string | null {
  const trimmed = text.trim();
  return FIELD_TEXT_INDEX.get(trimmed) ?? SERVER_TEXT_KEYS.get(trimmed) ?? null;
}
