/**
 * The confirmation before a demo balance reset (UI.md: money-moving actions confirm first).
 * Opened through the modal stack (MODAL_IDS.demoReset, data {currency}) so it outlives the
 * balance dropdown or side menu it was opened from. Confirm sends balance.demoResetRequested;
 * the dialog stays busy while the balance actor is in resettingDemo and closes when it is done
 * (the actor toasts the outcome, success or failure).
 */
import { useEffect, useRef } from 'react';
import { DEMO_BALANCE_UNITS } from '../../../contract/currencies';
import { ConfirmDialog } from '../../components';
import { useFormat, useT } from '../../i18n';
import { useBalanceView } from '../../shared/hooks';
import { useBalanceActor } from '../../shared/runtime';
import type { ModalComponentProps } from '../../shared/modals';

export function demoResetCurrency(data: unknown, fallback: string): string {
  const currency = typeof data === 'object' && data !== null ? Reflect.get(data, 'currency') : undefined;
  return typeof currency === 'string' && currency ? currency : fallback;
}

export function DemoResetDialog({ data, onClose }: ModalComponentProps) {
  const t = useT();
  const format = useFormat();
  const balance = useBalanceActor();
  const { currency: selected, resetting } = useBalanceView();
  const currency = demoResetCurrency(data, selected);
  const sent = useRef(false);

  // Closes once the reset this dialog asked for has finished.
  useEffect(() => {
    if (sent.current && !resetting) onClose();
  }, [resetting, onClose]);

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t('nav.reset_demo_title')}
      message={t('nav.reset_demo_message', { amount: format.money(DEMO_BALANCE_UNITS, currency) })}
      confirmLabel={t('nav.reset_short')}
      loadingLabel={t('nav.resetting')}
      loading={resetting}
      onConfirm={() => {
        sent.current = true;
        balance.send({ type: 'balance.demoResetRequested', currency });
      }}
    />
  );
}
