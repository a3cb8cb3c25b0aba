/**
 * Types shared by the browser machines (and by the services that implement their actors).
 * Pure data shapes and two tiny pure helpers; nothing here touches the DOM, storage or the
 * network.
 */
import type { BalanceType, FrontSettingsUpdate, Language, ThemeSetting, User } from '../contract/user';
import { findCurrency } from '../contract/currencies';
import { toMinor } from '../contract/money';

export type SessionType = 'user' | 'admin';

/** What the session keeps in the browser under the "auth" key (spec section 3, Session). */
export interface PersistedSession {
  token: string | null;
  refreshToken: string | null;
  user: User | null;
  /** True when a token is present (kept for readers of the stored JSON). */
  isAuthenticated: boolean;
  balanceType: BalanceType | null;
  currentPair: string | null;
  currentTimeframe: string | null;
  sessionType: SessionType | null;
}

/** A partial front-settings change (the PATCH body of /api/v2/profile/front-settings). */
export type SettingsPatch = FrontSettingsUpdate;

/** The tokens and user a successful login, 2FA check, registration or admin exchange yields. */
export interface AuthSession {
  token: string;
  refreshToken: string | null;
  user: User;
}

/** What the login actor resolves with: a session, or the demand for a second factor. */
export type LoginOutcome = ({ kind: 'authenticated' } & AuthSession) | { kind: 'twoFactorRequired'; challenge: string };

export interface RefreshedTokens {
  token: string;
  refreshToken: string | null;
}

export type ToastType = 'success' | 'error' | 'warning' | 'info';
/** An amount the view formats in the reader's language and the currency's decimals ("$10.00", "10,00 $"). */
export interface MoneyParam {
  money: number;
  currency: string;
}
/** A price for a message: formatted by the view with the pair's precision in the reader's language ("94 788,45"). */
export interface PriceParam {
  price: number;
  precision: number;
}
/**
 * A pair for a message: the view writes its name in the reader's language (src/i18n/pair-name.ts:
 * "Золото" for XAUUSD in Russian), so a machine never puts an English pair name into a toast.
 */
export interface PairParam {
  pair_code: string;
  pair_human_code: string;
}
export type MessageParam = string | number | MoneyParam | PriceParam | PairParam;

/** A pair as a message parameter (the view names it in the reader's language). */
export function pairParam(pair: PairParam): PairParam {
  return { pair_code: pair.pair_code, pair_human_code: pair.pair_human_code };
}

/** An amount for a message: rounded toward zero to the currency's decimals, formatted by the view. */
export function moneyParam(amount: number, currency: string): MoneyParam {
  const decimals = findCurrency(currency)?.decimals ?? 2;
  const minor = toMinor(amount, decimals) ?? Math.trunc(amount * 10 ** decimals);
  return { money: minor / 10 ** decimals, currency: currency.toUpperCase() };
}
export type MessageParams = Record<string, MessageParam>;

/**
 * A request for a toast. Prefer `messageKey` (a locale key the view translates); `message` is
 * for a text that came from the server as is. One of the two must be given.
 */
export interface ToastRequest {
  messageKey?: string;
  message?: string;
  params?: MessageParams;
  type: ToastType;
  /** Milliseconds; 0 or less keeps the toast until dismissed. Defaults by type. */
  duration?: number;
  /**
   * A settled order's outcome (its net result in minor units of its currency): settlements
   * that arrive while another one of the same currency still shows join it in one toast
   * ("3 trades closed: +$12.40"; machines/toasts).
   */
  settlement?: { currency: string; netMinor: number };
}

/** One message the live socket delivered: the socket.io event name and its payload. */
export interface SocketMessage {
  event: string;
  payload: unknown;
}

export type { BalanceType, Language, ThemeSetting, User };

/**
 * The text of a failure an actor rejected with: the Error's message when it has one, else the
 * fallback (a server text always wins over the fallback, spec section 8).
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message.trim()) return error.message;
  if (typeof error === 'object' && error !== null) {
    const message: unknown = Reflect.get(error, 'message');
    if (typeof message === 'string' && message.trim()) return message;
  }
  if (typeof error === 'string' && error.trim()) return error;
  return fallback;
}

/** Like errorMessage, but null when the failure carries no text (the caller then uses a key). */
export function errorText(error: unknown): string | null {
  const text = errorMessage(error, '');
  return text === '' ? null : text;
}
