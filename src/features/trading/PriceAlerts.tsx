/**
 * Price alerts on the chart (issue 16 item 7): the bell in the chart toolbar (with the number of
 * alerts waiting on this pair) opens a dialog to set one — above or below, the price prefilled
 * with the current one — and lists the trader's alerts (waiting first, then fired) with a
 * delete button each. Everything lives in the priceAlerts actor; the server fires them and the
 * price_alert push shows a toast on every open session.
 */
import { useEffect, useId, useState } from 'react';
import { useSelector } from '@xstate/react';
import type { AlertDirection, PriceAlert } from '../../../contract/alerts';
import { unfiredAlerts } from '../../../machines/price-alerts/price-alerts.machine';
import { Button, EmptyState, IconButton, InfoChip, Modal, SegmentedControl, TextField } from '../../components';
import { useFormat, useT } from '../../i18n';
import { pairDisplayName } from '../../i18n/pair-name';
import { useChild } from '../../shared/runtime';
import { usePairsActor } from './hooks';
import './price-alerts.css';

export function usePriceAlertsActor() {
  const ref = useChild('priceAlerts');
  if (!ref) throw new Error('priceAlerts actor missing');
  return ref;
}

/** "1,16250" typed in a language with a decimal comma is the same price. */
export function normalisePrice(text: string): string {
  return text.trim().replace(/\s/g, '').replace(',', '.');
}

