/**
 * SegmentedControl: a small single-choice switch (theme light/dark/auto, account filter
 * all/real/demo, seconds/minutes). Built on native radio inputs, so arrow keys, form
 * semantics and screen readers work without extra code; the group is named by `label`.
 */
import { useId, type ReactNode } from 'react';
import { Icon, type IconName } from './Icon';
import { cx } from './cx';
import './SegmentedControl.css';

export type SegmentOption<V extends string> = { value: V; label: ReactNode; icon?: IconName; disabled?: boolean };

export type SegmentedControlProps<V extends string> = {
  label: string;
  /** Show the group label above the control (otherwise it is for assistive tech only). */
  showLabel?: boolean;
  options: readonly SegmentOption<V>[];
  value: V;
  onChange: (value: V) => void;
  name?: string;
  size?: 'sm' | 'md';
  fill?: boolean;
  disabled?: boolean;
  className?: string;
};

export function SegmentedControl<V extends string>({
  label,
  showLabel = false,
  options,
  value,
  onChange,
  name,
  size = 'md',
  fill = false,
  disabled = false,
  className,
}: SegmentedControlProps<V>) {
  const auto = useId();
  const group = name ?? `segment-${auto}`;
  return (
    <fieldset className={cx('segmented', `segmented-${size}`, fill && 'segmented-fill', className)} disabled={disabled}>
      <legend className={showLabel ? 'segmented-legend' : 'visually-hidden'}>{label}</legend>
      <div className="segmented-track">
        {options.map((option) => (
          <label key={option.value} className={cx('segmented-option', option.value === value && 'segmented-active')}>
            <input
              type="radio"
              className="segmented-input"
              name={group}
              value={option.value}
              checked={option.value === value}
              disabled={option.disabled}
              onChange={() => onChange(option.value)}
            />
            {option.icon ? <Icon name={option.icon} size={16} /> : null}
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
