/**
 * TextField: a labelled input with an optional hint and error. Works controlled (value +
 * onChange) and with @modular-forms/react: spread the Field's props and pass value and error
 *   <Field name="email">{(field, props) =>
 *     <TextField {...props} type="email" label={t('auth.email')} value={field.value} error={field.error} />}
 *   </Field>
 * Pass the signals themselves (field.value, field.error): the field subscribes to them and
 * re-renders on its own. Reading .value inside the Field's render function does not
 * re-render, because that function runs in modular-forms' Field, outside any signal tracking.
 * In React, modular-forms sees typing as 'change': use validateOn 'blur', revalidateOn
 * 'change'. Without a `value` prop the input is uncontrolled.
 */
import { useSignals } from '@preact/signals-react/runtime';
import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { cx } from './cx';
import { FieldError, FieldHint, FieldLabel, inputText, read, useFieldIds, type MaybeSignal } from './field-parts';
import './fields.css';

export type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'prefix'> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: MaybeSignal<string | null | undefined>;
  value?: MaybeSignal<string | number | null | undefined>;
  /** Shown inside the box before the input (a currency symbol, a search icon). */
  leading?: ReactNode;
  /** Shown inside the box after the input (a unit, a toggle button). */
  trailing?: ReactNode;
  /** Keep the label for assistive tech only (search boxes with a visible icon). */
  hideLabel?: boolean;
  className?: string;
  inputClassName?: string;
  ref?: Ref<HTMLInputElement>;
};

export function TextField(props: TextFieldProps) {
  useSignals();
  const controlled = Object.prototype.hasOwnProperty.call(props, 'value');
  const {
    label,
    hint,
    error: errorProp,
    value,
    leading,
    trailing,
    hideLabel,
    className,
    inputClassName,
    id,
    required,
    type = 'text',
    ref,
    ...rest
  } = props;
  const error = read(errorProp) ?? '';
  const { inputId, hintId, errorId, describedBy } = useFieldIds(id, Boolean(hint), error);
  return (
    <div className={cx('field', error && 'field-invalid', rest.disabled && 'field-disabled', className)}>
      <FieldLabel htmlFor={inputId} required={required} hidden={hideLabel}>
        {label}
      </FieldLabel>
      <div className="field-control">
        {leading ? <span className="field-adornment">{leading}</span> : null}
        <input
          {...rest}
          ref={ref}
          id={inputId}
          type={type}
          required={required}
          className={cx('field-input', inputClassName)}
          aria-invalid={error ? true : undefined}
          aria-describedby={cx(describedBy, rest['aria-describedby']) || undefined}
          {...(controlled ? { value: inputText(read(value)) } : {})}
        />
        {trailing ? <span className="field-adornment field-adornment-end">{trailing}</span> : null}
      </div>
      {hint ? <FieldHint id={hintId}>{hint}</FieldHint> : null}
      <FieldError id={errorId} error={error} />
    </div>
  );
}
