/**
 * EmptyState: what an empty list or a failed load shows: an icon, a title, a hint that says
 * what to do next ("No open orders - place your first trade") and an optional action.
 */
import { useT } from '../i18n';
import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';
import { cx } from './cx';
import './EmptyState.css';

export type EmptyStateProps = {
  icon?: IconName;
  title: ReactNode;
  hint?: ReactNode;
  action?: ReactNode;
  /** Heading level of the title inside the page outline. */
  level?: 2 | 3 | 4;
  compact?: boolean;
  className?: string;
};

export function EmptyState({ icon = 'info', title, hint, action, level = 3, compact = false, className }: EmptyStateProps) {
  const t = useT();
  const Heading = `h${level}` as 'h2' | 'h3' | 'h4';
  return (
    <div className={cx('empty-state', compact && 'empty-state-compact', className)}>
      <span className="empty-state-icon">
        <Icon name={icon} size={compact ? 22 : 28} />
      </span>
      <Heading className="empty-state-title">{typeof title === 'string' ? t(title) : title}</Heading>
      {hint ? <p className="empty-state-hint">{typeof hint === 'string' ? t(hint) : hint}</p> : null}
      {action ? <div className="empty-state-action">{action}</div> : null}
    </div>
  );
}
