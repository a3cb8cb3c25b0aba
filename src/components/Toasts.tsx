/**
 * ToastViewport: renders the toasts the toasts actor holds. It never times them out itself
 * (the actor owns durations); a click anywhere on a toast, or its close button, dismisses it.
 * Two live regions exist from the first render so screen readers announce new toasts:
 * errors assertively (role=alert), everything else politely (role=status).
 */
import { useT } from '../i18n';
import { IconButton } from './Button';
import { Icon } from './Icon';
import { KIND_ICON } from './InfoChip';
import './Toasts.css';

export type ToastType = 'success' | 'error' | 'warning' | 'info';
export type ToastItem = { id: string; type: ToastType; text: string };

export type ToastViewportProps = {
  toasts: readonly ToastItem[];
  onDismiss: (id: string) => void;
};

export function ToastViewport({ toasts, onDismiss }: ToastViewportProps) {
  const t = useT();
  const errors = toasts.filter((toast) => toast.type === 'error');
  const others = toasts.filter((toast) => toast.type !== 'error');
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
  return (
    <section className="toast-viewport" aria-label={t('components.toast.region')}>
      <div role="alert" aria-live="assertive" aria-atomic="false" className="toast-stack">
        {errors.map(render)}
      </div>
      <div role="status" aria-live="polite" aria-atomic="false" className="toast-stack">
        {others.map(render)}
      </div>
    </section>
  );
}
