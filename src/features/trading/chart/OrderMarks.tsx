/**
 * The trader's orders and price alerts on the chart (issue 26 item 2). What is drawn comes from
 * the actors (select, never fetch): the open orders the panel gives (`ids`, the pair shown),
 * with their details from the orders actor; the settled ones (`settled`, kept by the orders
 * machine) and the waiting price alerts of the pair.
 *
 * The canvas part (entry lines, expiry lines, connectors, settled dots) is the chart layer
 * (order-marks-layer.ts); this component renders the labels as DOM over the canvas: an open
 * order's direction, stake, result if it closed now and time left; a settled order's result.
 * Their texts change at most four times a second (the price is read from a ref, not per tick);
 * their places are set by the layer before every redraw, written straight to the elements'
 * style in the next animation frame (no React render per scroll or tick).
 */
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { selectCurrentPair } from '../../../../machines/pairs/pairs.machine';
import { unfiredAlerts } from '../../../../machines/price-alerts/price-alerts.machine';
import { useFormat, useT } from '../../../i18n';
import { useNow } from '../../../shared/hooks';
import { useChild } from '../../../shared/runtime';
import { useOrdersActor, usePairsActor } from '../hooks';
import type { ChartLayers } from './chart-layers';
import { compactLabels, countdownText, exitPrice, exitTimeMs, liveResult, ordersOnChart, settledKind, settledOnChart } from './order-marks';
import type { MarksLayout } from './order-marks-layer';
import './order-marks.css';

/** How often the labels' texts (result, countdown) are refreshed. */
const LABEL_REFRESH_MS = 250;

export interface OrderMarksProps {
  layers: ChartLayers;
  /** The open orders to draw (the pair shown), by id. */
  ids: readonly number[];
  /** The latest price, read when the labels refresh. */
  price: { readonly current: number | null };
}

