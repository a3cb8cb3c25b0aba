/**
 * One order in the orders panel: a summary (direction, pair, account, stake, and either a
 * countdown with a progress bar, or the result and profit/loss) whose second line gives what
 * counts at a glance: for an open order the result if it ended now (order-outcome.ts: +stake x
 * payout in the money, -stake out of it, 0 at the open price), for a closed one when it closed.
 * It expands to every field of the spec's Order, among them the spec's live estimate (the
 * stake's value change with the price, "Position value change"), with a Close button while it
 * is open. Gains are green with an up arrow and "+", losses red with a down arrow and "-", zero
 * grey: never colour alone.
 */
import { useId } from 'react';
import type { Order } from '../../../contract/orders';
import { liveEstimate } from '../../../machines/orders/orders.machine';
import { DateTime, Icon, IconButton, Money, PriceText } from '../../components';
import { useFormat, useT } from '../../i18n';
import { pairDisplayName } from '../../i18n/pair-name';
import { outcomeIfEndedNow } from './order-outcome';
import { ReceiptButton } from './ReceiptDialog';

export interface OrderCardProps {
  order: Order;
  /** The latest price of the order's pair, if the feed has one. */
  price: number | undefined;
  /**
   * Units of the order's currency per 1 USD at the platform's live prices (the pair with USD in
   * the feed, else the configured rate: contract/currencies.ts usdRateFromPrices).
   */
  perUsd: number | undefined;
  now: number;
  expanded: boolean;
  onToggle: () => void;
  onClose: (orderId: number) => void;
  stale: boolean;
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="order-field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function OrderCard({ order, price, perUsd, now, expanded, onToggle, onClose, stale }: OrderCardProps) {
  const t = useT();
  const pairName = pairDisplayName(t, order);
  const format = useFormat();
  const detailsId = useId();
  const isOpen = order.status === 'open';
  const currentPrice = isOpen ? (price ?? order.current_price) : order.close_price;
  const estimate = isOpen && currentPrice !== null && perUsd !== undefined ? liveEstimate(order, currentPrice, perUsd) : null;
  const outcome = isOpen ? outcomeIfEndedNow(order, currentPrice) : null;
  const closedAt = order.close_time ?? order.expires_at;
  const remaining = Math.max(0, order.expires_at_ms - now);
  const span = Math.max(1, order.expires_at_ms - order.created_at_ms);
  const elapsed = Math.min(100, Math.max(0, Math.round(((now - order.created_at_ms) / span) * 100)));
  const settling = isOpen && remaining === 0;
  const direction = order.direction === 'up' ? t('trading.up') : t('trading.down');
  const account = order.trading_account === 'DemoAccount' ? t('orders.account_demo') : t('orders.account_real');
  const result = order.result ? t(`orders.result.${order.result}`) : t('orders.status_open');
  const stake = format.money(order.amount, order.currency);
  const summary = isOpen
    ? outcome
      ? t('orders.card_open_outcome', {
          pair: pairName,
          direction,
          amount: stake,
          time: format.countdown(remaining),
          outcome: format.money(outcome.amount, order.currency, { signed: true }),
        })
      : t('orders.card_open', { pair: pairName, direction, amount: stake, time: format.countdown(remaining) })
    : t('orders.card_closed', {
        pair: pairName,
        direction,
        amount: stake,
        result,
        profit: format.money(order.profit_loss ?? 0, order.currency, { signed: true }),
        time: format.dateTime(closedAt),
      });

