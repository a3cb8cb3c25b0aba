/**
 * Calendar dates as people type them (issue 26; docs/decisions/date-fields.md): each language's
 * own order and separator — en MM/DD/YYYY, ru DD.MM.YYYY, es DD/MM/YYYY — read into the ISO
 * YYYY-MM-DD every form, machine and API keeps. A browser's `<input type="date">` follows the
 * browser's locale, not the platform's language, so the SPA's date fields are text fields that
 * parse with these rules.
 */
import * as v from 'valibot';
import { isRealDate } from './profile';
import type { Language } from './user';

interface DateFormat {
  order: 'mdy' | 'dmy';
  separator: string;
}

export const DATE_FORMATS: Record<Language, DateFormat> = {
  en: { order: 'mdy', separator: '/' },
  ru: { order: 'dmy', separator: '.' },
  es: { order: 'dmy', separator: '/' },
};

function formatOf(language: string): DateFormat {
  return DATE_FORMATS[language as Language] ?? DATE_FORMATS.en;
}

/** An ISO YYYY-MM-DD as the language writes it ("2026-03-07" -> "07.03.2026" in ru); '' for anything else. */
export function formatLocalDate(iso: string, language: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return '';
  const { order, separator } = formatOf(language);
  const [y, mo, d] = [m[1], m[2], m[3]];
  return order === 'dmy' ? [d, mo, y].join(separator) : [mo, d, y].join(separator);
}

/**
 * What a person typed as a date in `language`: the day, month and year in the language's order,
 * separated by any of . / - or a space (one or two digits for day and month, four for the
 * year); an ISO YYYY-MM-DD is accepted in every language. Valibot: a failure is "invalid".
 */
export function localDateSchema(language: string) {
  const { order } = formatOf(language);
  return v.pipe(
    v.string(),
    v.trim(),
    v.transform((text) => {
      if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
      const m = /^(\d{1,2})[./\-\s](\d{1,2})[./\-\s](\d{4})$/.exec(text);
      if (!m) return '';
      const [a, b, year] = [m[1].padStart(2, '0'), m[2].padStart(2, '0'), m[3]];
      return order === 'dmy' ? `${year}-${b}-${a}` : `${year}-${a}-${b}`;
    }),
    v.check(isRealDate, 'invalid'),
  );
}

/** The ISO date typed as `text` in `language`, or null when it is not a real date. */
export function parseLocalDate(text: string, language: string): string | null {
  const parsed = v.safeParse(localDateSchema(language), text);
  return parsed.success ? parsed.output : null;
}
