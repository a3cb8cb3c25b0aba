/**
 * Kit fields bound to a @modular-forms/react field (the auth and profile forms), with the error
 * translated: the form rules speak in locale keys (validation.*), the server in plain sentences
 * (shown as the server wrote them). A server error for the field shows until the user's own
 * check has something to say. useSignals() re-renders these when the field's signals change.
 */
import type { ComponentProps } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import type { ReadonlySignal } from '@preact/signals-react';
import { CheckboxField, PasswordField, SelectField, TextField } from '../components';
import { useT, type TFunction } from '../i18n';

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
