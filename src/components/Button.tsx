/**
 * Button and IconButton. Variants: primary, secondary, ghost, danger, and the two trade
 * buttons up/down (which always carry their arrow, so direction never depends on colour).
 * `loading` disables the button, marks it busy and shows a spinner in place of the icon;
 * `loadingLabel` optionally replaces the text while loading. Type defaults to "button".
 */
import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { Icon, type IconName } from './Icon';
import { Spinner } from './Spinner';
import { cx } from './cx';
import './Button.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'up' | 'down';
export type ButtonSize = 'sm' | 'md' | 'lg';

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  loading?: boolean;
  loadingLabel?: string;
  /** An icon before the text (a name from the icon set or any node). */
  icon?: IconName | ReactNode;
  /** An icon after the text. */
  iconEnd?: IconName | ReactNode;
  fullWidth?: boolean;
  ref?: Ref<HTMLButtonElement>;
};

function renderIcon(icon: IconName | ReactNode, size: number) {
  return typeof icon === 'string' ? <Icon name={icon as IconName} size={size} /> : icon;
}

export function Button({
  variant = 'secondary',
  size = 'md',
  loading = false,
  loadingLabel,
  icon,
  iconEnd,
  fullWidth,
  disabled,
  className,
  children,
  type = 'button',
  ref,
  ...rest
}: ButtonProps) {
  const iconSize = size === 'lg' ? 22 : size === 'sm' ? 16 : 18;
  const leading = icon ?? (variant === 'up' ? 'up' : variant === 'down' ? 'down' : undefined);
  return (
    <button
      ref={ref}
      type={type}
      className={cx('btn', `btn-${variant}`, `btn-${size}`, fullWidth && 'btn-block', loading && 'btn-loading', className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <Spinner decorative size={iconSize} /> : leading !== undefined && renderIcon(leading, iconSize)}
      {(loading && loadingLabel) || children ? <span className="btn-label">{loading && loadingLabel ? loadingLabel : children}</span> : null}
      {!loading && iconEnd !== undefined && renderIcon(iconEnd, iconSize)}
    </button>
  );
}

export type IconButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children' | 'aria-label'> & {
  /** The accessible name (from the locale files); also shown as a tooltip. */
  label: string;
  icon: IconName;
  variant?: 'ghost' | 'secondary' | 'primary' | 'danger';
  size?: ButtonSize;
  loading?: boolean;
  /** For toggles (show password, theme): sets aria-pressed. */
  pressed?: boolean;
  ref?: Ref<HTMLButtonElement>;
};

export function IconButton({
  label,
  icon,
  variant = 'ghost',
  size = 'md',
  loading = false,
  pressed,
  disabled,
  className,
  type = 'button',
  title,
  ref,
  ...rest
}: IconButtonProps) {
  const iconSize = size === 'lg' ? 24 : size === 'sm' ? 16 : 20;
  return (
    <button
      ref={ref}
      type={type}
      className={cx('btn', 'btn-icon', `btn-${variant}`, `btn-${size}`, className)}
      aria-label={label}
      title={title ?? label}
      aria-pressed={pressed}
      aria-busy={loading || undefined}
      disabled={disabled || loading}
      {...rest}
    >
      {loading ? <Spinner decorative size={iconSize} /> : <Icon name={icon} size={iconSize} />}
    </button>
  );
}
