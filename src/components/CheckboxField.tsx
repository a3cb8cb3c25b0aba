/**
 * CheckboxField: a native checkbox with its label (which may hold links, e.g. "I accept the
 * terms"), hint and error. Controlled with `checked` (a boolean or a signal), or uncontrolled.
 */
import { useSignals } from '@preact/signals-react/runtime';
import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { Icon } from './Icon';
import { cx } from './cx';
import { FieldError, FieldHint, read, useFieldIds, type MaybeSignal } from './field-parts';
import './fields.css';

export type CheckboxFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'checked'> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: MaybeSignal<string | null | undefined>;
  checked?: MaybeSignal<boolean | null | undefined>;
  className?: string;
  ref?: Ref<HTMLInputElement>;
};

export function CheckboxField(props: CheckboxFieldProps) {
  useSignals();
  const controlled = Object.prototype.hasOwnProperty.call(props, 'checked');
  const { label, hint, error: errorProp, checked, className, id, ref, ...rest } = props;
  const error = read(errorProp) ?? '';
  const { inputId, hintId, errorId, describedBy } = useFieldIds(id, Boolean(hint), error);
  return (
    <div className={cx('field', 'field-checkbox', error && 'field-invalid', rest.disabled && 'field-disabled', className)}>
      <div className="checkbox-row">
        <span className="checkbox-box">
          <input
            {...rest}
            ref={ref}
            id={inputId}
            type="checkbox"
            className="checkbox-input"
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            {...(controlled ? { checked: Boolean(read(checked)) } : {})}
          />
          <Icon name="check" size={14} className="checkbox-mark" />
        </span>
        <label htmlFor={inputId} className="checkbox-label">
          {label}
        </label>
      </div>
      {hint ? <FieldHint id={hintId}>{hint}</FieldHint> : null}
      <FieldError id={errorId} error={error} />
    </div>
  );
}
