/**
 * Spinner: an indeterminate progress ring. As a standalone indicator it is a polite status
 * region named "Loading…" (or the given label); inside a button pass `decorative` so only
 * the button speaks.
 */
import { useT } from '../i18n';
import { cx } from './cx';
import './Spinner.css';

export type SpinnerProps = {
  label?: string;
  size?: number;
  decorative?: boolean;
  className?: string;
};

export function Spinner({ label, size = 20, decorative = false, className }: SpinnerProps) {
  const t = useT();
  const ring = (
    <svg className="spinner-ring" viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <circle className="spinner-track" cx="12" cy="12" r="9" />
      <path className="spinner-arc" d="M21 12a9 9 0 0 0-9-9" />
    </svg>
  );
  if (decorative) {
    return (
      <span className={cx('spinner', className)} aria-hidden="true">
        {ring}
      </span>
    );
  }
  const text = label ?? t('common.loading');
  return (
    <span className={cx('spinner', className)} role="status" aria-label={text}>
      {ring}
      <span className="visually-hidden">{text}</span>
    </span>
  );
}

/** A centred spinner for a page or panel that is loading (route chunks, first data). */
export function PageSpinner({ label }: { label?: string }) {
  return (
    <div className="page-spinner">
      <Spinner size={32} label={label} />
    </div>
  );
}
