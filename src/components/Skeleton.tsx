/**
 * Skeleton placeholders shown while a list or the chart loads. They are hidden from assistive
 * tech; mark the loading container with aria-busy (SkeletonList does) so it is announced once.
 */
import type { CSSProperties } from 'react';
import { useT } from '../i18n';
import { cx } from './cx';
import './Skeleton.css';

export type SkeletonProps = {
  width?: CSSProperties['width'];
  height?: CSSProperties['height'];
  shape?: 'text' | 'rect' | 'circle';
  className?: string;
};

export function Skeleton({ width, height, shape = 'rect', className }: SkeletonProps) {
  return <span className={cx('skeleton', `skeleton-${shape}`, className)} style={{ width, height }} aria-hidden="true" />;
}

/** Several text lines, the last one shorter, like a paragraph being loaded. */
export function SkeletonText({ lines = 3, className }: { lines?: number; className?: string }) {
  return (
    <span className={cx('skeleton-lines', className)} aria-hidden="true">
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} shape="text" width={i === lines - 1 && lines > 1 ? '60%' : '100%'} />
      ))}
    </span>
  );
}

/** A busy list of `rows` skeleton rows with a screen-reader "Loading…" label. */
export function SkeletonList({ rows = 5, rowHeight = 48, label }: { rows?: number; rowHeight?: number; label?: string }) {
  const t = useT();
  return (
    <div className="skeleton-list" aria-busy="true" aria-live="polite">
      <span className="visually-hidden">{label ?? t('common.loading')}</span>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={rowHeight} />
      ))}
    </div>
  );
}
