/**
 * The confirmation before closing an order early, fed by the orderClose flow actor: the order,
 * the server's quote ("You receive ...") with the result against the stake (+/-, coloured, issue
 * 26), refreshed every few seconds, and Confirm. It waits
 * visibly for a quote, keeps the dialog open with the server's reason when a close is refused,
 * and closes itself (ending the flow) once this flow closed the order. An order found already
 * closed (it expired while the dialog was open, or was closed elsewhere) shows its result and
 * payout, and nothing else, until the trader dismisses the dialog. Focus opens on Cancel, never
 * on the button that closes the order. Built on Modal rather than ConfirmDialog because Confirm
 * must stay disabled until there is a quote to confirm.
 */
import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { isClosedElsewhere, minimumAccepted, type OrderCloseMachine } from '../../../machines/order-close/order-close.machine';
import { Button, InfoChip, Modal, Money, Spinner } from '../../components';
import { useFormat, useT } from '../../i18n';
import { pairDisplayName } from '../../i18n/pair-name';
import { useAppActor } from '../../shared/runtime';
import { fromMinor, toMinor } from '../../../contract/money';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';

/** What the dialog shows: the quote's step while confirming, else the top-level state (closed split by who closed). */
type DialogStep = 'loadingQuote' | 'quoted' | 'unavailable' | 'quoteFailed' | 'closing' | 'closed' | 'alreadyClosed' | 'failed';

function dialogStep(snapshot: SnapshotFrom<OrderCloseMachine>): DialogStep {
  const value = snapshot.value;
  if (typeof value === 'object') return value.confirming;
  if (value === 'closed' && isClosedElsewhere(snapshot.context)) return 'alreadyClosed';
  return value;
}

/** The quote minus the stake, exact to the minor unit (both are decimals with at most 8 places). */
function againstStake(quote: number, stake: number): number {
  const q = toMinor(quote, 8);
  const s = toMinor(stake, 8);
  return q === null || s === null ? quote - stake : fromMinor(q - s, 8);
}

export function OrderCloseDialog({ actor }: { actor: ActorRefFrom<OrderCloseMachine> }) {
  const t = useT();
  const format = useFormat();
  const app = useAppActor();
  const state = useSelector(actor, dialogStep);
  const order = useSelector(actor, (s) => s.context.order);
  const quote = useSelector(actor, (s) => s.context.quote);
  const quoteError = useSelector(actor, (s) => s.context.quoteError);
  const closeError = useSelector(actor, (s) => s.context.closeError);
  const end = () => app.send({ type: 'flow.orderCloseEnded' });
  const cancelRef = useRef<HTMLButtonElement>(null);

  // Closed by this flow: the toast tells the result, the dialog goes.
  useEffect(() => {
    if (state === 'closed') app.send({ type: 'flow.orderCloseEnded' });
  }, [state, app]);

  const closing = state === 'closing';
  const waiting = state === 'loadingQuote' && quote === null;
  const canConfirm = quote !== null && (state === 'quoted' || state === 'failed' || state === 'loadingQuote');

  let quoteView;
  if (state === 'alreadyClosed') {
    quoteView = order ? (
      <div role="status" className="close-result">
        <p className="close-result-lead">{t('orders.already_closed')}</p>
        <dl className="close-result-fields">
          <div>
            <dt>{t('orders.fields.status')}</dt>
            <dd className={`order-result order-result-${order.result ?? 'open'}`}>{order.result ? t(`orders.result.${order.result}`) : t('orders.status_open')}</dd>
          </div>
          <div>
            <dt>{t('orders.fields.payout')}</dt>
            <dd>
              <Money amount={order.payout ?? 0} currency={order.currency} />
            </dd>
          </div>
          <div>
            <dt>{t('orders.fields.profit_loss')}</dt>
            <dd>
              <Money amount={order.profit_loss ?? 0} currency={order.currency} signed tone="auto" />
            </dd>
          </div>
        </dl>
      </div>
    ) : (
      <InfoChip kind="info">{t('orders.already_closed')}</InfoChip>
    );
  } else if (state === 'quoteFailed') {
    quoteView = (
      <div className="stack stack-sm">
        <InfoChip kind="error" live>
          {quoteError?.message ?? t(quoteError?.key ?? 'orders.failed_to_load_details')}
        </InfoChip>
        <Button variant="secondary" size="sm" icon="refresh" onClick={() => actor.send({ type: 'orderClose.retryRequested' })}>
          {t('common.retry')}
        </Button>
      </div>
    );
  } else if (state === 'unavailable') {
    quoteView = (
      <p className="close-quote-waiting" role="status">
        <Spinner decorative size={16} /> {t('orders.quote_unavailable')}
      </p>
    );
  } else if (waiting) {
    quoteView = (
      <p className="close-quote-waiting" role="status">
        <Spinner decorative size={16} /> {t('orders.quote_loading')}
      </p>
    );
  } else if (quote) {
    quoteView = (
      <div className="close-quote" aria-live="polite">
        <span className="close-quote-label">{t('orders.close_quote')}</span>
        <Money amount={quote.amount} currency={quote.currency} className="close-quote-amount" />
        {order ? (
          <span className="close-quote-difference">
            <span>{t('orders.close_vs_stake', { amount: format.money(order.amount, order.currency) })}</span>{' '}
            <Money amount={againstStake(quote.amount, order.amount)} currency={quote.currency} signed tone="auto" className="close-quote-difference-amount" />
          </span>
        ) : null}
        <span className="close-quote-minimum">{t('orders.close_minimum', { amount: format.money(minimumAccepted(quote), quote.currency) })}</span>
        <span className="close-quote-note">{t('orders.close_quote_note')}</span>
      </div>
    );
  }

  const description = order
    ? t(state === 'alreadyClosed' ? 'orders.close_message_closed' : 'orders.close_message', {
        pair: pairDisplayName(t, order),
        direction: order.direction === 'up' ? t('trading.up') : t('trading.down'),
        amount: format.money(order.amount, order.currency),
      })
    : undefined;

  return (
    <Modal
      open
      onOpenChange={(open) => (open ? undefined : end())}
      title={state === 'alreadyClosed' ? t('orders.already_closed_title') : t('orders.close_title')}
      description={description}
      size="sm"
      dismissible={!closing}
      initialFocus={cancelRef}
      footer={
        <>
          <Button ref={cancelRef} variant="secondary" onClick={end} disabled={closing}>
            {state === 'alreadyClosed' ? t('common.close') : t('common.cancel')}
          </Button>
          {state !== 'alreadyClosed' ? (
            <Button
              variant="primary"
              loading={closing}
              loadingLabel={t('orders.closing')}
              disabled={!canConfirm}
              onClick={() => actor.send({ type: 'orderClose.confirmed' })}
            >
              {quote ? t('orders.close_confirm', { amount: format.money(quote.amount, quote.currency) }) : t('orders.close')}
            </Button>
          ) : null}
        </>
      }
    >
      <div className="stack stack-sm">
        {quoteView}
        {closeError && state !== 'alreadyClosed' ? (
          <InfoChip kind="error" live>
            {closeError.message ?? t(closeError.key)}
          </InfoChip>
        ) : null}
      </div>
    </Modal>
  );
}
