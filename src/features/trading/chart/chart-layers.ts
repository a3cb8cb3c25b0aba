/**
 * What the trading chart draws on lightweight-charts v5, kept in step with the chart setup
 * (issue 16): the price series in the chosen type (candles, bars, line, area or Heikin-Ashi),
 * the studies (SMA, EMA and Bollinger on the price pane, RSI and MACD each in its own pane under
 * it) and the drawings (horizontal lines as price lines with an axis tag, trend lines as a series
 * primitive). It only draws; what to draw comes from the chart setup machine and the candles
 * actor.
 *
 * Per tick the work is incremental: the price series and every study line get one `update` for
 * the live candle, computed from the committed state (studies/incremental.ts), never a pass over
 * the series; a new history (`setData`) recomputes once. Changing the type or the studies
 * rebuilds only the series concerned.
 */
import {
  AreaSeries,
  BarSeries,
  CandlestickSeries,
  HistogramSeries,
  LineSeries,
  LineStyle,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type ISeriesPrimitive,
  type IPrimitivePaneRenderer,
  type IPrimitivePaneView,
  type Logical,
  type SeriesAttachedParameter,
  type SeriesType,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { CanvasRenderingTarget2D } from 'fancy-canvas';
import type { Candle } from '../../../../contract/market';
import type { ChartPoint, ChartType, Drawing, Study } from '../../../../contract/chart';
import { hasOwnPane, studyCalculator, STUDY_LINES, type LineValues } from '../studies/indicators';
import { HeikinAshiCalculator, type Ohlc } from '../studies/heikin-ashi';
import { IncrementalSeries, onClose, type Point } from '../studies/incremental';
import { OrderMarksLayer } from './order-marks-layer';

export interface ChartColors {
  gain: string;
  loss: string;
  accent: string;
  text: string;
  grid: string;
  /** Price alert lines. */
  warning: string;
}

/** A price alert drawn as a line with its title at the axis. */
export interface AlertLine {
  id: number;
  price: number;
  title: string;
}

type MainType = 'Candlestick' | 'Bar' | 'Line' | 'Area';

function seriesTypeOf(type: ChartType): MainType {
  switch (type) {
    case 'bars':
      return 'Bar';
    case 'line':
      return 'Line';
    case 'area':
      return 'Area';
    default:
      return 'Candlestick';
  }
}

const time = (t: number) => t as UTCTimestamp;

/** A candle's index (fractional between candles, extrapolated past the ends) on the time scale. */
export function logicalOf(candles: readonly Candle[], t: number): number | null {
  const n = candles.length;
  if (n === 0) return null;
  const spacing = n > 1 ? candles[n - 1].timestamp - candles[n - 2].timestamp || 1 : 60;
  if (t <= candles[0].timestamp) return (t - candles[0].timestamp) / spacing;
  if (t >= candles[n - 1].timestamp) return n - 1 + (t - candles[n - 1].timestamp) / spacing;
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (candles[mid].timestamp <= t) lo = mid;
    else hi = mid;
  }
  return lo + (t - candles[lo].timestamp) / (candles[hi].timestamp - candles[lo].timestamp);
}

/** The time at a (possibly fractional or out-of-range) index: the nearest candle's, extrapolated past the ends. */
export function timeOf(candles: readonly Candle[], logical: number): number | null {
  const n = candles.length;
  if (n === 0) return null;
  const spacing = n > 1 ? candles[n - 1].timestamp - candles[n - 2].timestamp || 1 : 60;
  const i = Math.round(logical);
  if (i < 0) return Math.max(0, candles[0].timestamp + i * spacing);
  if (i > n - 1) return candles[n - 1].timestamp + (i - (n - 1)) * spacing;
  return candles[i].timestamp;
}

/** Trend lines (and the first end of one being drawn) drawn over the price pane. */
class TrendLines implements ISeriesPrimitive<Time> {
  private attachedTo: SeriesAttachedParameter<Time> | null = null;
  private lines: { from: ChartPoint; to: ChartPoint }[] = [];
  private pending: ChartPoint | null = null;
  private color = 'transparent'; // set() gives the theme's accent before the first draw
  private readonly view: IPrimitivePaneView;

  constructor(private readonly candles: () => readonly Candle[]) {
    const renderer: IPrimitivePaneRenderer = { draw: (target) => this.draw(target) };
    this.view = { renderer: () => renderer };
  }

