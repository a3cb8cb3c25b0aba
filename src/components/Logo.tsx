/**
 * The product mark (a rising price line with an arrowhead in a rounded square) and the "TradeTerminal"
 * wordmark. `variant="mark"` shows only the square, named by an aria-label; the full logo
 * shows the name as real text. Colours come from tokens via Logo.css.
 */
import { useT } from '../i18n';
import { cx } from './cx';
import './Logo.css';

export type LogoProps = {
  variant?: 'full' | 'mark';
  /** Height of the mark in px. */
  size?: number;
  className?: string;
  /** Extra classes of the wordmark (e.g. `visually-hidden-phone`: only the mark on small screens). */
  wordClassName?: string;
};

export function Logo({ variant = 'full', size = 28, className, wordClassName }: LogoProps) {
  const t = useT();
  const name = t('common.app_name');
  const mark = (
    <svg
      className="logo-mark"
      viewBox="0 0 32 32"
      width={size}
      height={size}
      focusable="false"
      aria-hidden={variant === 'full' ? true : undefined}
      role={variant === 'mark' ? 'img' : undefined}
      aria-label={variant === 'mark' ? name : undefined}
    >
      <rect className="logo-mark-bg" width="32" height="32" rx="8" />
      <path className="logo-mark-line" d="M7 22l6-6.5 4.5 4L25 11" />
      <path className="logo-mark-line" d="M19.5 10.5H25.5V16.5" />
    </svg>
  );
  if (variant === 'mark') return <span className={cx('logo', className)}>{mark}</span>;
  return (
    <span className={cx('logo', className)}>
      {mark}
      <span className={cx('logo-word', wordClassName)} style={{ fontSize: Math.round(size * 0.64) }}>
        {/* Two weights make the wordmark without an image; the text stays selectable and translatable-safe. */}
        <span className="logo-word-a">{name.slice(0, 5)}</span>
        <span className="logo-word-b">{name.slice(5)}</span>
      </span>
    </span>
  );
}
