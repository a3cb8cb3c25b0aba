/**
 * Translations and locale-aware formatting for the SPA, on rosetta.
 *
 * The language itself lives in the app's locale actor; the shell passes it to <I18nProvider
 * language=...>. rosetta is not reactive, so the provider derives a new `t` whenever that prop
 * changes and every consumer of useT()/useFormat() re-renders. A key missing in the current
 * language falls back to English (with a console warning in development); a key missing
 * everywhere renders as the key itself so it is noticed, never as an empty string.
 *
 * `t` also takes the messages actors carry: a known server text (an error or notice the server
 * or the API layer gave in the spec's English, see server-texts.ts) is shown in the current
 * language, and any other sentence is shown as it is, so `t(error)` is always right to call.
 */
import rosetta from 'rosetta';
import { createContext, use, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { auth, balance, common, components, home, nav, sandbox, server_texts, settings, shell, validation } from '../../locales/en.json';
import {
  formatCountdown,
  formatCurrencyName,
  formatDate,
  formatDateTime,
  formatFileSize,
  formatMoney,
  formatNumber,
  formatPercent,
  formatPrice,
  type MoneyFormatOptions,
} from './format';
import { serverTextKey } from './server-texts';
import { pairDisplayName } from './pair-name';

export type Messages = { [key: string]: string | Messages };
/**
 * `{money, currency}` is formatted as money in the language ("$10.00", "10,00 $"), `{price,
 * precision}` as a price with the pair's decimals ("94,788.45", "94 788,45").
 */
export type TranslateParams = Record<
  string,
  string | number | { money: number; currency: string } | { price: number; precision: number } | { pair_code: string; pair_human_code: string }
>;
export type TFunction = (key: string, params?: TranslateParams) => string;

export const FALLBACK_LANGUAGE = 'en';

export type I18n = {
  /** Languages that have a table, in the order given. */
  readonly languages: readonly string[];
  /** A supported language for any input (unknown -> English). */
  resolve(language: string | null | undefined): string;
  has(language: string, key: string): boolean;
  translate(language: string, key: string, params?: TranslateParams): string;
};

function lookup(table: Messages | undefined, key: string): string | undefined {
  let node: string | Messages | undefined = table;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * Parameters as text: money and prices formatted in the language, a pair named in it
 * (`pairName`: pair-name.ts), the rest as they are.
 */
function formatParams(params: TranslateParams, language: string, pairName: (pair: { pair_code: string; pair_human_code: string }) => string): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value !== 'object' || value === null) out[name] = value;
    else if ('pair_code' in value) out[name] = pairName(value);
    else out[name] = 'money' in value ? formatMoney(value.money, value.currency, language) : formatPrice(value.price, value.precision, language);
  }
  return out;
}

/** A locale key is lowercase dot-separated words; a sentence never is. */
const LOCALE_KEY = /^[a-z_]+(\.[a-z0-9_]+)+$/;

function isDev(): boolean {
  try {
    return Boolean(import.meta.env?.DEV);
  } catch {
    return false;
  }
}

export function createI18n(
  locales: Record<string, Messages>,
  options: { fallback?: string; warn?: (message: string) => void } = {},
): I18n {
  const fallback = options.fallback ?? FALLBACK_LANGUAGE;
  const warn = options.warn ?? ((message: string) => (isDev() ? console.warn(message) : undefined));
  const r = rosetta<Messages>(locales);
  const languages = Object.keys(locales);
  const warned = new Set<string>();
  const warnOnce = (id: string, message: string) => {
    if (warned.has(id)) return;
    warned.add(id);
    warn(message);
  };

  function translate(language: string, key: string, raw?: TranslateParams): string {
    const params = raw && formatParams(raw, language, (pair) => pairDisplayName((k) => translate(language, k), pair));
    if (lookup(locales[language], key) !== undefined) return r.t(key, params, language);
    if (language !== fallback && lookup(locales[fallback], key) !== undefined) {
      // A language whose table is not loaded yet (appI18n loads them on demand) is not missing keys.
      if (locales[language] !== undefined)
        warnOnce(`${language}:${key}`, `[i18n] "${key}" is missing in "${language}"; using "${fallback}".`);
      return r.t(key, params, fallback);
    }
    const serverKey = serverTextKey(key);
    if (serverKey && lookup(locales[fallback], serverKey) !== undefined) return translate(language, serverKey, raw);
    // A sentence (a server message nobody translated) is shown as it is; only a key is a mistake.
    if (LOCALE_KEY.test(key)) warnOnce(`*:${key}`, `[i18n] "${key}" is missing in every language.`);
    return key;
  }

  return {
    languages,
    resolve(language) {
      return language && languages.includes(language) ? language : fallback;
    },
    has(language, key) {
      return lookup(locales[language], key) !== undefined;
    },
    translate,
  };
}

/**
 * The app's translations: the three locale files. English is in the entry chunk; Russian and
 * Spanish (~25 KB gzip each) are loaded when first needed (`loadLanguage`), so /auth does not
 * carry the languages it does not show. Until a table has loaded its language reads English.
 */