  attached(param: SeriesAttachedParameter<Time>): void {
    this.attachedTo = param;
  }
  detached(): void {
    this.attachedTo = null;
  }
  paneViews(): readonly IPrimitivePaneView[] {
    return [this.view];
  }
  set(lines: { from: ChartPoint; to: ChartPoint }[], pending: ChartPoint | null, color: string): void {
    this.lines = lines;
    this.pending = pending;
    this.color = color;
    this.attachedTo?.requestUpdate();
  }

  private xy(point: ChartPoint): { x: number; y: number } | null {
    const a = this.attachedTo;
    if (!a) return null;
    const logical = logicalOf(this.candles(), point.time);
    const x = logical === null ? null : a.chart.timeScale().logicalToCoordinate(logical as Logical);
    const y = a.series.priceToCoordinate(point.price);
    return x === null || y === null ? null : { x, y };
  }

  private draw(target: CanvasRenderingTarget2D): void {
    const segments = this.lines.map((l) => [this.xy(l.from), this.xy(l.to)] as const);
    const pending = this.pending ? this.xy(this.pending) : null;
    target.useBitmapCoordinateSpace(({ context: ctx, horizontalPixelRatio: hr, verticalPixelRatio: vr }) => {
      ctx.strokeStyle = this.color;
      ctx.fillStyle = this.color;
      ctx.lineWidth = Math.max(1, Math.round(2 * hr));
      for (const [a, b] of segments) {
        if (!a || !b) continue;
        ctx.beginPath();
        ctx.moveTo(a.x * hr, a.y * vr);
        ctx.lineTo(b.x * hr, b.y * vr);
        ctx.stroke();
        for (const p of [a, b]) {
          ctx.beginPath();
          ctx.arc(p.x * hr, p.y * vr, 3 * hr, 0, Math.PI * 2);
          ctx.fill();
        }
      }
      if (pending) {
        ctx.beginPath();
        ctx.arc(pending.x * hr, pending.y * vr, 4 * hr, 0, Math.PI * 2);
        ctx.fill();
      }
    });
  }
}

interface StudyLayer {
  study: Study;
  series: ISeriesApi<SeriesType>[];
  values: IncrementalSeries<LineValues, Candle>;
  guides: IPriceLine[];
}

function studyKey(studies: readonly Study[]): string {
  return JSON.stringify(studies);
}

export class ChartLayers {
  private main: ISeriesApi<MainType> | null = null;
  private mainType: ChartType = 'candles';
  private heikinAshi = new IncrementalSeries<Ohlc, Candle>(() => new HeikinAshiCalculator());
  private studies: StudyLayer[] = [];
  private studiesKey = '';
  private candles: readonly Candle[] = [];
  private key = '';
  private hlines = new Map<string, IPriceLine>();
  private drawings: readonly Drawing[] = [];
  private pending: ChartPoint | null = null;
  private readonly trend = new TrendLines(() => this.candles);
  /** The trader's orders on the price pane (order-marks-layer.ts); OrderMarks.tsx feeds it. */
  readonly marks = new OrderMarksLayer((t) => logicalOf(this.candles, t));
  private alerts: readonly AlertLine[] = [];
  private alertLines = new Map<string, IPriceLine>();
  /** Heikin-Ashi only: the real last price at the axis (the series' own tag shows the averaged close). */
  private realPrice: IPriceLine | null = null;
  private precision = 5;
  /** The UI language's decimal mark, for the oscillator panes' own scales. */
  private decimalMark = '.';
  /** Prices as the UI writes them (the language's decimal mark, the pair's precision). */
  private priceFormatter: ((price: number) => string) | null = null;
  /** Called after the price series was (re)created, so the caller can put its price lines back. */
  onMainSeries: (series: ISeriesApi<MainType>) => void = () => {};

  constructor(
    private readonly chart: IChartApi,
    private colors: ChartColors,
  ) {
    this.marks.setColors({ gain: colors.gain, loss: colors.loss, text: colors.text });
    this.setType('candles');
  }

  get mainSeries(): ISeriesApi<MainType> {
    return this.main!;
  }

