/**
 * SelectField: a labelled native <select> (best keyboard and mobile behaviour there is), with
 * hint and error wired like TextField; controlled or spread from a modular-forms Field.
 */
import { useSignals } from '@preact/signals-react/runtime';
import type { ReactNode, Ref, SelectHTMLAttributes } from 'react';
import { Icon } from './Icon';
import { cx } from './cx';
import { FieldError, FieldHint, FieldLabel, inputText, read, useFieldIds, type MaybeSignal } from './field-parts';
import './fields.css';

export type SelectOption = { value: string; label: string; disabled?: boolean };

export type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'children'> & {
  label: ReactNode;
  options: readonly SelectOption[];
  /** A first, empty choice ("Select…"). */
  placeholder?: string;
  hint?: ReactNode;
  error?: MaybeSignal<string | null | undefined>;
  value?: MaybeSignal<string | null | undefined>;
  hideLabel?: boolean;
  className?: string;
  ref?: Ref<HTMLSelectElement>;
};

export function SelectField(props: SelectFieldProps) {
  useSignals();
  const controlled = Object.prototype.hasOwnProperty.call(props, 'value');
  const { label, options, placeholder, hint, error: errorProp, value, hideLabel, className, id, required, ref, ...rest } = props;
  const error = read(errorProp) ?? '';
  const { inputId, hintId, errorId, describedBy } = useFieldIds(id, Boolean(hint), error);
  return (
    <div className={cx('field', error && 'field-invalid', rest.disabled && 'field-disabled', className)}>
      <FieldLabel htmlFor={inputId} required={required} hidden={hideLabel}>
        {label}
      </FieldLabel>
      <div className="field-control field-control-select">
        <select
          {...rest}
          ref={ref}
          id={inputId}
          required={required}
          className="field-input field-select"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...(controlled ? { value: inputText(read(value)) } : {})}
        >
          {placeholder !== undefined ? (
            <option value="" disabled={required}>
              {placeholder}
            </option>
          ) : null}
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
        <Icon name="chevron" size={16} className="field-select-arrow" />
      </div>
      {hint ? <FieldHint id={hintId}>{hint}</FieldHint> : null}
      <FieldError id={errorId} error={error} />
    </div>
  );
}
