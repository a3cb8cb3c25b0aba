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
  className?: string;
  id?: string;
};

export function InfoChip({ kind, children, title, action, live = false, compact = false, className, id }: InfoChipProps) {
  const t = useT();
  const role = live ? (kind === 'error' ? 'alert' : 'status') : undefined;
  // A bare message (an actor's error: a locale key or a server text) is shown in the current language.
  const message = typeof children === 'string' ? t(children) : children;
  return (
    <div id={id} className={cx('info-chip', `info-chip-${kind}`, compact && 'info-chip-compact', className)} role={role}>
      <Icon name={KIND_ICON[kind]} size={compact ? 14 : 18} className="info-chip-icon" />
      <div className="info-chip-text">
        <span className="visually-hidden">{t(`components.info_chip.${kind}`)}: </span>
        {title ? <strong className="info-chip-title">{typeof title === 'string' ? t(title) : title}</strong> : null}
        {title ? <div>{message}</div> : message}
      </div>
      {action ? <div className="info-chip-action">{action}</div> : null}
    </div>
  );
}
