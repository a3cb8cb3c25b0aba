/**
 * The orders panel (spec section 2): Active / All tabs (Active counts the open orders), the
 * account filter All accounts / Real / Demo, expandable order cards with countdowns, pagination
 * (hidden with one page), a skeleton on the first load, the previous rows dimmed while the same
 * view refreshes, the server's message or "Failed to load orders" with Retry, and an empty state
 * that says what to do next (a first trade, or, once the trader has traded, where the settled
 * orders are). The tabs and the filter stay in place; only the list under them scrolls.
 */
import { useState } from 'react';
import { useSelector } from '@xstate/react';
import { usdRateFromPrices } from '../../../contract/currencies';
import { listKey, totalPages, type AccountFilter, type OrdersTab } from '../../../machines/orders/orders.machine';
import { Button, EmptyState, Pagination, SegmentedControl, SkeletonList, Tabs } from '../../components';
import { useT } from '../../i18n';
import { useAppActor } from '../../shared/runtime';
import { useConnectionState, useNow } from '../../shared/hooks';
import { OrderCard } from './OrderCard';
import { useOrderPlacementActor, useOrdersActor, usePairsActor } from './hooks';

export function OrdersPanel({ headingId }: { headingId?: string }) {
  const t = useT();
  const app = useAppActor();
  const orders = useOrdersActor();
  const pairs = usePairsActor();
  const tab = useSelector(orders, (s) => s.context.tab);
  const account = useSelector(orders, (s) => s.context.account);
  const page = useSelector(orders, (s) => s.context.page);
  const list = useSelector(orders, (s) => s.context.orders);
  const total = useSelector(orders, (s) => s.context.total);
  const error = useSelector(orders, (s) => s.context.error);
  const openCount = useSelector(orders, (s) => s.context.open.length);
  const showingCurrent = useSelector(orders, (s) => s.context.loadedFor === listKey(s.context));
  const status = useSelector(orders, (s) => (s.matches({ signedIn: { list: 'failed' } }) ? 'failed' : s.matches({ signedIn: { list: 'loaded' } }) ? 'loaded' : 'loading'));
  const rates = useSelector(pairs, (s) => s.context.rates);
  const pairList = useSelector(pairs, (s) => s.context.pairs);
  // Whether the trader has traded here: an order placed, settled or closed in this session.
  const placement = useOrderPlacementActor();
  const placedHere = useSelector(placement, (s) => s.context.lastOrder !== null);
  const settledHere = useSelector(orders, (s) => s.context.announced.length > 0 || s.context.closedHere.length > 0);
  const hasTraded = placedHere || settledHere;
  const stale = useConnectionState() !== 'live';
  const [expanded, setExpanded] = useState<number | null>(null);
  const hasOpenRows = list.some((o) => o.status === 'open');
  const now = useNow({ active: hasOpenRows });

  const closeOrder = (orderId: number) => app.send({ type: 'flow.orderCloseStarted', orderId });

  let body;
  if (status === 'failed') {
    body = (
      <EmptyState
        icon="error"
        title={error ?? t('orders.failed_to_load')}
        compact
        action={
          <Button variant="secondary" icon="refresh" onClick={() => orders.send({ type: 'orders.retryRequested' })}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  } else if (!showingCurrent) {
    body = <SkeletonList rows={3} rowHeight={56} label={t('orders.loading')} />;
  } else if (list.length === 0) {
    body =
      tab === 'active' ? (
        hasTraded ? (
          <EmptyState
            icon="chart"
            title={t('orders.empty_active_title')}
            hint={t('orders.empty_active_hint_after')}
            compact
            action={
              <Button variant="secondary" size="sm" icon="history" onClick={() => orders.send({ type: 'orders.tabChosen', tab: 'all' })}>
                {t('orders.show_all')}
              </Button>
            }
          />
        ) : (
          <EmptyState icon="chart" title={t('orders.empty_active_title')} hint={t('orders.empty_active_hint')} compact />
        )
      ) : (
        <EmptyState icon="orders" title={t('orders.empty_all_title')} hint={t('orders.empty_all_hint')} compact />
      );
  } else {
    body = (
      <ul className="order-list" aria-busy={status === 'loading' || undefined} data-refreshing={status === 'loading' || undefined}>
        {list.map((order) => (
          <OrderCard
            key={order.order_id}
            order={order}
            price={rates[order.pair_code]}
            perUsd={usdRateFromPrices(pairList, rates, order.currency)?.per_usd}
            now={now}
            stale={stale}
            expanded={expanded === order.order_id}
            onToggle={() => setExpanded((current) => (current === order.order_id ? null : order.order_id))}
            onClose={closeOrder}
          />
        ))}
      </ul>
    );
  }

  return (
    <div className="orders-panel">
      {headingId ? (
        <h2 id={headingId} className="orders-title">
          {t('orders.title')}
        </h2>
      ) : null}
      <Tabs
        label={t('orders.tabs_label')}
        value={tab}
        fill
        onValueChange={(value) => orders.send({ type: 'orders.tabChosen', tab: value as OrdersTab })}
        items={[
          { value: 'active', label: t('orders.tab_active'), badge: openCount > 0 ? openCount : undefined },
          { value: 'all', label: t('orders.tab_all') },
        ]}
        className="orders-tabs"
      >
        <div className="orders-body">
          <SegmentedControl<AccountFilter>
            className="orders-filter"
            label={t('orders.account_filter')}
            size="sm"
            fill
            options={[
              { value: 'all', label: t('orders.account_all_accounts') },
              { value: 'real', label: t('orders.account_real') },
              { value: 'demo', label: t('orders.account_demo') },
            ]}
            value={account}
            onChange={(value) => orders.send({ type: 'orders.accountChosen', account: value })}
          />
          <div className="orders-scroll">
            {body}
            <Pagination
              className="orders-pagination"
              page={page}
              totalPages={totalPages(total)}
              disabled={status === 'loading'}
              onChange={(next) => orders.send({ type: 'orders.pageChosen', page: next })}
            />
          </div>
        </div>
      </Tabs>
    </div>
  );
}
