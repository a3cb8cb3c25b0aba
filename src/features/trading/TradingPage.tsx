/**
 * The trading screen. Desktop: the chart fills the centre, a right panel holds the bet and,
 * under it, the orders. Tablet: the bet and the orders go under the chart. Phones (<= 768 px,
 * issue 26): the trade bar (amount, time, Up, Down and the Orders button with the count of open
 * orders) is fixed at the bottom, above the browser's own bars and the safe area, so a trade
 * never needs a scroll; the chart fills what is left (its candles at least 45 % of the height);
 * the orders open in a bottom sheet. The bar's height is published as --trade-bar-h on the root
 * so the page and the toasts (Toasts.css) keep clear of it. /trading?orders=active|all (the
 * sidebar's Orders links) opens the orders on that tab. The close confirmation shows while the
 * orderClose flow runs.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useSelector } from '@xstate/react';
import { useLocation, useSearch } from 'wouter';
import { BottomSheet, Button, PHONE_QUERY, useMediaQuery } from '../../components';
import { useT } from '../../i18n';
import type { OrdersTab } from '../../../machines/orders/orders.machine';
import { BetPanel } from './BetPanel';
import { ChartPanel } from './ChartPanel';
import { OrderCloseDialog } from './OrderCloseDialog';
import { OrdersPanel } from './OrdersPanel';
import { useOrderCloseActor, useOrdersActor, usePairsActor } from './hooks';
import { ShortcutsDialog, useKeyboardTrading, useShortcuts } from './keyboard';
import { useModalControls } from '../../shared/hooks';
import { MODAL_IDS } from '../../shared/modals';
import './trading.css';

function ordersTabFrom(search: string): OrdersTab | null {
  const value = new URLSearchParams(search).get('orders');
  return value === 'active' || value === 'all' ? value : null;
}

export function TradingPage() {
  const t = useT();
  const mobile = useMediaQuery(PHONE_QUERY);
  const search = useSearch();
  const [, navigate] = useLocation();
  const orders = useOrdersActor();
  const closeFlow = useOrderCloseActor();
  const openCount = useSelector(orders, (s) => s.context.open.length);
  const [sheetOpen, setSheetOpen] = useState(false);
  const ordersSection = useRef<HTMLElement>(null);
  const tradeBar = useRef<HTMLDivElement>(null);
  const requestedTab = ordersTabFrom(search);
  const pairs = usePairsActor();
  const modals = useModalControls();

  // Keyboard trading (issue 16): the bet keys are the bet panel's; the pair keys are here.
  useKeyboardTrading();
  useShortcuts((action) => {
    if (action === 'nextPair' || action === 'previousPair') pairs.send({ type: 'pairs.pairStepped', step: action === 'nextPair' ? 1 : -1 });
    else if (action === 'pairSelector') modals.open(MODAL_IDS.pairSelector);
  });

  // The sidebar's Orders links: show that tab, in the sheet on a phone.
  useEffect(() => {
    if (!requestedTab) return;
    orders.send({ type: 'orders.tabChosen', tab: requestedTab });
    if (mobile) setSheetOpen(true);
    else {
      ordersSection.current?.scrollIntoView({ block: 'nearest' });
      ordersSection.current?.querySelector<HTMLElement>('[role="tab"][data-state="active"]')?.focus({ preventScroll: true });
    }
  }, [requestedTab, mobile, orders]);

  // The phone's trade bar: its height, for the chart above it and the toasts.
  useLayoutEffect(() => {
    const bar = tradeBar.current;
    const root = document.documentElement;
    if (!mobile || !bar) return;
    const publish = () => root.style.setProperty('--trade-bar-h', `${Math.ceil(bar.getBoundingClientRect().height)}px`);
    publish();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(publish);
    observer?.observe(bar);
    return () => {
      observer?.disconnect();
      root.style.removeProperty('--trade-bar-h');
    };
  }, [mobile]);

  const ordersLabel = openCount > 0 ? t('orders.button_with_count', { count: openCount }) : t('orders.title');

  const closeSheet = (open: boolean) => {
    setSheetOpen(open);
    // Leaving the sheet leaves the Orders address, so the same link opens it again.
    if (!open && requestedTab) navigate('/trading', { replace: true });
  };

  return (
    <div className="trading" data-layout={mobile ? 'mobile' : undefined}>
      <h1 className="visually-hidden">{t('trading.title')}</h1>
      <div className="trading-chart">
        <ChartPanel />
      </div>
      <div className="trading-side" ref={tradeBar} data-trade-bar={mobile || undefined}>
        {mobile ? (
          <BetPanel
            compact
            ordersButton={
              <Button variant="secondary" size="lg" icon="orders" className="trading-orders-button" aria-label={ordersLabel} aria-haspopup="dialog" onClick={() => setSheetOpen(true)}>
                {openCount > 0 ? (
                  <span className="orders-count-badge tabular" aria-hidden="true" data-testid="orders-count-badge">
                    {openCount}
                  </span>
                ) : null}
              </Button>
            }
          />
        ) : (
          <BetPanel />
        )}
        {mobile ? null : (
          <section className="trading-orders" aria-labelledby="orders-panel-title" ref={ordersSection}>
            <OrdersPanel headingId="orders-panel-title" />
          </section>
        )}
      </div>
      {mobile ? (
        <BottomSheet open={sheetOpen} onOpenChange={closeSheet} title={t('orders.title')} className="orders-sheet">
          <OrdersPanel />
        </BottomSheet>
      ) : null}
      {closeFlow ? <OrderCloseDialog actor={closeFlow} /> : null}
      <ShortcutsDialog />
    </div>
  );
}