  setType(type: ChartType): void {
    if (this.main && type === this.mainType) return;
    // The old series goes after the new one is on the price pane: a pane left empty would be
    // removed and the study panes under it renumbered.
    const old = this.main;
    if (old) {
      old.detachPrimitive(this.trend);
      old.detachPrimitive(this.marks);
      this.hlines.clear();
      this.alertLines.clear();
      this.realPrice = null;
    }
    this.mainType = type;
    const c = this.colors;
    const priceFormat = this.priceFormat();
    switch (seriesTypeOf(type)) {
      case 'Bar':
        this.main = this.chart.addSeries(BarSeries, { upColor: c.gain, downColor: c.loss, thinBars: false, priceFormat }, 0);
        break;
      case 'Line':
        this.main = this.chart.addSeries(LineSeries, { color: c.accent, lineWidth: 2, priceFormat }, 0);
        break;
      case 'Area':
        this.main = this.chart.addSeries(AreaSeries, { lineColor: c.accent, topColor: `${c.accent}55`, bottomColor: `${c.accent}05`, lineWidth: 2, priceFormat }, 0);
        break;
      default: {
        // Heikin-Ashi candles close at an average: the axis shows the real last price instead (realPrice).
        const heikinAshi = type === 'heikin_ashi';
        this.main = this.chart.addSeries(
          CandlestickSeries,
          { upColor: c.gain, downColor: c.loss, wickUpColor: c.gain, wickDownColor: c.loss, borderVisible: false, priceFormat, lastValueVisible: !heikinAshi, priceLineVisible: !heikinAshi },
          0,
        );
      }
    }
    if (old) this.chart.removeSeries(old);
    // The price series first on its pane, the studies over it.
    this.main.setSeriesOrder(0);
    this.main.attachPrimitive(this.trend);
    this.main.attachPrimitive(this.marks);
    this.setMainData();
    this.applyDrawings();
    this.applyAlerts();
    this.onMainSeries(this.main);
  }

  /** Oscillator values (RSI, MACD) with `decimals` and the language's decimal mark; the price panes use the chart's price formatter. */
  private oscillatorFormat(decimals: number) {
    return { type: 'custom' as const, minMove: 1 / 10 ** decimals, formatter: (value: number) => value.toFixed(decimals).replace('.', this.decimalMark) };
  }

  /** The price panes' format: the caller's formatter when given (series formats win over the chart's localization). */
  private priceFormat() {
    const minMove = 1 / 10 ** this.precision;
    const formatter = this.priceFormatter;
    return formatter ? { type: 'custom' as const, minMove, formatter } : { type: 'price' as const, precision: this.precision, minMove };
  }

  /** Prices in the UI's language on the price pane; the oscillator panes take its decimal mark. */
  setPriceFormatter(formatter: (price: number) => string): void {
    if (formatter === this.priceFormatter) return;
    this.priceFormatter = formatter;
    this.decimalMark = formatter(0.5).replace(/[\d\s]/g, '').charAt(0) || '.';
    this.main?.applyOptions({ priceFormat: this.priceFormat() });
    this.rebuildStudies(this.studies.map((l) => l.study), true);
  }

  setPrecision(precision: number): void {
    if (precision === this.precision) return;
    this.precision = precision;
    this.main?.applyOptions({ priceFormat: this.priceFormat() });
    this.rebuildStudies(this.studies.map((l) => l.study), true);
  }

  recolor(colors: ChartColors): void {
    this.colors = colors;
    const c = colors;
    switch (this.main?.seriesType()) {
      case 'Candlestick':
        this.main.applyOptions({ upColor: c.gain, downColor: c.loss, wickUpColor: c.gain, wickDownColor: c.loss });
        break;
      case 'Bar':
        this.main.applyOptions({ upColor: c.gain, downColor: c.loss });
        break;
      case 'Line':
        this.main.applyOptions({ color: c.accent });
        break;
      case 'Area':
        this.main.applyOptions({ lineColor: c.accent, topColor: `${c.accent}55`, bottomColor: `${c.accent}05` });
        break;
    }
    for (const line of this.hlines.values()) line.applyOptions({ color: c.accent });
    for (const line of this.alertLines.values()) line.applyOptions({ color: c.warning });
    this.marks.setColors({ gain: c.gain, loss: c.loss, text: c.text });
    this.applyRealPrice();
    this.trend.set(this.trendLines(), this.pending, c.accent);
    // The MACD histogram takes the gain/loss colours per bar: draw it again.
    this.rebuildStudies(this.studies.map((l) => l.study), true);
  }