export function PriceAlertButton({ pairCode }: { pairCode: string | null }) {
  const t = useT();
  const alerts = usePriceAlertsActor();
  const [open, setOpen] = useState(false);
  const waiting = useSelector(alerts, (s) => unfiredAlerts(s.context.alerts).filter((a) => a.pair_code === pairCode).length);
  return (
    <>
      <span className="price-alert-button">
        <IconButton
          className="chart-tool chart-tool-icon"
          size="sm"
          icon="bell"
          label={waiting > 0 ? t('alerts.button_with_count', { count: waiting }) : t('alerts.button')}
          disabled={!pairCode}
          onClick={() => setOpen(true)}
        />
        {waiting > 0 ? (
          <span className="price-alert-count tabular" aria-hidden="true">
            {waiting}
          </span>
        ) : null}
      </span>
      {open && pairCode ? <PriceAlertDialog pairCode={pairCode} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function AlertRow({ alert, onDelete, busy }: { alert: PriceAlert; onDelete: () => void; busy: boolean }) {
  const t = useT();
  const format = useFormat();
  const level = format.price(alert.price, alert.precision);
  const what = t(alert.direction === 'above' ? 'alerts.row_above' : 'alerts.row_below', { pair: pairDisplayName(t, alert), price: level });
  return (
    <li className="price-alert-row" data-fired={alert.fired_at_ms !== null || undefined}>
      <div className="price-alert-what">
        <span className="price-alert-direction" data-direction={alert.direction} aria-hidden="true">
          {alert.direction === 'above' ? '▲' : '▼'}
        </span>
        <span>{what}</span>
      </div>
      <div className="price-alert-status">
        {alert.fired_at_ms === null ? (
          <InfoChip kind="info" compact>
            {t('alerts.waiting')}
          </InfoChip>
        ) : (
          <span className="text-xs text-muted">
            {t('alerts.fired_at', { time: format.dateTime(alert.fired_at_ms, { format: 'DD.MM HH:mm' }), price: format.price(alert.fired_price ?? alert.price, alert.precision) })}
          </span>
        )}
        <IconButton icon="trash" size="sm" label={t('alerts.delete', { what })} disabled={busy} onClick={onDelete} />
      </div>
    </li>
  );
}

export function PriceAlertDialog({ pairCode, onClose }: { pairCode: string; onClose: () => void }) {
  const t = useT();
  const format = useFormat();
  const alerts = usePriceAlertsActor();
  const pairs = usePairsActor();
  const formId = useId();
  const pair = useSelector(pairs, (s) => s.context.pairs.find((p) => p.pair_code === pairCode) ?? null);
  const current = useSelector(pairs, (s) => s.context.rates[pairCode]);
  const list = useSelector(alerts, (s) => s.context.alerts);
  const creating = useSelector(alerts, (s) => s.matches({ loggedIn: { ready: 'creating' } }));
  const deleting = useSelector(alerts, (s) => s.matches({ loggedIn: { ready: 'deleting' } }));
  const loading = useSelector(alerts, (s) => s.matches({ loggedIn: 'loading' }));
  const failed = useSelector(alerts, (s) => s.matches({ loggedIn: 'failed' }));
  const formError = useSelector(alerts, (s) => s.context.formError);
  const maxPending = useSelector(alerts, (s) => s.context.maxPending);
  const precision = pair?.precision ?? 5;
  const [direction, setDirection] = useState<AlertDirection>('above');
  // Prefilled with the price on screen when the dialog opens (digits with a dot: the server's form).
  const [price, setPrice] = useState(() => (current !== undefined ? current.toFixed(precision) : ''));

  useEffect(() => {
    alerts.send({ type: 'alerts.formReset' });
  }, [alerts]);

  const submit = () => alerts.send({ type: 'alerts.createRequested', request: { pairCode, direction, price: normalisePrice(price) } });
  const waiting = unfiredAlerts(list).length;
  const ordered = [...list.filter((a) => a.pair_code === pairCode), ...list.filter((a) => a.pair_code !== pairCode)];

  return (
    <Modal
      open
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={t('alerts.title', { pair: pair ? pairDisplayName(t, pair) : pairCode })}
      description={t('alerts.hint')}
      size="md"
      className="price-alert-dialog"
    >
      <form
        id={formId}
        className="price-alert-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <SegmentedControl<AlertDirection>
          label={t('alerts.direction')}
          showLabel
          fill
          value={direction}
          onChange={setDirection}
          options={[
            { value: 'above', label: t('alerts.above'), icon: 'up' },
            { value: 'below', label: t('alerts.below'), icon: 'down' },
          ]}
        />
        <TextField
          label={t('alerts.price')}
          inputClassName="tabular"
          inputMode="decimal"
          autoComplete="off"
          maxLength={24}
          value={price}
          hint={current !== undefined ? t('alerts.current_price', { price: format.price(current, precision) }) : undefined}
          error={formError ? t(formError) : undefined}
          onChange={(e) => setPrice(e.currentTarget.value)}
        />
        <Button type="submit" variant="primary" icon="bell" loading={creating} loadingLabel={t('alerts.creating')} disabled={price.trim() === ''}>
          {t('alerts.create')}
        </Button>
      </form>

      <section className="price-alert-list" aria-labelledby={`${formId}-list`}>
        <h3 id={`${formId}-list`} className="price-alert-list-title">
          {t('alerts.list_title')} <span className="text-muted text-sm tabular">{t('alerts.waiting_count', { count: waiting, max: maxPending })}</span>
        </h3>
        {failed ? (
          <EmptyState icon="warning" title={t('alerts.load_failed')} compact action={<Button size="sm" variant="secondary" onClick={() => alerts.send({ type: 'alerts.retryRequested' })}>{t('common.retry')}</Button>} />
        ) : loading ? (
          <p className="text-sm text-muted">{t('alerts.loading')}</p>
        ) : ordered.length === 0 ? (
          <p className="text-sm text-muted">{t('alerts.empty')}</p>
        ) : (
          <ul className="price-alert-rows">
            {ordered.map((a) => (
              <AlertRow key={a.alert_id} alert={a} busy={deleting} onDelete={() => alerts.send({ type: 'alerts.deleteRequested', alertId: a.alert_id })} />
            ))}
          </ul>
        )}
      </section>
    </Modal>
  );
}
