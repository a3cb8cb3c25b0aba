/**
 * Kit fields bound to a @modular-forms/react field, with the error translated: the shared
 * schemas speak in locale keys (validation.*), the server speaks plain text; a key is
 * translated, a sentence is shown as the server wrote it. useSignals() makes these components
 * re-render when the field's value or error signal changes.
 */
import type { ComponentProps } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import type { ReadonlySignal } from '@preact/signals-react';
import { CheckboxField, PasswordField, SelectField, TextField } from '../../components';
import { useT, type TFunction } from '../../i18n';

interface BoundField {
  value: ReadonlySignal<unknown>;
  error: ReadonlySignal<string>;
}

/** A locale key or a server sentence, in the current language (see `t` in src/i18n). */
export function translateError(t: TFunction, error: string | null | undefined): string {
  return error ? t(error) : '';
}

type Common = { field: BoundField; serverError?: string | null };

export function FormTextField({ field, serverError, ...rest }: Common & Omit<ComponentProps<typeof TextField>, 'value' | 'error'>) {
  useSignals();
  const t = useT();
  const value = field.value.value;
  return <TextField {...rest} value={typeof value === 'string' || typeof value === 'number' ? value : ''} error={translateError(t, field.error.value) || translateError(t, serverError)} />;
}

export function FormPasswordField({ field, serverError, ...rest }: Common & Omit<ComponentProps<typeof PasswordField>, 'value' | 'error'>) {
  useSignals();
  const t = useT();
  const value = field.value.value;
  return <PasswordField {...rest} value={typeof value === 'string' ? value : ''} error={translateError(t, field.error.value) || translateError(t, serverError)} />;
}

export function FormSelectField({ field, serverError, ...rest }: Common & Omit<ComponentProps<typeof SelectField>, 'value' | 'error'>) {
  useSignals();
  const t = useT();
  const value = field.value.value;
  return <SelectField {...rest} value={typeof value === 'string' ? value : ''} error={translateError(t, field.error.value) || translateError(t, serverError)} />;
}

export function FormCheckboxField({ field, serverError, ...rest }: Common & Omit<ComponentProps<typeof CheckboxField>, 'checked' | 'error'>) {
  useSignals();
  const t = useT();
  return <CheckboxField {...rest} checked={field.value.value === true} error={translateError(t, field.error.value) || translateError(t, serverError)} />;
}
