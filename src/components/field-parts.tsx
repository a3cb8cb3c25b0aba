/**
 * Shared parts of the form fields: reading a value that may be a plain value or a Preact
 * signal (what @modular-forms/react's Field hands out), the label/hint/error wiring
 * (aria-invalid, aria-describedby), and the error line.
 */
import type { ReadonlySignal } from '@preact/signals-react';
import { useId, type ReactNode } from 'react';
import { useT } from '../i18n';
import { Icon } from './Icon';

export type MaybeSignal<T> = T | ReadonlySignal<T>;

function isSignal(value: unknown): value is ReadonlySignal<unknown> {
  return typeof value === 'object' && value !== null && 'peek' in value && 'subscribe' in value;
}

export function read<T>(value: MaybeSignal<T>): T {
  return isSignal(value) ? (value.value as T) : (value as T);
}

/** Text for an input's value: '' for null, undefined and NaN (modular-forms gives NaN for an empty number). */
export function inputText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' && Number.isNaN(value)) return '';
  return String(value);
}

export function useFieldIds(id: string | undefined, hasHint: boolean, error: string) {
  const auto = useId();
  const inputId = id ?? `field-${auto}`;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [hasHint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return { inputId, hintId, errorId, describedBy };
}

export function FieldLabel({ htmlFor, required, hidden, children }: { htmlFor: string; required?: boolean; hidden?: boolean; children: ReactNode }) {
  const t = useT();
  return (
    <label htmlFor={htmlFor} className={hidden ? 'visually-hidden' : 'field-label'}>
      {children}
      {required ? (
        <span className="field-required" title={t('common.required')} aria-hidden="true">
          {' *'}
        </span>
      ) : null}
    </label>
  );
}

export function FieldHint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="field-hint">
      {children}
    </p>
  );
}

/** Always rendered so screen readers hear an error when it appears on blur. */
export function FieldError({ id, error }: { id: string; error: string }) {
  const t = useT();
  return (
    <div className="field-error-slot" aria-live="polite">
      {error ? (
        <p id={id} className="field-error">
          <Icon name="error" size={16} />
          <span>{t(error)}</span>
        </p>
      ) : null}
    </div>
  );
}
