/**
 * DateField: a calendar date typed in the reader's language (issue 26; docs/decisions/date-fields.md):
 * a text field with the language's pattern as its placeholder and visible hint (ДД.ММ.ГГГГ,
 * DD/MM/AAAA, MM/DD/YYYY), read with contract/dates.ts. The value in and out is the ISO
 * YYYY-MM-DD forms, machines and the API keep (never the browser's own date picker, whose
 * format follows the browser's locale instead of the platform's language).
 *
 * `onChange(iso)`: the ISO date once the text is a real date ('' when cleared); while the text
 * is not a date yet nothing is reported, and on leaving the field an invalid or out-of-range
 * date is said under it (`min` / `max` are ISO dates; the caller's own rules still apply). A form that validates its own value can
 * pass `onText` to get what was typed as well. Keyboard: an ordinary text field (digits and any
 * separator); labelled, described by its hint and its error.
 */
import { useEffect, useState } from 'react';
import { formatLocalDate, parseLocalDate } from '../../contract/dates';
import { useLanguage, useT } from '../i18n';
import { read, type MaybeSignal } from './field-parts';
import { TextField, type TextFieldProps } from './TextField';

export type DateFieldProps = Omit<TextFieldProps, 'value' | 'onChange' | 'type' | 'min' | 'max' | 'hint' | 'placeholder'> & {
  /** ISO YYYY-MM-DD, or '' / null for none. */
  value: MaybeSignal<string | null | undefined>;
  onChange: (iso: string) => void;
  /** Everything typed (a form that validates the raw text itself). */
  onText?: (text: string) => void;
  min?: string;
  max?: string;
};

export function DateField({ value, onChange, onText, min, max, error, onBlur, ...rest }: DateFieldProps) {
  const t = useT();
  const language = useLanguage();
  const iso = read(value) ?? '';
  const [text, setText] = useState(() => formatLocalDate(iso, language) || iso);
  const [problem, setProblem] = useState<string | null>(null);

  // A value set from outside (a reset, a loaded profile) or another language rewrites the text;
  // the text being typed is left alone while it still means the same date.
  useEffect(() => {
    setText((current) => {
      const typed = parseLocalDate(current, language);
      if (iso === '') return typed === null ? current : '';
      return typed === iso ? current : formatLocalDate(iso, language) || iso;
    });
  }, [iso, language]);

  const pattern = t('date_field.pattern');
  const check = (typed: string): string | null => {
    if (typed.trim() === '') return null;
    const parsed = parseLocalDate(typed, language);
    if (parsed === null) return t('date_field.invalid', { pattern });
    if (min && parsed < min) return t('date_field.too_early', { date: formatLocalDate(min, language) });
    if (max && parsed > max) return t('date_field.too_late', { date: formatLocalDate(max, language) });
    return null;
  };

  return (
    <TextField
      {...rest}
      type="text"
      inputMode="numeric"
      placeholder={pattern}
      hint={t('date_field.hint', { pattern })}
      value={text}
      error={read(error) || problem}
      onChange={(e) => {
        const typed = e.currentTarget.value;
        setText(typed);
        onText?.(typed);
        if (problem) setProblem(check(typed));
        if (typed.trim() === '') onChange('');
        else {
          const parsed = parseLocalDate(typed, language);
          if (parsed !== null) onChange(parsed);
        }
      }}
      onBlur={(e) => {
        setProblem(check(text));
        const parsed = parseLocalDate(text, language);
        if (parsed !== null) setText(formatLocalDate(parsed, language));
        onBlur?.(e);
      }}
    />
  );
}