  return (
    <li className="order-card" data-status={order.status} data-result={order.result ?? undefined} data-order-id={order.order_id}>
      <div className="order-row">
      <button type="button" className="order-summary" aria-expanded={expanded} aria-controls={detailsId} aria-label={summary} onClick={onToggle}>
        <span className={`order-direction order-direction-${order.direction}`} aria-hidden="true">
          <Icon name={order.direction} size={16} />
        </span>
        <span className="order-main">
          <span className="order-pair">{pairName}</span>
          <span className="order-meta">
            <span className={`order-account order-account-${order.trading_account === 'DemoAccount' ? 'demo' : 'real'}`}>{account}</span>
            <Money amount={order.amount} currency={order.currency} />
          </span>
        </span>
        <span className="order-side">
          {isOpen ? (
            <span className="order-countdown tabular">{settling ? t('orders.settling') : format.countdown(remaining)}</span>
          ) : (
            <>
              <span className={`order-result order-result-${order.result ?? 'open'}`}>{result}</span>
              {order.profit_loss !== null ? <Money amount={order.profit_loss} currency={order.currency} signed tone="auto" /> : null}
            </>
          )}
        </span>
        <Icon name="chevron" size={16} direction={expanded ? 'up' : 'down'} className="order-chevron" />
        {isOpen ? (
          <span className="order-foot" data-outcome={outcome?.kind}>
            <span className="order-foot-label">{t('orders.if_ends_now')}</span>
            {outcome ? <Money amount={outcome.amount} currency={order.currency} signed tone="auto" className="order-outcome" /> : <span className="order-outcome">—</span>}
          </span>
        ) : (
          <span className="order-foot">
            <span className="order-foot-label">{t('orders.fields.closed')}</span>
            <DateTime value={closedAt} className="order-closed-at" />
          </span>
        )}
      </button>
      {isOpen && !settling ? (
        <IconButton icon="close" size="sm" className="order-close" label={t('orders.close_order', { pair: pairName, id: order.order_id })} onClick={() => onClose(order.order_id)} />
      ) : null}
      </div>
      {isOpen ? (
        <div
          className="order-progress"
          role="progressbar"
          aria-label={t('orders.progress', { pair: pairName })}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={elapsed}
          aria-valuetext={settling ? t('orders.settling') : t('orders.time_left', { time: format.countdown(remaining) })}
        >
          <span className="order-progress-bar" style={{ width: `${elapsed}%` }} />
        </div>
      ) : null}
      <div id={detailsId} className="order-details" hidden={!expanded}>
        {expanded ? (
            <dl className="order-fields">
              <Field label={t('orders.fields.order_id')}>
                <span className="tabular">#{order.order_id}</span>
              </Field>
              <Field label={t('orders.fields.direction')}>
                <span className={order.direction === 'up' ? 'text-gain' : 'text-loss'}>
                  {order.direction === 'up' ? '↑' : '↓'} {direction}
                </span>
              </Field>
              <Field label={t('orders.fields.account')}>{account}</Field>
              <Field label={t('orders.fields.status')}>{result}</Field>
              <Field label={t('orders.fields.amount')}>
                <Money amount={order.amount_in_user_currency} currency={order.currency} />
              </Field>
              <Field label={t('orders.fields.currency_amount')}>
                <span className="tabular">{format.number(order.currency_amount, 6)}</span>
              </Field>
              <Field label={t('orders.fields.open_price')}>
                <PriceText value={order.open_price} precision={order.price_precision} />
              </Field>
              <Field label={isOpen ? t('orders.fields.current_price') : t('orders.fields.close_price')}>
                {currentPrice !== null ? <PriceText value={currentPrice} precision={order.price_precision} stale={isOpen && stale} /> : '—'}
              </Field>
              <Field label={t('orders.fields.created')}>
                <DateTime value={order.created_at_ms} withSeconds />
              </Field>
              <Field label={isOpen ? t('orders.fields.expires') : t('orders.fields.closed')}>
                <DateTime value={isOpen ? order.expires_at_ms : closedAt} withSeconds />
              </Field>
              <Field label={t('orders.fields.payout_rate')}>
                <span className="tabular">{format.percent(order.payout_rate)}</span>
              </Field>
              <Field label={t('orders.fields.potential_return')}>
                <Money amount={order.potential_return} currency={order.currency} />
              </Field>
              {isOpen ? (
                <>
                  <Field label={t('orders.if_ends_now')}>
                    {outcome ? <Money amount={outcome.amount} currency={order.currency} signed tone="auto" /> : '—'}
                  </Field>
                  <Field label={t('orders.fields.live_estimate')}>
                    {estimate !== null ? <Money amount={estimate} currency={order.currency} signed tone="auto" className="order-estimate" /> : '—'}
                  </Field>
                </>
              ) : (
                <>
                  <Field label={t('orders.fields.payout')}>
                    <Money amount={order.payout ?? 0} currency={order.currency} />
                  </Field>
                  <Field label={t('orders.fields.profit_loss')}>
                    <Money amount={order.profit_loss ?? 0} currency={order.currency} signed tone="auto" />
                  </Field>
                </>
              )}
            </dl>
        ) : null}
        {expanded ? (
          <div className="order-receipt-action">
            <ReceiptButton order={order} />
          </div>
        ) : null}
      </div>
    </li>
  );
}
