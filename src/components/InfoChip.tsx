/**
 * InfoChip: an inline message in one of four kinds (error, success, warning, info). Each kind
 * has its own icon and a hidden "Error:"/"Warning:"… prefix, so the meaning never rests on
 * colour. `live` makes it announce itself when it appears (errors assertively).
 */
import type { ReactNode } from 'react';
import { useT } from '../i18n';
import { Icon, type IconName } from './Icon';
import { cx } from './cx';
import './InfoChip.css';

export type InfoKind = 'error' | 'success' | 'warning' | 'info';

export const KIND_ICON: Record<InfoKind, IconName> = {
  error: 'error',
  success: 'check',
  warning: 'warning',
  info: 'info',
};

export type InfoChipProps = {
  kind: InfoKind;
  children: ReactNode;
  /** Optional bold first line. */
  title?: ReactNode;
  /** A control at the end (Retry, a link). */
  action?: ReactNode;
  /** Announce when shown: role=alert for errors, role=status otherwise. */
  live?: boolean;
  /** A compact pill for statuses inside tables and cards. */
  compact?: boolean;
  /** Another icon than the kind's (a status badge shows a clock while it waits). */
  icon?: IconName;
  /** The hidden "Error:"/"Warning:" prefix; off where the text says it all (a status label). */
  prefix?: boolean;
  /** A span for a badge inside a table cell or a line of text. */
  inline?: boolean;
  className?: string;
  id?: string;
  /** Stated on the element for styles and tests (a transaction status). */
  status?: string;
};

export function InfoChip({ kind, children, title, action, live = false, compact = false, icon, prefix = true, inline = false, className, id, status }: InfoChipProps) {
  const t = useT();
  const role = live ? (kind === 'error' ? 'alert' : 'status') : undefined;
  // A bare message (an actor's error: a locale key or a server text) is shown in the current language.
  const message = typeof children === 'string' ? t(children) : children;
  const Box = inline ? 'span' : 'div';
  return (
    <Box id={id} className={cx('info-chip', `info-chip-${kind}`, compact && 'info-chip-compact', className)} role={role} data-status={status}>
      <Icon name={icon ?? KIND_ICON[kind]} size={compact ? 14 : 18} className="info-chip-icon" />
      <Box className="info-chip-text">
        {prefix ? <span className="visually-hidden">{t(`components.info_chip.${kind}`)}: </span> : null}
        {title ? <strong className="info-chip-title">{typeof title === 'string' ? t(title) : title}</strong> : null}
        {title ? <Box>{message}</Box> : message}
      </Box>
      {action ? <Box className="info-chip-action">{action}</Box> : null}
    </Box>
  );
}
