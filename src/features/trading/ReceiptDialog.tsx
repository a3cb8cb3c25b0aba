/**
 * The order card's "Receipt" button and dialog (docs/trading.md, "Receipts"): the order's
 * terms, its entry and exit ticks (seq, time to the millisecond in the device's zone with its UTC
 * offset, like every other time on screen; issue 26), price), the exit rule in
 * words, the result, and the tick-log hashes that seal both ticks, so a trader can check a
 * settlement without trusting the screen. Driven by the receipt machine (one per shown card,
 * with the real fetch from src/services/receipt-actors.ts); this view only sends events.
 */
import { useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { Order, ReceiptTick } from '../../../contract/orders';
import { Button, InfoChip, Modal, Money, PriceText, Spinner } from '../../components';
import { useFormat, useT } from '../../i18n';
import { pairDisplayName } from '../../i18n/pair-name';
import { useRuntime } from '../../shared/runtime';
import { receiptLogic } from '../../services/receipt-actors';
import './market-facts.css';

/** A receipt time: the device's zone, to the millisecond, with the offset so it can be matched to UTC logs. */
const RECEIPT_TIME_FORMAT = 'DD.MM.YYYY HH:mm:ss.SSS [UTC]Z';
function TickTime({ ms }: { ms: number }) {
  const format = useFormat();
  return (
    <time className="tabular" dateTime={new Date(ms).toISOString()}>
      {format.dateTime(ms, { format: RECEIPT_TIME_FORMAT })}
    </time>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="receipt-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function TickBlock({ title, tick, precision }: { title: string; tick: ReceiptTick | null; precision: number }) {
  const t = useT();
  return (
    <section className="receipt-tick" aria-label={title}>
      <h3 className="receipt-subtitle">{title}</h3>
      {tick ? (
        <dl className="receipt-fields">
          <Row label={t('orders.receipt.seq')}>
            <span className="tabular">#{tick.seq}</span>
          </Row>
          <Row label={t('orders.receipt.time')}>
            <TickTime ms={tick.time} />
          </Row>
          <Row label={t('orders.receipt.price')}>
            <PriceText value={tick.price} precision={precision} />
          </Row>
          <Row label={t('orders.receipt.batch')}>
            {tick.batch ? <span className="tabular">#{tick.batch.batch_id}</span> : t('orders.receipt.not_sealed')}
          </Row>
          {tick.batch ? (
            <>
              <Row label={t('orders.receipt.batch_hash')}>
                <code className="receipt-hash">{tick.batch.hash}</code>
              </Row>
              <Row label={t('orders.receipt.prev_hash')}>
                <code className="receipt-hash">{tick.batch.prev_hash}</code>
              </Row>
            </>
          ) : null}
        </dl>
      ) : (
        <p className="receipt-none">{t('orders.receipt.no_exit_tick')}</p>
      )}
    </section>
  );
}

export function ReceiptButton({ order }: { order: Order }) {
  const t = useT();
  const format = useFormat();
  const { services } = useRuntime();
  const logic = useMemo(() => receiptLogic(services.http), [services.http]);
  const actor = useActorRef(logic, { input: { orderId: order.order_id } });
  const state = useSelector(actor, (s) => s.value);
  const receipt = useSelector(actor, (s) => s.context.receipt);
  const precision = order.price_precision;

  return (
    <>
      <Button variant="secondary" size="sm" icon="file" onClick={() => actor.send({ type: 'receipt.opened' })}>
        {t('orders.receipt.open')}
      </Button>
      <Modal
        open={state !== 'closed'}
        onOpenChange={(open) => (open ? undefined : actor.send({ type: 'receipt.closed' }))}
        title={t('orders.receipt.title', { id: order.order_id })}
        description={t('orders.receipt.description')}
        size="md"
        className="receipt-dialog"
        footer={
          <Button variant="secondary" onClick={() => actor.send({ type: 'receipt.closed' })}>
            {t('orders.receipt.close')}
          </Button>
        }
      >
        {state === 'loading' ? <Spinner label={t('orders.receipt.loading')} /> : null}
        {state === 'failed' ? (
          <div className="stack stack-sm">
            <InfoChip kind="error" live>
              {t('orders.receipt.failed')}
            </InfoChip>
            <Button variant="secondary" onClick={() => actor.send({ type: 'receipt.retried' })}>
              {t('orders.receipt.retry')}
            </Button>
          </div>
        ) : null}
        {state === 'shown' && receipt ? (
          // Focusable, so the receipt scrolls from the keyboard when it is taller than the dialog.
          <div className="receipt stack stack-sm" tabIndex={0} role="group" aria-label={t('orders.receipt.title', { id: order.order_id })}>
            <dl className="receipt-fields">
              <Row label={t('orders.receipt.pair')}>
                {pairDisplayName(t, receipt)}
                {receipt.simulated ? <span className="simulated-chip">{t('trading.simulated')}</span> : null}
              </Row>
              <Row label={t('orders.fields.direction')}>{receipt.direction === 'up' ? t('trading.up') : t('trading.down')}</Row>
              <Row label={t('orders.fields.amount')}>
                <Money amount={receipt.stake} currency={receipt.currency} />
              </Row>
              <Row label={t('orders.fields.payout_rate')}>
                <span className="tabular">{format.percent(receipt.payout_rate)}</span>
              </Row>
              <Row label={t('orders.receipt.expires')}>
                <TickTime ms={receipt.expires_at} />
              </Row>
              <Row label={t('orders.fields.status')}>{receipt.result ? t(`orders.result.${receipt.result}`) : t('orders.status_open')}</Row>
              {receipt.payout !== null ? (
                <Row label={t('orders.fields.payout')}>
                  <Money amount={receipt.payout} currency={receipt.currency} />
                </Row>
              ) : null}
              <Row label={t('orders.receipt.rule')}>{t(`orders.receipt.rules.${receipt.rule}`, { seconds: receipt.stale_limit_ms / 1000 })}</Row>
              <Row label={t('orders.receipt.source')}>{receipt.simulated ? t('orders.receipt.source_simulated') : t('orders.receipt.source_market')}</Row>
            </dl>
            <TickBlock title={t('orders.receipt.entry_tick')} tick={receipt.entry_tick} precision={precision} />
            <TickBlock title={t('orders.receipt.exit_tick')} tick={receipt.exit_tick} precision={precision} />
            {receipt.chain_head ? (
              <dl className="receipt-fields">
                <Row label={t('orders.receipt.chain_head')}>
                  <code className="receipt-hash">{receipt.chain_head}</code>
                </Row>
              </dl>
            ) : null}
            <p className="receipt-hint">{t('orders.receipt.how_to_verify')}</p>
          </div>
        ) : null}
      </Modal>
    </>
  );
}