  /**
   * New candles. `tailOnly` (the caller knows only the live candle moved or one was appended)
   * takes the incremental path; otherwise everything is set anew.
   */
  setCandles(candles: readonly Candle[], key: string, tailOnly: boolean): void {
    this.candles = candles;
    const sameSeries = key === this.key;
    this.key = key;
    if (tailOnly && sameSeries && candles.length > 0) {
      const last = candles[candles.length - 1];
      const main = this.main!;
      if (this.mainType === 'heikin_ashi') {
        for (const p of this.heikinAshi.tail(candles)) if (p.value) main.update({ time: time(p.time), ...p.value });
        this.applyRealPrice();
      } else if (this.mainType === 'line' || this.mainType === 'area') {
        main.update({ time: time(last.timestamp), value: last.close });
      } else {
        main.update({ time: time(last.timestamp), open: last.open, high: last.high, low: last.low, close: last.close });
      }
      for (const layer of this.studies) this.updateStudy(layer, layer.values.tail(candles), false);
    } else {
      this.setMainData();
      for (const layer of this.studies) this.updateStudy(layer, layer.values.reset(candles), true);
    }
  }

  private setMainData(): void {
    const main = this.main;
    if (!main) return;
    const candles = this.candles;
    if (this.mainType === 'heikin_ashi') {
      main.setData(this.heikinAshi.reset(candles).map((p) => ({ time: time(p.time), ...p.value! })));
      this.applyRealPrice();
    } else if (this.mainType === 'line' || this.mainType === 'area') {
      main.setData(candles.map((c) => ({ time: time(c.timestamp), value: c.close })));
    } else {
      main.setData(candles.map((c) => ({ time: time(c.timestamp), open: c.open, high: c.high, low: c.low, close: c.close })));
    }
  }

  setStudies(studies: readonly Study[]): void {
    const key = studyKey(studies);
    if (key === this.studiesKey) return;
    this.rebuildStudies(studies, false);
  }

  private rebuildStudies(studies: readonly Study[], force: boolean): void {
    const key = studyKey(studies);
    if (!force && key === this.studiesKey) return;
    this.studiesKey = key;
    for (const layer of this.studies) for (const s of layer.series) this.chart.removeSeries(s);
    this.studies = [];
    let pane = 0;
    for (const study of studies) {
      const paneIndex = hasOwnPane(study.kind) ? ++pane : 0;
      const layer = this.createStudy(study, paneIndex);
      this.studies.push(layer);
      this.updateStudy(layer, layer.values.reset(this.candles), true);
    }
    // The price pane keeps most of the height; each oscillator pane gets a strip under it.
    const panes = this.chart.panes();
    panes.forEach((p, i) => p.setStretchFactor(i === 0 ? 3 : 1));
  }

  private createStudy(study: Study, paneIndex: number): StudyLayer {
    const common = { lineWidth: 1 as const, priceLineVisible: false, crosshairMarkerVisible: false, lastValueVisible: paneIndex > 0 };
    const pricePane = paneIndex === 0 ? { priceFormat: this.priceFormat() } : {};
    const series: ISeriesApi<SeriesType>[] = [];
    const guides: IPriceLine[] = [];
    switch (study.kind) {
      case 'sma':
      case 'ema':
        series.push(this.chart.addSeries(LineSeries, { ...common, ...pricePane, color: study.color, lineWidth: 2 }, paneIndex));
        break;
      case 'bollinger':
        series.push(this.chart.addSeries(LineSeries, { ...common, ...pricePane, color: study.color, lineStyle: LineStyle.Solid }, paneIndex));
        series.push(this.chart.addSeries(LineSeries, { ...common, ...pricePane, color: study.color, lineStyle: LineStyle.Dashed }, paneIndex));
        series.push(this.chart.addSeries(LineSeries, { ...common, ...pricePane, color: study.color, lineStyle: LineStyle.Solid }, paneIndex));
        break;
      case 'rsi': {
        const line = this.chart.addSeries(LineSeries, { ...common, color: study.color, lineWidth: 2, priceFormat: this.oscillatorFormat(1) }, paneIndex);
        for (const level of [70, 30]) guides.push(line.createPriceLine({ price: level, color: this.colors.text, lineWidth: 1, lineStyle: LineStyle.Dotted, axisLabelVisible: true, title: '' }));
        series.push(line);
        break;
      }
      case 'macd': {
        const priceFormat = this.oscillatorFormat(this.precision + 1);
        series.push(this.chart.addSeries(HistogramSeries, { ...common, priceFormat, lastValueVisible: false }, paneIndex));
        series.push(this.chart.addSeries(LineSeries, { ...common, priceFormat, color: study.color, lineWidth: 2 }, paneIndex));
        series.push(this.chart.addSeries(LineSeries, { ...common, priceFormat, color: study.signalColor }, paneIndex));
        break;
      }
    }
    const values = new IncrementalSeries<LineValues, Candle>(() => onClose(studyCalculator(study)));
    return { study, series, values, guides };
  }

