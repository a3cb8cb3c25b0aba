/**
 * The house result per day as a histogram (lightweight-charts v5, colours from the tokens:
 * gain green above zero, loss red below), with a text alternative (the days and the total).
 */
import { ColorType, createChart, HistogramSeries, type IChartApi } from 'lightweight-charts';
import { useEffect, useRef } from 'react';

export interface PnlBar {
  day: string;
  value: number;
}

const token = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

export function PnlChart({ bars, label, summary }: { bars: PnlBar[]; label: string; summary: string }) {
  const box = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const chart: IChartApi = createChart(el, {
      height: 240,
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: token('--color-surface') }, textColor: token('--color-text-muted'), attributionLogo: false },
      grid: { vertLines: { color: token('--color-chart-grid') }, horzLines: { color: token('--color-chart-grid') } },
      rightPriceScale: { borderColor: token('--color-border') },
      timeScale: { borderColor: token('--color-border') },
    });
    const series = chart.addSeries(HistogramSeries, { priceFormat: { type: 'price', precision: 2, minMove: 0.01 } });
    const gain = token('--color-gain');
    const loss = token('--color-loss');
    series.setData(bars.map((b) => ({ time: b.day, value: b.value, color: b.value >= 0 ? gain : loss })));
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [bars]);
  return (
    <figure className="console-chart">
      <div ref={box} className="console-chart-canvas" role="img" aria-label={`${label}: ${summary}`} />
      <figcaption className="console-muted">{summary}</figcaption>
    </figure>
  );
}
