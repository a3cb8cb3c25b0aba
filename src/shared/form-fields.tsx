/**
 * Kit fields bound to a @modular-forms/react field (the auth and profile forms), with the error
 * translated: the form rules speak in locale keys (validation.*), the server in plain sentences
 * (shown as the server wrote them). A server error for the field shows until the user's own
 * check has something to say. useSignals() re-renders these when the field's signals change.
 */
import type { ChangeEvent, ComponentProps } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import type { ReadonlySignal } from '@preact/signals-react';
import { CheckboxField, DateField, PasswordField, SelectField, TextField } from '../components';
import { parseLocalDate } from '../../contract/dates';
import { useLanguage, useT, type TFunction } from '../i18n';

interface BoundField {
  value: ReadonlySignal<unknown>;
  error: ReadonlySignal<string>;
}

/** A locale key (with params) or a server sentence, in the current language (see `t` in src/i18n). */
export function translateText(t: TFunction, text: string | null | undefined, params?: Record<string, string | number>): string {
  return text ? t(text, params) : '';
}

type Common = { field: BoundField; serverError?: string | null };

export function FormTextField({ field, serverError, ...rest }: Common & Omit<ComponentProps<typeof TextField>, 'value' | 'error'>) {
  useSignals();
  const t = useT();
  const value = field.value.value;
  return (
    <TextField
      {...rest}
      value={typeof value === 'string' || typeof value === 'number' ? value : ''}
      error={translateText(t, field.error.value) || translateText(t, serverError)}
    />
  );
}

export function FormPasswordField({ field, serverError, ...rest }: Common & Omit<ComponentProps<typeof PasswordField>, 'value' | 'error'>) {
  useSignals();
  const t = useT();
  const value = field.value.value;
  return <PasswordField {...rest} value={typeof value === 'string' ? value : ''} error={translateText(t, field.error.value) || translateText(t, serverError)} />;
}

export function FormSelectField({ field, serverError, ...rest }: Common & Omit<ComponentProps<typeof SelectField>, 'value' | 'error'>) {
  useSignals();
  const t = useT();
  const value = field.value.value;
  return <SelectField {...rest} value={typeof value === 'string' ? value : ''} error={translateText(t, field.error.value) || translateText(t, serverError)} />;
}

export function FormCheckboxField({ field, serverError, ...rest }: Common & Omit<ComponentProps<typeof CheckboxField>, 'checked' | 'error'>) {
  useSignals();
  const t = useT();
  return <CheckboxField {...rest} checked={field.value.value === true} error={translateText(t, field.error.value) || translateText(t, serverError)} />;
}

/**
 * A date bound to a form field (issue 26): typed in the language's format (DateField), stored as
 * the ISO date the form's schema checks; text that is not a date yet is stored as typed, so the
 * schema's own message says so on submit. `onChange` is modular-forms' field handler (it reads
 * `currentTarget.value`).
 */
export function FormDateField({
  field,
  serverError,
  onChange,
  ...rest
}: Common & Omit<ComponentProps<typeof DateField>, 'value' | 'error' | 'onChange' | 'onText'> & { onChange: (event: ChangeEvent<HTMLInputElement>) => void }) {
  useSignals();
  const t = useT();
  const language = useLanguage();
  const value = field.value.value;
  // modular-forms reads only currentTarget.value (its getElementInput for a string field).
  const set = (text: string) => onChange({ currentTarget: { value: text } } as unknown as ChangeEvent<HTMLInputElement>);
  return (
    <DateField
      {...rest}
      value={typeof value === 'string' ? value : ''}
      onChange={set}
      onText={(text) => {
        if (text.trim() !== '' && parseLocalDate(text, language) === null) set(text);
      }}
      error={translateText(t, field.error.value) || translateText(t, serverError)}
    />
  );
}
