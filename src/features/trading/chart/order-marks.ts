/**
 * What the chart shows of the trader's orders (issue 26 item 2), as pure functions the chart
 * layer (order-marks-layer.ts) and its labels (OrderMarks.tsx) share:
 * - which orders are drawn: the open orders of the pair shown, and the last settled ones of
 *   that pair (a win/loss marker where they ended);
 * - where each open order's label goes: next to its entry point, the labels stacked so that
 *   ten orders at about the same price never overlap (`stackLabels`);
 * - what a label says: direction, stake, the result if it closed now (sign and amount, decided
 *   the way the server settles: order-outcome.ts) and the time left.
 */
import type { Order } from '../../../../contract/orders';
import { formatCountdown } from '../../../i18n/format';
import { outcomeIfEndedNow, type OutcomeKind } from '../order-outcome';

/** A label's height and the least gap between two stacked labels (CSS px; chart-tools.css). */
export const LABEL_HEIGHT = 22;
export const LABEL_GAP = 2;
/** How many settled orders keep a marker on the chart. */
export const SETTLED_MARKS = 10;

/** The open orders of `pairCode`, oldest first (the newest label is drawn last, on top). */
export function ordersOnChart(open: readonly Order[], pairCode: string | null): Order[] {
  if (!pairCode) return [];
  return open.filter((o) => o.status === 'open' && o.pair_code === pairCode).sort((a, b) => a.created_at_ms - b.created_at_ms || a.order_id - b.order_id);
}

/** When a closed order ended (ms): its exit tick, else its close time; null when unknown. */
export function exitTimeMs(order: Order): number | null {
  if (order.exit_tick) return order.exit_tick.time;
  return order.close_time === null ? null : order.close_time * 1000;
}

/** The exit price of a closed order (the price it was settled at), null when it has none (refunded without a price). */
export function exitPrice(order: Order): number | null {
  return order.close_price ?? order.exit_tick?.price ?? null;
}

/** The settled orders of `pairCode` that have an exit to mark, the newest SETTLED_MARKS of them. */
export function settledOnChart(settled: readonly Order[], pairCode: string | null): Order[] {
  if (!pairCode) return [];
  return settled
    .filter((o) => o.status === 'closed' && o.pair_code === pairCode && exitTimeMs(o) !== null && exitPrice(o) !== null)
    .sort((a, b) => (exitTimeMs(b) ?? 0) - (exitTimeMs(a) ?? 0))
    .slice(0, SETTLED_MARKS);
}

/** A settled order's mark: won (profit), lost, or even (tie, refunded, an early close at no gain). */
export function settledKind(order: Order): OutcomeKind {
  const pl = order.profit_loss ?? 0;
  if (order.result === 'won' || (order.result === 'closed_early' && pl > 0)) return 'win';
  if (order.result === 'lost' || (order.result === 'closed_early' && pl < 0)) return 'loss';
  return 'tie';
}

/** The time left as the label shows it ("0:42", "1:02:03"); 0:00 once expired (settling). */
export function countdownText(expiresAtMs: number, nowMs: number): string {
  return formatCountdown(Math.max(0, expiresAtMs - nowMs));
}

export type ResultSign = 'plus' | 'minus' | 'zero';

export interface LiveResult {
  kind: OutcomeKind;
  sign: ResultSign;
  /** The profit of a win (> 0), the stake lost (< 0) or 0, in the order's currency. */
  amount: number;
}

/** What the order would bring if it closed at `price` now (null without a price). */
export function liveResult(order: Order, price: number | null | undefined): LiveResult | null {
  const outcome = outcomeIfEndedNow(order, price);
  if (!outcome) return null;
  return { kind: outcome.kind, amount: outcome.amount, sign: outcome.amount > 0 ? 'plus' : outcome.amount < 0 ? 'minus' : 'zero' };
}

export interface WantedLabel {
  id: number;
  /** The y (CSS px from the pane's top) of the entry price; null when off the scale. */
  y: number | null;
}

/**
 * The top of each label (CSS px from the pane's top) so that none overlaps another: each label
 * is centred on its entry price when it can be, pushed down past the one above it otherwise,
 * and the column is moved back up where it would leave the pane. With more labels than fit,
 * they keep their order and the least gap and run past the bottom rather than overlap.
 * A price off the scale pins its label to the nearer edge.
 */
export function stackLabels(wanted: readonly WantedLabel[], paneHeight: number, height = LABEL_HEIGHT, gap = LABEL_GAP): Map<number, number> {
  const items = wanted
    .map((w) => ({ id: w.id, y: w.y === null || !Number.isFinite(w.y) ? paneHeight : Math.min(paneHeight, Math.max(0, w.y)) }))
    .sort((a, b) => a.y - b.y || a.id - b.id);
  const tops = items.map((i) => i.y - height / 2);
  const step = height + gap;
  // Down: no label above the previous one's bottom.
  for (let i = 1; i < tops.length; i += 1) tops[i] = Math.max(tops[i], tops[i - 1] + step);
  // Up: the last one inside the pane, the others above it.
  if (tops.length > 0) tops[tops.length - 1] = Math.min(tops[tops.length - 1], paneHeight - height);
  for (let i = tops.length - 2; i >= 0; i -= 1) tops[i] = Math.min(tops[i], tops[i + 1] - step);
  // Down again from the top edge (only moves anything when they do not all fit).
  if (tops.length > 0) tops[0] = Math.max(0, tops[0]);
  for (let i = 1; i < tops.length; i += 1) tops[i] = Math.max(tops[i], tops[i - 1] + step);
  return new Map(items.map((item, i) => [item.id, tops[i]]));
}

/** A label's left edge: ending just left of its entry point, kept inside the pane. */
export function labelLeft(entryX: number | null, width: number, paneWidth: number, offset = 10): number {
  const x = entryX === null ? paneWidth : entryX;
  return Math.max(0, Math.min(paneWidth - width, x - offset - width));
}

/** A full label's nominal width (CSS px) for `compactLabels`; a fixed figure, so the choice never flips with the labels' own widths. */
const NOMINAL_LABEL_WIDTH = 140;

/**
 * Whether the open orders' labels collapse to direction and time (issue 26: ten orders on a
 * phone's chart): when full labels would cover more than a fifth of the price pane. The stake
 * and the live result stay in each label's accessible name and in the orders sheet.
 */
export function compactLabels(count: number, paneWidth: number, paneHeight: number): boolean {
  if (count === 0 || paneWidth <= 0 || paneHeight <= 0) return false;
  return count * (LABEL_HEIGHT + LABEL_GAP) * NOMINAL_LABEL_WIDTH > 0.2 * paneWidth * paneHeight;
}
