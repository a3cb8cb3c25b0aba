/**
 * The trader's orders drawn on the price pane (issue 26 item 2), a series primitive on the
 * price series (lightweight-charts v5 plugins): for each open order a line at its entry price
 * from its entry time to its expiry, a dot at the entry, a dashed vertical line at the expiry
 * and a thin connector to its label; for each settled order a filled dot where it ended (exit
 * time and price) in the win/loss colour.
 *
 * The labels themselves (text, readable by screen readers and tests) are DOM elements over the
 * canvas (OrderMarks.tsx). Their places are computed here, in `updateAllViews`, which the chart
 * calls before every redraw (a tick, a scroll, a zoom, a price-scale change), and handed to
 * `onLayout`: canvas and labels always agree, and nothing polls.
 */
import type {
  IPrimitivePaneRenderer,
  IPrimitivePaneView,
  ISeriesPrimitive,
  Logical,
  SeriesAttachedParameter,
  Time,
} from 'lightweight-charts';
import type { CanvasRenderingTarget2D } from 'fancy-canvas';
import { labelLeft, LABEL_HEIGHT, stackLabels } from './order-marks';

export interface OpenMark {
  id: number;
  direction: 'up' | 'down';
  price: number;
  /** Unix seconds. */
  entryTime: number;
  expiryTime: number;
}

export interface SettledMark {
  id: number;
  kind: 'win' | 'loss' | 'tie';
  price: number;
  /** Unix seconds. */
  time: number;
}

export interface MarkColors {
  gain: string;
  loss: string;
  text: string;
}

export interface PlacedLabel {
  left: number;
  top: number;
  /** False when the entry is out of view (the label stays, pinned to the edge). */
  inView: boolean;
}

export interface MarksLayout {
  open: Map<number, PlacedLabel>;
  /** The exit point of each settled order in view. */
  settled: Map<number, { x: number; y: number }>;
  /** The price pane's width (CSS px, the price scale excluded). */
  width: number;
  /** The price pane's height (CSS px). */
  height: number;
}

const DEFAULT_LABEL_WIDTH = 140;

interface OpenGeometry {
  mark: OpenMark;
  entryX: number | null;
  expiryX: number | null;
  y: number | null;
  label: PlacedLabel;
}

export class OrderMarksLayer implements ISeriesPrimitive<Time> {
  private attachedTo: SeriesAttachedParameter<Time> | null = null;
  private open: OpenMark[] = [];
  private settled: SettledMark[] = [];
  private colors: MarkColors = { gain: 'transparent', loss: 'transparent', text: 'transparent' };
  private geometry: OpenGeometry[] = [];
  private settledPoints: { mark: SettledMark; x: number; y: number }[] = [];
  private readonly view: IPrimitivePaneView;
  /** The labels' measured widths (CSS px), given back by the view that draws them. */
  readonly labelWidths = new Map<number, number>();
  /** Called before each redraw with the labels' places. */
  onLayout: (layout: MarksLayout) => void = () => {};