  private updateStudy(layer: StudyLayer, points: Point<LineValues>[], full: boolean): void {
    const lines = STUDY_LINES[layer.study.kind];
    const histogram = layer.study.kind === 'macd' ? 0 : -1;
    for (let k = 0; k < lines.length; k += 1) {
      const series = layer.series[k];
      const item = (p: Point<LineValues>) => {
        const v = p.value ? p.value[k] : null;
        if (v === null) return { time: time(p.time) };
        return k === histogram ? { time: time(p.time), value: v, color: v >= 0 ? `${this.colors.gain}99` : `${this.colors.loss}99` } : { time: time(p.time), value: v };
      };
      if (full) series.setData(points.map(item));
      else for (const p of points) series.update(item(p));
    }
  }

  setDrawings(drawings: readonly Drawing[], pending: ChartPoint | null): void {
    this.drawings = drawings;
    this.pending = pending;
    this.applyDrawings();
  }

  private trendLines() {
    return this.drawings.flatMap((d) => (d.kind === 'trend' ? [{ from: d.from, to: d.to }] : []));
  }

  private applyDrawings(): void {
    const main = this.main;
    if (!main) return;
    const wanted = new Map<string, Extract<Drawing, { kind: 'hline' }>>(this.drawings.flatMap((d) => (d.kind === 'hline' ? [[`${d.id}:${d.price}`, d] as const] : [])));
    for (const [key, line] of this.hlines) {
      if (!wanted.has(key)) {
        main.removePriceLine(line);
        this.hlines.delete(key);
      }
    }
    for (const [key, d] of wanted) {
      if (this.hlines.has(key)) continue;
      this.hlines.set(key, main.createPriceLine({ price: d.price, color: this.colors.accent, lineWidth: 1, lineStyle: LineStyle.Solid, axisLabelVisible: true, title: '' }));
    }
    this.trend.set(this.trendLines(), this.pending, this.colors.accent);
  }

  /** The real last price as the Heikin-Ashi series' axis tag and line (one price line moved per tick). */
  private applyRealPrice(): void {
    const main = this.main;
    const last = this.candles[this.candles.length - 1];
    if (!main || this.mainType !== 'heikin_ashi' || !last) {
      if (main && this.realPrice) main.removePriceLine(this.realPrice);
      this.realPrice = null;
      return;
    }
    const color = last.close >= last.open ? this.colors.gain : this.colors.loss;
    if (this.realPrice) this.realPrice.applyOptions({ price: last.close, color });
    else this.realPrice = main.createPriceLine({ price: last.close, color, lineWidth: 1, lineStyle: LineStyle.Dotted, axisLabelVisible: true, title: '' });
  }

  /** Price alerts of the pair shown, each a dotted line with its title by the axis. */
  setAlerts(alerts: readonly AlertLine[]): void {
    this.alerts = alerts;
    this.applyAlerts();
  }

  private applyAlerts(): void {
    const main = this.main;
    if (!main) return;
    const wanted = new Map<string, AlertLine>(this.alerts.map((a) => [`${a.id}:${a.price}:${a.title}`, a]));
    for (const [key, line] of this.alertLines) {
      if (!wanted.has(key)) {
        main.removePriceLine(line);
        this.alertLines.delete(key);
      }
    }
    for (const [key, a] of wanted) {
      if (this.alertLines.has(key)) continue;
      this.alertLines.set(key, main.createPriceLine({ price: a.price, color: this.colors.warning, lineWidth: 1, lineStyle: LineStyle.SparseDotted, axisLabelVisible: true, title: a.title }));
    }
  }

  /** The chart point (time, price) under a click on the price pane, or null. */
  pointAt(x: number, y: number, paneIndex: number | undefined): ChartPoint | null {
    if ((paneIndex ?? 0) !== 0 || !this.main) return null;
    const logical = this.chart.timeScale().coordinateToLogical(x);
    const price = this.main.coordinateToPrice(y);
    const t = logical === null ? null : timeOf(this.candles, logical);
    if (t === null || price === null || !Number.isFinite(price) || price < 0) return null;
    return { time: Math.round(t), price: Number(price.toFixed(this.precision)) };
  }
}
