/**
 * The candlestick chart on lightweight-charts v5. It only draws: the candles come from the chart
 * actor, the entry prices from the open orders. History is `setData`, a live candle is
 * `update` (the same time replaces the live candle, a newer one appends). Colours are read from
 * the CSS tokens at runtime and applied again when the theme (data-theme on <html>) changes;
 * the chart follows its container's size. Times are shown in the browser's time zone; prices
 * (scale, last-price tag, crosshair) with the caller's formatter, so they carry the language's
 * decimal mark like the rest of the UI. Entry prices are dashed lines with a short arrow and no
 * axis tag, so they never cover the current price tag or the last candles. The crosshair
 * follows the pointer and goes when the touch ends or the pointer leaves (on a touch screen
 * lightweight-charts would keep it until the next tap on the chart).
 * The canvas is hidden from assistive tech: the caller gives the text alternative.
 */
import { useEffect, useRef } from 'react';
import {
  CandlestickSeries,
  ColorType,
  createChart,
  LineStyle,
  TickMarkType,
  TrackingModeExitMode,
  type CandlestickData,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { Candle } from '../../../contract/market';

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
}

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

function toBar(candle: Candle): CandlestickData<UTCTimestamp> {
  return { time: candle.timestamp as UTCTimestamp, open: candle.open, high: candle.high, low: candle.low, close: candle.close };
}

export function CandleChart({ seriesKey, candles, precision, formatPrice, lines, seconds, className }: CandleChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const drawn = useRef<{ key: string; candles: readonly Candle[] }>({ key: '', candles: [] });
  const priceLines = useRef(new Map<number, { line: IPriceLine; direction: EntryLine['direction'] }>());
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
    const series = chart.addSeries(CandlestickSeries, {
      upColor: colors.gain,
      downColor: colors.loss,
      wickUpColor: colors.gain,
      wickDownColor: colors.loss,
      borderVisible: false,
    });
    chartRef.current = chart;
    seriesRef.current = series;

    const recolor = () => {
      const c = palette();
      chart.applyOptions({
        layout: { textColor: c.text },
        grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
        rightPriceScale: { borderColor: c.border },
        timeScale: { borderColor: c.border },
        crosshair: { vertLine: { color: c.crosshair }, horzLine: { color: c.crosshair } },
      });
      series.applyOptions({ upColor: c.gain, downColor: c.loss, wickUpColor: c.gain, wickDownColor: c.loss });
      for (const { line, direction } of priceLines.current.values()) line.applyOptions({ color: direction === 'up' ? c.gain : c.loss });
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
    const lineStore = priceLines.current;
    return () => {
      el.removeEventListener('pointerup', onPointerUp);
      el.removeEventListener('pointercancel', clear);
      el.removeEventListener('pointerleave', clear);
      el.removeEventListener('touchend', clear);
      document.removeEventListener('pointerdown', onOutside, true);
      observer.disconnect();
      lineStore.clear();
      drawn.current = { key: '', candles: [] };
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
    };
  }, []);

  useEffect(() => {
    seriesRef.current?.applyOptions({ priceFormat: { type: 'price', precision, minMove: 1 / 10 ** precision } });
  }, [precision]);

  useEffect(() => {
    chartRef.current?.applyOptions({ timeScale: { secondsVisible: seconds } });
  }, [seconds]);

  // Prices in the UI's language (decimal mark and grouping) on the scale, the tags and the crosshair.
  useEffect(() => {
    chartRef.current?.applyOptions({ localization: { priceFormatter: formatPrice } });
  }, [formatPrice]);

  // History with setData, a moving live candle with update.
  useEffect(() => {
    const series = seriesRef.current;
    if (!series) return;
    const before = drawn.current;
    const last = candles[candles.length - 1];
    const previousLast = before.candles[before.candles.length - 1];
    const sameSeries = before.key === seriesKey && previousLast !== undefined && last !== undefined;
    // mergeCandles keeps the untouched candles as they were, so an update changes only the tail.
    const onlyTailMoved =
      sameSeries && last.timestamp >= previousLast.timestamp && (candles[candles.length - 2] === previousLast || candles[candles.length - 2] === before.candles[before.candles.length - 2]);
    if (onlyTailMoved) {
      series.update(toBar(last));
    } else {
      series.setData(candles.map(toBar));
      if (before.key !== seriesKey) chartRef.current?.timeScale().scrollToRealTime();
    }
    drawn.current = { key: seriesKey, candles };
    // The attribution logo (drawn once there is data) is a link inside this aria-hidden box:
    // it stays visible and clickable, out of the tab order (the caller gives the text alternative).
    for (const link of container.current?.querySelectorAll('a') ?? []) if (link.tabIndex !== -1) link.tabIndex = -1;
  }, [candles, seriesKey]);

  // Entry prices of the open orders on this pair.
  useEffect(() => {
    const series = seriesRef.current;
    if (!series) return;
    const c = palette();
    const wanted = new Map(lines.map((l) => [l.id, l]));
    for (const [id, { line }] of priceLines.current) {
      if (!wanted.has(id)) {
        series.removePriceLine(line);
        priceLines.current.delete(id);
      }
    }
    for (const l of lines) {
      if (priceLines.current.has(l.id)) continue;
      // No axis tag: several entries near the price would cover the current price tag.
      const line = series.createPriceLine({
        price: l.price,
        color: l.direction === 'up' ? c.gain : c.loss,
        lineWidth: 1,
        lineStyle: LineStyle.Dashed,
        axisLabelVisible: false,
        title: '',
      });
      priceLines.current.set(l.id, { line, direction: l.direction });
    }
  }, [lines]);

  return <div ref={container} className={className} aria-hidden="true" data-testid="candle-chart" />;
}
