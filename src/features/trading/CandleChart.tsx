/**
 * The candlestick chart on lightweight-charts v5. It only draws: the candles come from the chart
 * actor, the entry prices from the open orders. History is `setData`, a live candle is
 * `update` (the same time replaces the live candle, a newer one appends). Colours are read from
 * the CSS tokens at runtime and applied again when the theme (data-theme on <html>) changes;
 * the chart follows its container's size. Times are shown in the browser's time zone; prices
 * (scale, last-price tag, crosshair) with the caller's formatter, so they carry the language's
 * decimal mark like the rest of the UI. The open orders of the pair (`lines`), the last settled
 * ones and the price alerts are drawn by chart/OrderMarks.tsx over the chart (issue 26): a line
 * from entry to expiry with a label (direction, stake, result now, time left), a vertical line
 * at the expiry, a dot where a settled one ended; alerts as dotted lines. The crosshair
 * follows the pointer and goes when the touch ends or the pointer leaves (on a touch screen
 * lightweight-charts would keep it until the next tap on the chart).
 * The canvas is hidden from assistive tech: the caller gives the text alternative.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { ColorType, createChart, TickMarkType, TrackingModeExitMode, type IChartApi, type MouseEventParams, type Time } from 'lightweight-charts';
import type { Candle } from '../../../contract/market';
import type { ChartPoint, ChartType, Drawing, Study } from '../../../contract/chart';
import { ChartLayers } from './chart/chart-layers';
import { OrderMarks } from './chart/OrderMarks';

export interface EntryLine {
  id: number;
  price: number;
  direction: 'up' | 'down';
}

export interface CandleChartProps {
  /** Changes when another pair or timeframe is shown (the history is set anew). */
  seriesKey: string;
  candles: readonly Candle[];
  precision: number;
  /** A price as the UI writes it (the language's decimal mark, the pair's precision). */
  formatPrice: (price: number) => string;
  lines: readonly EntryLine[];
  /** Whether the time axis shows seconds (timeframes under a minute). */
  seconds: boolean;
  className?: string;
  /** The chart setup (issue 16): price series type, studies and drawings (chart/chart-layers.ts). */
  chartType?: ChartType;
  studies?: readonly Study[];
  drawings?: readonly Drawing[];
  /** The first end of a trend line being drawn. */
  pendingPoint?: ChartPoint | null;
  /** Set while a drawing tool is active: a click or tap on the price pane gives its time and price. */
  onPointPicked?: ((point: ChartPoint) => void) | null;
}

const NO_STUDIES: readonly Study[] = [];
const NO_DRAWINGS: readonly Drawing[] = [];

