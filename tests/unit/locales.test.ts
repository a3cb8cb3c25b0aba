/**
 * Locale parity: en, ru and es must have exactly the same keys, every value must be a
 * non-empty string, placeholders ({{name}}) must match the English text, and a Russian or
 * Spanish text longer than three letters must not be a copy of the English one (brand names
 * and words that are the same in both languages are listed in ALLOWED_SAME).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FIELD_TEXT_KEYS, SERVER_TEXT_CATALOGUES, SERVER_TEXT_KEYS, serverTextKey } from '../../src/i18n/server-texts';
import { FieldText } from '../../contract/auth';

type Tree = { [key: string]: unknown };
const root = path.resolve(__dirname, '../..');
const load = (lang: string): Tree => JSON.parse(readFileSync(path.join(root, 'locales', `${lang}.json`), 'utf8')) as Tree;

const locales = { en: load('en'), ru: load('ru'), es: load('es') };

/** Keys whose text is legitimately the same as in English. Exact keys, or a prefix ending in '.'. */
const ALLOWED_SAME = new Set<string>([
  'common.app_name', // brand
  'nav.language_names.', // each language's own name, shown the same in every UI language
  'components.info_chip.error', // Spanish "Error"
  'trading.chart_tools.names.macd', // the indicator's name (MACD) in every language
  'trading.chart_tools.short.macd',
  'trading.chart_tools.types.heikin_ashi', // Japanese term, written the same in Spanish
  'wallet.rate_line', // "1 {{from}} = {{rate}} {{to}}": codes and a number, the same in every language
]);

function isAllowed(key: string): boolean {
  if (ALLOWED_SAME.has(key)) return true;
  for (const entry of ALLOWED_SAME) if (entry.endsWith('.') && key.startsWith(entry)) return true;
  return false;
}

/** Leaves as "a.b.c" -> value; non-string leaves are kept so the test can report them. */
function flatten(tree: Tree, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      for (const [kk, vv] of flatten(v as Tree, key)) out.set(kk, vv);
    } else out.set(key, v);
  }
  return out;
}

const flat = {
  en: flatten(locales.en),
  ru: flatten(locales.ru),
  es: flatten(locales.es),
};

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]).sort();
const letters = (text: string) => (text.match(/\p{L}/gu) ?? []).length;

describe('locale files', () => {
  it('have a reasonable number of keys', () => {
    expect(flat.en.size).toBeGreaterThan(100);
  });

  it.each(['ru', 'es'] as const)('%s has exactly the keys of en', (lang) => {
    const en = [...flat.en.keys()].sort();
    const other = [...flat[lang].keys()].sort();
    const missing = en.filter((k) => !flat[lang].has(k));
    const extra = other.filter((k) => !flat.en.has(k));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it.each(['en', 'ru', 'es'] as const)('%s values are non-empty strings', (lang) => {
    const bad = [...flat[lang]].filter(([, v]) => typeof v !== 'string' || v.trim() === '').map(([k]) => k);
    expect(bad).toEqual([]);
  });

  it.each(['ru', 'es'] as const)('%s keeps the placeholders of en', (lang) => {
    const bad: string[] = [];
    for (const [key, en] of flat.en) {
      const other = flat[lang].get(key);
      if (typeof en !== 'string' || typeof other !== 'string') continue;
      if (placeholders(en).join() !== placeholders(other).join()) bad.push(key);
    }
    expect(bad).toEqual([]);
  });

  it.each(['ru', 'es'] as const)('%s is translated (no text over 3 letters copied from en)', (lang) => {
    const copied: string[] = [];
    for (const [key, en] of flat.en) {
      const other = flat[lang].get(key);
      if (typeof en !== 'string' || typeof other !== 'string') continue;
      if (other.trim() === en.trim() && letters(en) > 3 && !isAllowed(key)) copied.push(`${key}: "${en}"`);
    }
    expect(copied).toEqual([]);
  });

  it('has the keys the spec names', () => {
    for (const key of [
      'common.copied',
      'common.copy_error',
      'common.operation_failed',
      'common.error_initializing_app',
      'common.please_login',
      'profile.file_too_large',
      'profile.file_type_not_supported',
    ]) {
      expect(flat.en.has(key), key).toBe(true);
    }
    expect(flat.en.get('common.copied')).toBe('Copied to clipboard');
    expect(flat.en.get('common.copy_error')).toBe('Copy error');
    expect(flat.en.get('common.error_initializing_app')).toBe('Error initializing app');
    expect(flat.en.get('common.please_login')).toBe('Please login first');
  });

  it('translates every text the server or the API layer can show, in all three languages', () => {
    const missing: string[] = [];
    for (const [text, key] of SERVER_TEXT_KEYS) {
      if (flat.en.get(key) !== text) missing.push(`en ${key}: "${text}"`);
      for (const lang of ['ru', 'es'] as const) if (typeof flat[lang].get(key) !== 'string') missing.push(`${lang} ${key}`);
    }
    expect(missing).toEqual([]);
    const texts = Object.values(SERVER_TEXT_CATALOGUES).flatMap((catalogue) => Object.values(catalogue));
    expect(new Set(texts).size).toBe(SERVER_TEXT_KEYS.size);
    expect(SERVER_TEXT_KEYS.get('Invalid credentials')).toBe('server_texts.common.invalid_credentials');
  });

  it('shows every registration field message of the contract through a form key present in all three languages', () => {
    const missing = Object.entries(FIELD_TEXT_KEYS).flatMap(([name, key]) =>
      (['en', 'ru', 'es'] as const).filter((lang) => typeof flat[lang].get(key) !== 'string').map((lang) => `${lang} ${key} (${name})`),
    );
    expect(missing).toEqual([]);
    expect(serverTextKey(FieldText.usernameMinLength)).toBe('validation.username_min_length');
  });

  it('the allowlist only names keys that exist', () => {
    for (const entry of ALLOWED_SAME) {
      const exists = entry.endsWith('.') ? [...flat.en.keys()].some((k) => k.startsWith(entry)) : flat.en.has(entry);
      expect(exists, entry).toBe(true);
    }
  });
});