function OrderMarksView({ layers, ids, price }: OrderMarksProps) {
  const t = useT();
  const format = useFormat();
  const orders = useOrdersActor();
  const pairs = usePairsActor();
  const alertsActor = useChild('priceAlerts');
  const pairCode = useSelector(pairs, (s) => selectCurrentPair(s.context)?.pair_code ?? null);
  const open = useSelector(orders, (s) => s.context.open);
  const settledAll = useSelector(orders, (s) => s.context.settled);
  const alertList = useSelector(alertsActor, (s) => s?.context.alerts);

  const shown = useMemo(() => {
    const wanted = new Set(ids);
    return ordersOnChart(open, pairCode).filter((o) => wanted.has(o.order_id));
  }, [open, pairCode, ids]);
  const settled = useMemo(() => settledOnChart(settledAll, pairCode), [settledAll, pairCode]);
  const alerts = useMemo(() => (alertList ? unfiredAlerts(alertList).filter((a) => a.pair_code === pairCode) : []), [alertList, pairCode]);

  const alertAbove = t('trading.marks.alert_above');
  const alertBelow = t('trading.marks.alert_below');
  useEffect(() => {
    layers.setAlerts(alerts.map((a) => ({ id: a.alert_id, price: a.price, title: a.direction === 'above' ? alertAbove : alertBelow })));
  }, [layers, alerts, alertAbove, alertBelow]);

  useEffect(() => {
    layers.marks.set(
      shown.map((o) => ({ id: o.order_id, direction: o.direction, price: o.open_price, entryTime: o.entry_tick.time / 1000, expiryTime: o.expires_at_ms / 1000 })),
      settled.map((o) => ({ id: o.order_id, kind: settledKind(o), price: exitPrice(o)!, time: exitTimeMs(o)! / 1000 })),
    );
  }, [layers, shown, settled]);
  useEffect(() => () => layers.marks.set([], []), [layers]);

  // Places: the layer computes them before each redraw; the next frame writes them.
  const elements = useRef(new Map<string, HTMLElement>());
  const container = useRef<HTMLDivElement | null>(null);
  const pending = useRef<MarksLayout | null>(null);
  const frame = useRef(0);
  const place = useCallback(() => {
    frame.current = 0;
    const layout = pending.current;
    if (!layout) return;
    let widthsChanged = false;
    const box = container.current;
    if (box) {
      const compact = compactLabels(layout.open.size, layout.width, layout.height);
      if (compact !== box.hasAttribute('data-compact')) box.toggleAttribute('data-compact', compact);
    }
    for (const [key, el] of elements.current) {
      const [kind, idText] = key.split(':');
      const id = Number(idText);
      if (kind === 'open') {
        const label = layout.open.get(id);
        const width = el.offsetWidth;
        if (width > 0 && layers.marks.labelWidths.get(id) !== width) {
          layers.marks.labelWidths.set(id, width);
          widthsChanged = true;
        }
        if (!label) {
          el.removeAttribute('data-placed');
          continue;
        }
        el.style.transform = `translate(${Math.round(label.left)}px, ${Math.round(label.top)}px)`;
        el.setAttribute('data-placed', '');
      } else {
        const point = layout.settled.get(id);
        if (!point) {
          el.removeAttribute('data-placed');
          continue;
        }
        // Right of the dot, or left of it where it would run under the price scale.
        const width = el.offsetWidth;
        const x = point.x + 8 + width > layout.width ? point.x - 8 - width : point.x + 8;
        el.style.transform = `translate(${Math.round(x)}px, ${Math.round(point.y - 9)}px)`;
        el.setAttribute('data-placed', '');
      }
    }
    // A label's width is known once drawn: the connectors are drawn again to meet it.
    if (widthsChanged) layers.marks.refresh();
  }, [layers]);
  useEffect(() => {
    layers.marks.onLayout = (layout) => {
      pending.current = layout;
      if (!frame.current) frame.current = requestAnimationFrame(place);
    };
    layers.marks.refresh();
    return () => {
      layers.marks.onLayout = () => {};
      if (frame.current) cancelAnimationFrame(frame.current);
      frame.current = 0;
    };
  }, [layers, place]);
  // New labels are placed once they are in the page.
  useLayoutEffect(() => {
    layers.marks.refresh();
  }, [layers, shown, settled]);

  const ref = (key: string) => (el: HTMLElement | null) => {
    if (el) elements.current.set(key, el);
    else elements.current.delete(key);
  };

  const now = useNow({ active: shown.length > 0, everyMs: LABEL_REFRESH_MS });
  if (shown.length === 0 && settled.length === 0) return null;
  const current = price.current;
  return (
    <div ref={container} className="chart-marks" role="list" aria-label={t('trading.marks.list')} data-testid="chart-marks">
      {shown.map((o) => {
        const direction = o.direction === 'up' ? t('trading.up') : t('trading.down');
        const stake = format.money(o.amount, o.currency);
        const result = liveResult(o, current);
        const resultText = result ? format.money(result.amount, o.currency, { signed: true }) : '';
        const time = countdownText(o.expires_at_ms, now);
        const name = result ? t('trading.marks.open', { direction, amount: stake, result: resultText, time }) : t('trading.marks.open_no_price', { direction, amount: stake, time });
        return (
          <div
            key={`open:${o.order_id}`}
            ref={ref(`open:${o.order_id}`)}
            role="listitem"
            aria-label={name}
            className="chart-mark chart-mark-open"
            data-direction={o.direction}
            data-result={result?.kind}
            data-order-id={o.order_id}
          >
            <span className="chart-mark-arrow" aria-hidden="true">
              {o.direction === 'up' ? '▲' : '▼'}
            </span>
            <span className="chart-mark-stake tabular" aria-hidden="true">
              {stake}
            </span>
            {result ? (
              <span className="chart-mark-result tabular" data-sign={result.sign} aria-hidden="true">
                {resultText}
              </span>
            ) : null}
            <span className="chart-mark-time tabular" aria-hidden="true">
              {time}
            </span>
          </div>
        );
      })}
      {settled.map((o) => {
        const kind = settledKind(o);
        const amount = format.money(o.profit_loss ?? 0, o.currency, { signed: true });
        const at = format.price(exitPrice(o)!, o.price_precision);
        const name = kind === 'tie' ? t('trading.marks.settled_tie', { price: at }) : t(kind === 'win' ? 'trading.marks.settled_win' : 'trading.marks.settled_loss', { amount, price: at });
        return (
          <div key={`settled:${o.order_id}`} ref={ref(`settled:${o.order_id}`)} role="listitem" aria-label={name} className="chart-mark chart-mark-settled" data-result={kind} data-order-id={o.order_id}>
            <span aria-hidden="true" className="tabular">
              {kind === 'tie' ? format.money(0, o.currency) : amount}
            </span>
          </div>
        );
      })}
    </div>
  );
}

export const OrderMarks = memo(OrderMarksView);