function token(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

function palette() {
  return {
    text: token('--color-text-muted'),
    grid: token('--color-chart-grid'),
    border: token('--color-border'),
    gain: token('--color-gain'),
    loss: token('--color-loss'),
    crosshair: token('--color-border-strong'),
    accent: token('--color-primary'),
    warning: token('--color-warning'),
  };
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Unix seconds to the local wall clock. */
function localParts(time: Time) {
  const d = new Date((typeof time === 'number' ? time : 0) * 1000);
  return { d, hm: `${pad(d.getHours())}:${pad(d.getMinutes())}`, s: pad(d.getSeconds()) };
}

export function CandleChart({
  seriesKey,
  candles,
  precision,
  formatPrice,
  lines,
  seconds,
  className,
  chartType = 'candles',
  studies = NO_STUDIES,
  drawings = NO_DRAWINGS,
  pendingPoint = null,
  onPointPicked = null,
}: CandleChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ChartLayers | null>(null);
  const pickRef = useRef(onPointPicked);
  pickRef.current = onPointPicked;
  const drawn = useRef<{ key: string; candles: readonly Candle[] }>({ key: '', candles: [] });
  const [layersShown, setLayersShown] = useState<ChartLayers | null>(null);
  /** The latest price (the real close, also under Heikin-Ashi), read by the order labels. */
  const lastPrice = useRef<number | null>(null);
  const secondsRef = useRef(seconds);
  secondsRef.current = seconds;

  // Create once; colours follow the theme.
  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const colors = palette();
    const chart = createChart(el, {
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: colors.text, fontFamily: token('--font-sans'), attributionLogo: true },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
      rightPriceScale: { borderColor: colors.border },
      timeScale: {
        borderColor: colors.border,
        timeVisible: true,
        secondsVisible: true,
        rightOffset: 6,
        tickMarkFormatter: (time: Time, type: TickMarkType) => {
          const { d, hm, s } = localParts(time);
          if (type === TickMarkType.Year) return String(d.getFullYear());
          if (type === TickMarkType.Month || type === TickMarkType.DayOfMonth) return `${pad(d.getDate())}.${pad(d.getMonth() + 1)}`;
          return type === TickMarkType.TimeWithSeconds || secondsRef.current ? `${hm}:${s}` : hm;
        },
      },
      localization: {
        timeFormatter: (time: Time) => {
          const { d, hm, s } = localParts(time);
          return `${pad(d.getDate())}.${pad(d.getMonth() + 1)} ${hm}:${s}`;
        },
      },
      crosshair: { vertLine: { color: colors.crosshair }, horzLine: { color: colors.crosshair } },
      // A touch shows the crosshair while the finger is down, not until the next tap.
      trackingMode: { exitMode: TrackingModeExitMode.OnTouchEnd },
    });
    const layers = new ChartLayers(chart, { gain: colors.gain, loss: colors.loss, accent: colors.accent, text: colors.text, grid: colors.grid, warning: colors.warning });
    chartRef.current = chart;
    seriesRef.current = layers;
    setLayersShown(layers);
    // A drawing tool is active: the click or tap places a point (time and price) on the price
    // pane. lightweight-charts swallows a second click within 500 ms of the first, even far from
    // it (its double-click detection), so mouse clicks are also read from the DOM; a tap comes
    // through lightweight-charts only (it cancels the browser's synthetic click). The same click
    // seen both ways counts once.
    let lastPick = { at: -Infinity, x: NaN, y: NaN };
    const pickAt = (x: number, y: number, paneIndex: number | undefined) => {
      const pick = pickRef.current;
      if (!pick) return;
      const now = performance.now();
      if (now - lastPick.at < 100 && Math.abs(x - lastPick.x) < 4 && Math.abs(y - lastPick.y) < 4) return;
      const point = layers.pointAt(x, y, paneIndex);
      if (!point) return;
      lastPick = { at: now, x, y };
      pick(point);
    };
    const onClick = (param: MouseEventParams<Time>) => {
      if (param.point) pickAt(param.point.x, param.point.y, param.paneIndex);
    };
    chart.subscribeClick(onClick);
    let downAt: { x: number; y: number } | null = null;
    const onPointerDown = (event: PointerEvent) => {
      downAt = { x: event.clientX, y: event.clientY };
    };
    const onDomClick = (event: MouseEvent) => {
      // Not the end of a drag (scrolling the chart).
      if (!downAt || Math.abs(event.clientX - downAt.x) + Math.abs(event.clientY - downAt.y) > 5) return;
      const rect = el.getBoundingClientRect();
      const x = event.clientX - rect.left;
      const y = event.clientY - rect.top;
      // The price pane's drawing area: left of the price scale, above the other panes.
      if (x > chart.timeScale().width() || y > (chart.panes()[0]?.getHeight() ?? 0)) return;
      pickAt(x, y, 0);
    };
    el.addEventListener('pointerdown', onPointerDown);
    el.addEventListener('click', onDomClick);

    const recolor = () => {
      const c = palette();
      chart.applyOptions({
        layout: { textColor: c.text },
        grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
        rightPriceScale: { borderColor: c.border },
        timeScale: { borderColor: c.border },
        crosshair: { vertLine: { color: c.crosshair }, horzLine: { color: c.crosshair } },
      });
      layers.recolor({ gain: c.gain, loss: c.loss, accent: c.accent, text: c.text, grid: c.grid, warning: c.warning });
    };
    const observer = new MutationObserver(recolor);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'style', 'class'] });

    // The crosshair goes with the pointer: when a touch ends or is cancelled, when the pointer
    // leaves the chart, and on a tap anywhere else on the page.
    const clear = () => chart.clearCrosshairPosition();
    const onPointerUp = (event: PointerEvent) => {
      if (event.pointerType !== 'mouse') clear();
    };
    const onOutside = (event: PointerEvent) => {
      if (!(event.target instanceof Node) || !el.contains(event.target)) clear();
    };
    el.addEventListener('pointerup', onPointerUp);
    el.addEventListener('pointercancel', clear);
    el.addEventListener('pointerleave', clear);
    el.addEventListener('touchend', clear);
    document.addEventListener('pointerdown', onOutside, true);
    return () => {
      el.removeEventListener('pointerup', onPointerUp);
      el.removeEventListener('pointercancel', clear);
      el.removeEventListener('pointerleave', clear);
      el.removeEventListener('touchend', clear);
      document.removeEventListener('pointerdown', onOutside, true);
      chart.unsubscribeClick(onClick);
      el.removeEventListener('pointerdown', onPointerDown);
      el.removeEventListener('click', onDomClick);
      observer.disconnect();
      drawn.current = { key: '', candles: [] };
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
      setLayersShown(null);
    };
  }, []);

  useEffect(() => {
    seriesRef.current?.setPrecision(precision);
  }, [precision]);

  // The price series in the chosen type (the layers move the orders, alerts and drawings to it).
  useEffect(() => {
    seriesRef.current?.setType(chartType);
  }, [chartType]);

  useEffect(() => {
    chartRef.current?.applyOptions({ timeScale: { secondsVisible: seconds } });
  }, [seconds]);

  // Prices in the UI's language (decimal mark and grouping) on the scale, the tags and the crosshair.
  useEffect(() => {
    // Per series (chart/chart-layers.ts): a chart-wide formatter would also write the RSI and
    // MACD panes with the pair's precision.
    seriesRef.current?.setPriceFormatter(formatPrice);
  }, [formatPrice]);

  // History with setData, a moving live candle with update (the studies follow the same way).
  useEffect(() => {
    const layers = seriesRef.current;
    if (!layers) return;
    const before = drawn.current;
    const last = candles[candles.length - 1];
    const previousLast = before.candles[before.candles.length - 1];
    const sameSeries = before.key === seriesKey && previousLast !== undefined && last !== undefined;
    // mergeCandlePages keeps the untouched candles as they were, so an update changes only the tail.
    const onlyTailMoved =
      sameSeries && last.timestamp >= previousLast.timestamp && (candles[candles.length - 2] === previousLast || candles[candles.length - 2] === before.candles[before.candles.length - 2]);
    layers.setCandles(candles, seriesKey, onlyTailMoved);
    if (!onlyTailMoved && before.key !== seriesKey) chartRef.current?.timeScale().scrollToRealTime();
    drawn.current = { key: seriesKey, candles };
    lastPrice.current = last?.close ?? null;
    // The attribution logo (drawn once there is data) is a link inside this aria-hidden box:
    // it stays visible and clickable, out of the tab order (the caller gives the text alternative).
    for (const link of container.current?.querySelectorAll('a') ?? []) if (link.tabIndex !== -1) link.tabIndex = -1;
  }, [candles, seriesKey]);

  useEffect(() => {
    seriesRef.current?.setStudies(studies);
  }, [studies]);

  useEffect(() => {
    seriesRef.current?.setDrawings(drawings, pendingPoint);
  }, [drawings, pendingPoint]);

  const ids = useMemo(() => lines.map((l) => l.id), [lines]);

  return (
    <>
      <div ref={container} className={className} aria-hidden="true" data-testid="candle-chart" data-chart-type={chartType} data-picking={onPointPicked ? true : undefined} />
      {layersShown ? <OrderMarks layers={layersShown} ids={ids} price={lastPrice} /> : null}
    </>
  );
}
