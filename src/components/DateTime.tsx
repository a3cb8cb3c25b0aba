/**
 * DateTime: a timestamp (unix seconds or milliseconds, a Date or an ISO string) as
 * 'DD.MM.YYYY HH:mm' in the browser's time zone, or with seconds (`withSeconds`), inside a
 * <time> element carrying the ISO value for machines and assistive tech.
 */
import { useFormat } from '../i18n';
import { toMillis } from '../i18n/format';
import { cx } from './cx';
import './Money.css';

export type DateTimeProps = {
  value: number | string | Date | null | undefined;
  withSeconds?: boolean;
  /** A dayjs format string that replaces the default. */
  format?: string;
  className?: string;
};

export function DateTime({ value, withSeconds = false, format: pattern, className }: DateTimeProps) {
  const format = useFormat();
  const ms = value === null || value === undefined ? NaN : toMillis(value);
  if (!Number.isFinite(ms)) return <span className={cx('datetime', className)}>—</span>;
  return (
    <time className={cx('datetime', className)} dateTime={new Date(ms).toISOString()}>
      {format.dateTime(ms, { withSeconds, format: pattern })}
    </time>
  );
}