const en: Messages = { common, auth, validation, components, nav, shell, balance, settings, sandbox, home, server_texts };
const appTables: Record<string, Messages | undefined> = { en, ru: undefined, es: undefined };

/**
 * Adds English namespaces that load with the code that uses them (EN_PARTS in en-parts.ts:
 * the logged-in features, the legal pages). Called before any view that reads them renders.
 */
export function addEnglish(namespaces: Messages): void {
  Object.assign(en, namespaces);
}
const loaders: Record<string, () => Promise<{ default: unknown }>> = {
  ru: () => import('../../locales/ru.json'),
  es: () => import('../../locales/es.json'),
};
const loading = new Map<string, Promise<void>>();

export const appI18n = createI18n(appTables as Record<string, Messages>);

/** Whether the language's table is there (English always is; unknown languages read English). */
export function isLanguageLoaded(language: string): boolean {
  return !(language in loaders) || appTables[language] !== undefined;
}

/** Load a language's table once (the same promise for every caller); resolves at once when loaded. */
export function loadLanguage(language: string): Promise<void> {
  if (isLanguageLoaded(language)) return Promise.resolve();
  let pending = loading.get(language);
  if (!pending) {
    pending = loaders[language]().then(
      (module) => {
        appTables[language] = module.default as Messages;
      },
      (err: unknown) => {
        // A chunk that failed (offline) leaves the language reading English for this visit.
        appTables[language] = {};
        console.warn(`[i18n] could not load "${language}"`, err);
      },
    );
    loading.set(language, pending);
  }
  return pending;
}

type Formatters = {
  number: (value: number, decimals?: number) => string;
  money: (amount: number, currency: string, options?: MoneyFormatOptions) => string;
  price: (value: number, precision: number) => string;
  percent: (fraction: number, decimals?: number) => string;
  dateTime: (value: number | string | Date, options?: { withSeconds?: boolean; format?: string }) => string;
  date: (value: number | string | Date, style?: 'long' | 'medium' | 'short') => string;
  countdown: (ms: number) => string;
  fileSize: (bytes: number) => string;
  /** "EUR · euro": the code and the currency's name in the language. */
  currencyLabel: (code: string, englishName: string) => string;
};

type I18nContextValue = { language: string; t: TFunction; format: Formatters; i18n: I18n };

function buildContext(i18n: I18n, requested: string): I18nContextValue {
  const language = i18n.resolve(requested);
  const t: TFunction = (key, params) => i18n.translate(language, key, params);
  const format: Formatters = {
    number: (value, decimals) => formatNumber(value, language, decimals),
    money: (amount, currency, options) => formatMoney(amount, currency, language, options),
    price: (value, precision) => formatPrice(value, precision, language),
    percent: (fraction, decimals) => formatPercent(fraction, language, decimals),
    dateTime: (value, options) => formatDateTime(value, language, options),
    date: (value, style) => formatDate(value, language, style),
    countdown: formatCountdown,
    fileSize: (bytes) => formatFileSize(bytes, language),
    currencyLabel: (code, englishName) => `${code} · ${formatCurrencyName(code, englishName, language)}`,
  };
  return { language, t, format, i18n };
}

// Without a provider (isolated component tests, the catalogue) components speak English.
const I18nContext = createContext<I18nContextValue>(buildContext(appI18n, FALLBACK_LANGUAGE));

export function I18nProvider({
  language,
  i18n = appI18n,
  children,
}: {
  language: string;
  i18n?: I18n;
  children: ReactNode;
}) {
  const requested = i18n.resolve(language);
  const lazy = i18n === appI18n && !isLanguageLoaded(requested);
  // The language shown: the requested one once its table is there. At the first render the
  // provider waits for it (Suspense: no English flash for a Russian visitor); on a later switch
  // the previous language stays on screen until the new table has loaded.
  const [shown, setShown] = useState<string | null>(lazy ? null : requested);
  if (lazy && shown === null) use(loadLanguage(requested));
  const current = lazy ? (shown ?? FALLBACK_LANGUAGE) : requested;
  if (!lazy && shown !== requested) setShown(requested);
  useEffect(() => {
    if (!lazy) return;
    let live = true;
    void loadLanguage(requested).then(() => {
      if (live && isLanguageLoaded(requested)) setShown(requested);
    });
    return () => {
      live = false;
    };
  }, [lazy, requested]);
  const value = useMemo(() => buildContext(i18n, current), [i18n, current]);
  useEffect(() => {
    // Screen readers pick their voice from <html lang>.
    if (typeof document !== 'undefined') document.documentElement.lang = value.language;
  }, [value.language]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** t(key, params): the text for the current language, English when the key is missing there. */
export function useT(): TFunction {
  return useContext(I18nContext).t;
}

/** The resolved current language ('en' | 'ru' | 'es'). */
export function useLanguage(): string {
  return useContext(I18nContext).language;
}

/** Number, money, price, percent, date and countdown formatting in the current language. */
export function useFormat(): Formatters {
  return useContext(I18nContext).format;
}

export type { MoneyFormatOptions };