  /** `logicalOf` gives a time's index on the time scale (chart-layers.ts). */
  constructor(private readonly logicalOf: (time: number) => number | null) {
    const renderer: IPrimitivePaneRenderer = { draw: (target) => this.draw(target) };
    this.view = { renderer: () => renderer, zOrder: () => 'top' };
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

  set(open: OpenMark[], settled: SettledMark[]): void {
    this.open = open;
    this.settled = settled;
    this.attachedTo?.requestUpdate();
  }

  setColors(colors: MarkColors): void {
    this.colors = colors;
    this.attachedTo?.requestUpdate();
  }

  /** Ask for a redraw (a label's width changed). */
  refresh(): void {
    this.attachedTo?.requestUpdate();
  }

  private x(time: number): number | null {
    const a = this.attachedTo;
    if (!a) return null;
    const logical = this.logicalOf(time);
    if (logical === null) return null;
    // logicalToCoordinate takes a bar index (a fractional one gives 0): between two bars, interpolate.
    const scale = a.chart.timeScale();
    const i = Math.floor(logical);
    const left = scale.logicalToCoordinate(i as Logical);
    const right = scale.logicalToCoordinate((i + 1) as Logical);
    return left === null || right === null ? null : left + (logical - i) * (right - left);
  }

  updateAllViews(): void {
    const a = this.attachedTo;
    if (!a) return;
    const width = a.chart.timeScale().width();
    const height = a.chart.panes()[0]?.getHeight() ?? 0;
    const raw = this.open.map((mark) => ({ mark, entryX: this.x(mark.entryTime), expiryX: this.x(mark.expiryTime), y: a.series.priceToCoordinate(mark.price) }));
    const tops = stackLabels(
      raw.map((r) => ({ id: r.mark.id, y: r.y })),
      height,
    );
    this.geometry = raw.map((r) => {
      const w = this.labelWidths.get(r.mark.id) ?? DEFAULT_LABEL_WIDTH;
      const inView = r.entryX !== null && r.entryX >= 0 && r.entryX <= width && r.y !== null && r.y >= 0 && r.y <= height;
      return { ...r, label: { left: labelLeft(r.entryX === null ? null : Math.min(width, Math.max(w + 10, r.entryX)), w, width), top: tops.get(r.mark.id) ?? 0, inView } };
    });
    this.settledPoints = [];
    for (const mark of this.settled) {
      const x = this.x(mark.time);
      const y = a.series.priceToCoordinate(mark.price);
      if (x === null || y === null || x < 0 || x > width || y < 0 || y > height) continue;
      this.settledPoints.push({ mark, x, y });
    }
    this.onLayout({
      open: new Map(this.geometry.map((g) => [g.mark.id, g.label])),
      settled: new Map(this.settledPoints.map((p) => [p.mark.id, { x: p.x, y: p.y }])),
      width,
      height,
    });
  }

  private color(kind: 'up' | 'down' | 'win' | 'loss' | 'tie'): string {
    return kind === 'up' || kind === 'win' ? this.colors.gain : kind === 'down' || kind === 'loss' ? this.colors.loss : this.colors.text;
  }

  private draw(target: CanvasRenderingTarget2D): void {
    const geometry = this.geometry;
    const settled = this.settledPoints;
    target.useBitmapCoordinateSpace(({ context: ctx, horizontalPixelRatio: hr, verticalPixelRatio: vr, bitmapSize }) => {
      const line = Math.max(1, Math.round(hr));
      // Expiry lines first (under everything), each time once.
      // Expiries a few pixels apart (orders placed seconds apart) share one line.
      const expiries = new Map<number, string>();
      for (const g of geometry) {
        if (g.expiryX === null) continue;
        const x = Math.round(g.expiryX * hr);
        let near = false;
        for (const drawn of expiries.keys()) if (Math.abs(drawn - x) < 6 * hr) near = true;
        if (!near) expiries.set(x, this.color(g.mark.direction));
      }
      ctx.lineWidth = line;
      ctx.setLineDash([4 * hr, 4 * hr]);
      for (const [x, color] of expiries) {
        ctx.strokeStyle = color;
        ctx.globalAlpha = 0.8;
        ctx.beginPath();
        ctx.moveTo(x + 0.5, 0);
        ctx.lineTo(x + 0.5, bitmapSize.height);
        ctx.stroke();
      }
      ctx.setLineDash([]);
      ctx.globalAlpha = 1;
      for (const g of geometry) {
        if (g.y === null) continue;
        const color = this.color(g.mark.direction);
        const y = Math.round(g.y * vr) + 0.5;
        const x0 = g.entryX === null ? 0 : g.entryX * hr;
        const x1 = g.expiryX === null ? bitmapSize.width : g.expiryX * hr;
        ctx.strokeStyle = color;
        ctx.fillStyle = color;
        ctx.lineWidth = Math.max(1, Math.round(1.5 * hr));
        ctx.beginPath();
        ctx.moveTo(x0, y);
        ctx.lineTo(x1, y);
        ctx.stroke();
        // The connector from the label's right edge to the entry point.
        const labelY = (g.label.top + LABEL_HEIGHT / 2) * vr;
        const labelX = (g.label.left + (this.labelWidths.get(g.mark.id) ?? DEFAULT_LABEL_WIDTH)) * hr;
        ctx.lineWidth = line;
        ctx.globalAlpha = 0.7;
        ctx.beginPath();
        ctx.moveTo(labelX, labelY);
        ctx.lineTo(x0, y);
        ctx.stroke();
        ctx.globalAlpha = 1;
        ctx.beginPath();
        ctx.arc(x0, y, 3.5 * hr, 0, Math.PI * 2);
        ctx.fill();
      }
      for (const p of settled) {
        ctx.fillStyle = this.color(p.mark.kind);
        ctx.strokeStyle = this.colors.text;
        ctx.lineWidth = line;
        ctx.beginPath();
        ctx.arc(p.x * hr, p.y * vr, 5 * hr, 0, Math.PI * 2);
        ctx.fill();
        ctx.stroke();
      }
    });
  }
}
