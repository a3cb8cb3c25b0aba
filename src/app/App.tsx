/**
 * The app's React root: i18n fed by the locale actor, the router with its guards, the shell,
 * the modal host and the toast viewport fed by the toasts actor.
 */
import { useSelector } from '@xstate/react';
import { I18nProvider, useT } from '../i18n';
import { ToastViewport, type ToastItem } from '../components';
import { useLocaleLanguage } from '../shared/hooks';
import { useToastsActor } from '../shared/runtime';
import { AppRoutes } from './routes';
import { ModalHost } from './modal-host';

function Toasts() {
  const t = useT();
  const toasts = useToastsActor();
  const list = useSelector(toasts, (s) => s.context.toasts);
  const items: ToastItem[] = list.map((toast) => ({
    id: String(toast.id),
    type: toast.type,
    text: toast.message ? t(toast.message) : toast.messageKey ? t(toast.messageKey, toast.params) : '',
  }));
  return <ToastViewport toasts={items} onDismiss={(id) => toasts.send({ type: 'toast.dismissed', id: Number(id) })} />;
}

export function App() {
  const language = useLocaleLanguage();
  return (
    <I18nProvider language={language}>
      <AppRoutes />
      <ModalHost />
      <Toasts />
    </I18nProvider>
  );
}
