/**
 * ToastViewport: renders the toasts the toasts actor holds. It never times them out itself
 * (the actor owns durations); a click anywhere on a toast, or its close button, dismisses it.
 * Two live regions exist from the first render so screen readers announce new toasts:
 * errors assertively (role=alert), everything else politely (role=status).
 *
 * Placement (Toasts.css): desktop at the bottom-left of the content area, newest at the bottom,
 * clear of the right-hand trade column; tablets at the top of the chart, newest on top; phones
 * compact just above the trade bar, newest at the bottom (never over the price or Up / Down). It is drawn in a portal on <body> so it stays above every modal, sheet and
 * overlay (the app root is its own stacking context). At most `limit` toasts show (3 on
 * desktop, 2 on phones); older ones wait collapsed behind a "+N more" line that takes no clicks,
 * and come back into view as newer ones go.
 */
import { createPortal } from 'react-dom';
import { useT } from '../i18n';
import { IconButton } from './Button';
import { PHONE_QUERY, useMediaQuery } from './hooks';
import { Icon } from './Icon';
import { KIND_ICON } from './InfoChip';
import './Toasts.css';

export type ToastType = 'success' | 'error' | 'warning' | 'info';
export type ToastItem = { id: string; type: ToastType; text: string };

export type ToastViewportProps = {
  /** Oldest first, as the toasts actor keeps them. */
  toasts: readonly ToastItem[];
  onDismiss: (id: string) => void;
  /** How many show at once; default 3, or 2 on phones. */
  limit?: number;
  /** Render in place instead of in a portal on <body> (tests, the UI catalogue). */
  inline?: boolean;
};

export const TOAST_LIMIT = { desktop: 3, phone: 2 } as const;

export function ToastViewport({ toasts, onDismiss, limit, inline = false }: ToastViewportProps) {
  const t = useT();
  const phone = useMediaQuery(PHONE_QUERY);
  const max = Math.max(1, limit ?? (phone ? TOAST_LIMIT.phone : TOAST_LIMIT.desktop));
  const shown = toasts.slice(-max);
  const hidden = toasts.length - shown.length;
  const errors = shown.filter((toast) => toast.type === 'error');
  const others = shown.filter((toast) => toast.type !== 'error');
  const newest = shown[shown.length - 1];
  const render = (toast: ToastItem) => (
    <div key={toast.id} className={`toast toast-${toast.type}`} onClick={() => onDismiss(toast.id)} data-toast-id={toast.id}>
      <Icon name={KIND_ICON[toast.type]} className="toast-icon" />
      <p className="toast-text">
        <span className="visually-hidden">{t(`components.info_chip.${toast.type}`)}: </span>
        {toast.text}
      </p>
      <IconButton
        className="toast-close"
        icon="close"
        size="sm"
        label={t('components.toast.dismiss')}
        onClick={(event) => {
          event.stopPropagation();
          onDismiss(toast.id);
        }}
      />
    </div>
  );
  const viewport = (
    <section
      className="toast-viewport"
      aria-label={t('components.toast.region')}
      data-newest={newest ? (newest.type === 'error' ? 'error' : 'other') : undefined}
    >
      {hidden > 0 ? (
        <p className="toast-more" data-testid="toast-more">
          {t('components.toast.more', { count: hidden })}
        </p>
      ) : null}
      <div role="alert" aria-live="assertive" aria-atomic="false" className="toast-stack toast-stack-errors">
        {errors.map(render)}
      </div>
      <div role="status" aria-live="polite" aria-atomic="false" className="toast-stack toast-stack-others">
        {others.map(render)}
      </div>
    </section>
  );
  return inline || typeof document === 'undefined' ? viewport : createPortal(viewport, document.body);
}
