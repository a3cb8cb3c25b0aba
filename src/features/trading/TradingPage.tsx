/**
 * The trading screen. Desktop: the chart fills the centre, a right panel holds the bet and,
 * under it, the orders. Tablet: the bet and the orders go under the chart. Mobile (<= 768 px):
 * the chart on top (at least 45 % of the height), the compact bet and Up / Down under it, the
 * orders in a bottom sheet. /trading?orders=active|all (the sidebar's Orders links) opens the
 * orders on that tab. The close confirmation shows while the orderClose flow runs.
 */
import { useEffect, useRef, useState } from 'react';
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
      <div className="trading-side">
        <BetPanel compact={mobile} />
        {mobile ? (
          <Button variant="secondary" icon="orders" fullWidth className="trading-orders-button" onClick={() => setSheetOpen(true)}>
            {openCount > 0 ? t('orders.button_with_count', { count: openCount }) : t('orders.title')}
          </Button>
        ) : (
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
