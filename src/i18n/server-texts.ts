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
import { AuthText } from '../../contract/auth';
import { ProfileText } from '../../contract/profile';
import { OrderErrorText } from '../../contract/orders';
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
  payments: PaymentErrorText,
  // The seeded methods' descriptive names (brand names such as "Visa / Mastercard" stay as they are).
  payment_methods: { bankTransfer: PaymentMethodName.bankTransfer, cryptoLink: PaymentMethodName.cryptoLink },
  processing_times: ProcessingTimeText,
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

/** English text -> locale key. */
export const SERVER_TEXT_KEYS: ReadonlyMap<string, string> = buildIndex();

/** The locale key of a known server text, or null. */
export function serverTextKey(text: string): string | null {
  return SERVER_TEXT_KEYS.get(text.trim()) ?? null;
}
