/**
 * Locale-aware display formatting for numbers, money, prices, percentages, dates and
 * countdowns. Pure functions of (value, language); the React side (useFormat, Money,
 * PriceText, DateTime) wraps them. Display only: ledger amounts are integer minor units and
 * are converted with contract/money.ts before they reach here.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/ru';
import 'dayjs/locale/es';
import { findCurrency } from '../../contract/currencies';

export const DATE_FORMAT = 'DD.MM.YYYY HH:mm';
export const DATE_FORMAT_SECONDS = 'DD.MM.YYYY HH:mm:ss';

/** The Intl locale for a UI language. */
export function intlLocale(language: string): string {
  if (language === 'ru') return 'ru-RU';
  if (language === 'es') return 'es-ES';
  return 'en-US';
}

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(language: string, min: number, max: number): Intl.NumberFormat {
  const key = `${language}|${min}|${max}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(intlLocale(language), { minimumFractionDigits: min, maximumFractionDigits: max });
    numberFormats.set(key, f);
  }
  return f;
}

/** A plain number with grouping; `decimals` fixes the fraction digits, otherwise up to 2. */
export function formatNumber(value: number, language: string, decimals?: number): string {
  if (!Number.isFinite(value)) return '—';
  const min = decimals ?? 0;
  const max = decimals ?? 2;
  return numberFormat(language, min, max).format(value);
}

/** Decimals used to show a currency: 2 for fiat, up to the currency's own (8) for crypto. */
export function displayDecimals(currency: string): number {
  const c = findCurrency(currency);
  if (!c) return 2;
  return c.kind === 'crypto' ? c.decimals : 2;
}

export function currencySymbol(currency: string): string {
  return findCurrency(currency)?.symbol ?? currency.toUpperCase();
}

export type MoneyFormatOptions = {
  /** Show "+" on positive amounts (for P/L). Negative amounts always carry "-". */
  signed?: boolean;
  /** Override the number of decimals. */
  decimals?: number;
  /** Show the ISO code instead of the symbol (crypto amounts always show their code). */
  code?: boolean;
};

/**
 * "$1,234.50" in English; "1 234,50 $" in Russian and "1234,50 $" in Spanish, where the symbol
 * conventionally follows the amount. Crypto amounts carry their code after the number in every
 * language, with the currency's own precision but no trailing zeros beyond 2 decimals
 * ("100.00 USDT", "0.00155 BTC", "0,00155 BTC"). Rounds toward zero so a display never shows
 * more money than there is.
 */
export function formatMoney(amount: number, currency: string, language: string, options: MoneyFormatOptions = {}): string {
  if (!Number.isFinite(amount)) return '—';
  const crypto = findCurrency(currency)?.kind === 'crypto';
  const decimals = options.decimals ?? displayDecimals(currency);
  const factor = 10 ** decimals;
  const truncated = Math.trunc(Math.abs(amount) * factor + 1e-6) / factor;
  const minDecimals = crypto && options.decimals === undefined ? Math.min(2, decimals) : decimals;
  const number = numberFormat(language, minDecimals, decimals).format(truncated);
  const isZero = truncated === 0;
  const sign = isZero ? '' : amount < 0 ? '-' : options.signed ? '+' : '';
  if (crypto) return `${sign}${number}\u00a0${currency.toUpperCase()}`;
  const symbol = options.code ? currency.toUpperCase() : currencySymbol(currency);
  if (language === 'en') {
    // A symbol that ends in a letter (CHF, kr, AED) needs a space before the digits.
    const gap = /\p{L}$/u.test(symbol) ? '\u00a0' : '';
    return `${sign}${symbol}${gap}${number}`;
  }
  return `${sign}${number}\u00a0${symbol}`;
}

/** A price with the pair's precision (5 for most forex, 3 for JPY pairs, 2 for stocks). */
export function formatPrice(value: number, precision: number, language: string): string {
  if (!Number.isFinite(value)) return '—';
  return numberFormat(language, precision, precision).format(value);
}

// Built once per (language, decimals): creating an Intl.NumberFormat costs far more than using
// one, and the trading screen formats percents on every tick.
const percentFormats = new Map<string, Intl.NumberFormat>();

/** 0.82 -> "82%" (en) / "82 %" (ru, es). */
export function formatPercent(fraction: number, language: string, decimals = 0): string {
  if (!Number.isFinite(fraction)) return '—';
  const key = `${language}|${decimals}`;
  let f = percentFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(intlLocale(language), { style: 'percent', minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    percentFormats.set(key, f);
  }
  return f.format(fraction);
}

/**
 * Builds ahead the number formats a signed-in screen uses first (money with 2 decimals, a
 * 5-decimal price, percents with 0 and 2), one per task. The first Intl.NumberFormat of a kind
 * costs ~15-20 ms on a phone-class CPU; made while the page's code and data are loading, that
 * cost is not added to the page's first render (one long task fewer).
 */
export function warmFormats(language: string, schedule: (step: () => void) => void = (step) => setTimeout(step, 0)): void {
  const steps = [() => numberFormat(language, 2, 2), () => numberFormat(language, 5, 5), () => formatPercent(0, language, 0), () => formatPercent(0, language, 2)];
  const run = (i: number) => {
    if (i < steps.length)
      schedule(() => {
        steps[i]!();
        run(i + 1);
      });
  };
  run(0);
}

/** Unix seconds or milliseconds (numbers below 1e11 are seconds), a Date or an ISO string, to ms. */
export function toMillis(value: number | string | Date): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string') {
    const n = Number(value);
    if (value.trim() !== '' && Number.isFinite(n)) return toMillis(n);
    return new Date(value).getTime();
  }
  return Math.abs(value) < 1e11 ? value * 1000 : value;
}

/** 'DD.MM.YYYY HH:mm' (or with seconds) in the browser's time zone. */
export function formatDateTime(
  value: number | string | Date,
  language: string,
  options: { withSeconds?: boolean; format?: string } = {},
): string {
  const ms = toMillis(value);
  if (!Number.isFinite(ms)) return '—';
  const format = options.format ?? (options.withSeconds ? DATE_FORMAT_SECONDS : DATE_FORMAT);
  return dayjs(ms).locale(language).format(format);
}

/** A calendar date in words: "November 22, 2026" / "22 ноября 2026 г." / "22 de noviembre de 2026". */
export function formatDate(value: number | string | Date, language: string, style: 'long' | 'medium' | 'short' = 'long'): string {
  const ms = toMillis(value);
  if (!Number.isFinite(ms)) return '—';
  return new Intl.DateTimeFormat(intlLocale(language), { dateStyle: style }).format(new Date(ms));
}

/** Remaining time as "m:ss", or "h:mm:ss" from an hour up; never negative. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${ss}`;
  return `${m}:${ss}`;
}

/** Bytes as "842 KB" / "3.4 MB" in the language's number format. */
export function formatFileSize(bytes: number, language: string): string {
  if (bytes < 1024 * 1024) return `${formatNumber(Math.max(1, Math.round(bytes / 1024)), language, 0)} KB`;
  return `${formatNumber(bytes / (1024 * 1024), language, 1)} MB`;
}

/**
 * A currency's name in the language ("евро", "dólar estadounidense") from Intl.DisplayNames;
 * codes Intl does not know (USDT, crypto) keep the catalogue's English name.
 */
export function formatCurrencyName(code: string, englishName: string, language: string): string {
  try {
    const name = new Intl.DisplayNames([language], { type: 'currency' }).of(code);
    return name && name !== code ? name : englishName;
  } catch {
    return englishName;
  }
}
