/**
 * The chart's order marks (issue 26 item 2; src/features/trading/chart/order-marks.ts): which
 * orders are drawn, the labels' stacking (ten orders at about one price never overlap), the
 * countdown and the live result's sign; the orders machine keeps the settled ones for the
 * markers; a fired alert's prices are formatted in the reader's language.
 */
import { describe, expect, it } from 'vitest';
import {
  compactLabels,
  countdownText,
  exitPrice,
  exitTimeMs,
  labelLeft,
  LABEL_GAP,
  LABEL_HEIGHT,
  liveResult,
  ordersOnChart,
  settledKind,
  settledOnChart,
  SETTLED_MARKS,
  stackLabels,
} from '../../src/features/trading/chart/order-marks';
import { rememberSettled, REMEMBERED_ORDERS } from '../../machines/orders/orders.machine';
import { firedToast } from '../../machines/price-alerts/price-alerts.machine';
import { createI18n } from '../../src/i18n';
import { makeOrder, settled } from '../machines/trading-fixtures';

function overlaps(tops: number[], height: number): boolean {
  const sorted = [...tops].sort((a, b) => a - b);
  return sorted.some((top, i) => i > 0 && top < sorted[i - 1] + height);
}

describe('which orders are drawn', () => {
  it('draws only the open orders of the pair shown, oldest first', () => {
    const a = makeOrder({ order_id: 1, created_at_ms: 3000 });
    const b = makeOrder({ order_id: 2, created_at_ms: 1000 });
    const other = makeOrder({ order_id: 3, pair_code: 'BTCUSD', pair: 'BTCUSD' });
    const closed = settled(makeOrder({ order_id: 4 }), 'won', 19.2);
    expect(ordersOnChart([a, b, other, closed], 'EURUSD').map((o) => o.order_id)).toEqual([2, 1]);
    expect(ordersOnChart([a, b], 'BTCUSD')).toEqual([]);
    expect(ordersOnChart([a, b], null)).toEqual([]);
  });

  it('marks the newest settled orders of the pair that have an exit, at most SETTLED_MARKS', () => {
    const many = Array.from({ length: SETTLED_MARKS + 3 }, (_, i) => {
      const o = settled(makeOrder({ order_id: 100 + i }), 'won', 19.2);
      return { ...o, exit_tick: { time: 1_000_000 + i * 1000, seq: i, price: 1.161 } };
    });
    const elsewhere = settled(makeOrder({ order_id: 7, pair_code: 'BTCUSD' }), 'lost', 0);
    const noExit = { ...settled(makeOrder({ order_id: 8 }), 'refunded', 10), close_time: null, close_price: null };
    const drawn = settledOnChart([...many, elsewhere, noExit], 'EURUSD');
    expect(drawn).toHaveLength(SETTLED_MARKS);
    expect(drawn[0].order_id).toBe(100 + SETTLED_MARKS + 2);
    expect(drawn.some((o) => o.order_id === 7 || o.order_id === 8)).toBe(false);
  });

  it('puts a settled marker at the exit tick, else at the close time and price', () => {
    const o = settled(makeOrder({ open_price: 1.16 }), 'won', 19.2);
    expect(exitTimeMs(o)).toBe(o.expires_at * 1000);
    expect(exitPrice(o)).toBe(1.16);
    const withTick = { ...o, close_price: 1.17, exit_tick: { time: 5_000, seq: 9, price: 1.17 } };
    expect(exitTimeMs(withTick)).toBe(5_000);
    expect(exitPrice(withTick)).toBe(1.17);
    expect(settledKind(settled(makeOrder(), 'won', 19.2))).toBe('win');
    expect(settledKind(settled(makeOrder(), 'lost', 0))).toBe('loss');
    expect(settledKind(settled(makeOrder(), 'tie', 10))).toBe('tie');
    expect(settledKind(settled(makeOrder(), 'closed_early', 4))).toBe('loss');
    expect(settledKind(settled(makeOrder(), 'closed_early', 12))).toBe('win');
  });

  it('the orders machine keeps the settled orders, newest first, once each, at most REMEMBERED_ORDERS', () => {
    const a = settled(makeOrder({ order_id: 1 }), 'won', 19.2);
    const b = settled(makeOrder({ order_id: 2 }), 'lost', 0);
    expect(rememberSettled(rememberSettled([], a), b).map((o) => o.order_id)).toEqual([2, 1]);
    expect(rememberSettled([b, a], a).map((o) => o.order_id)).toEqual([1, 2]);
    expect(rememberSettled([a], makeOrder({ order_id: 3 }))).toEqual([a]);
    let list: ReturnType<typeof rememberSettled> = [];
    for (let i = 0; i < REMEMBERED_ORDERS + 5; i += 1) list = rememberSettled(list, settled(makeOrder({ order_id: 1000 + i }), 'won', 19.2));
    expect(list).toHaveLength(REMEMBERED_ORDERS);
  });
});

describe('label stacking', () => {
  it('centres a lone label on its entry price', () => {
    expect(stackLabels([{ id: 1, y: 100 }], 300).get(1)).toBe(100 - LABEL_HEIGHT / 2);
  });

  it('stacks ten orders at the same price without overlap, all inside the pane', () => {
    const wanted = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, y: 150 }));
    const tops = [...stackLabels(wanted, 300).values()];
    expect(tops).toHaveLength(10);
    expect(overlaps(tops, LABEL_HEIGHT + LABEL_GAP)).toBe(false);
    for (const top of tops) {
      expect(top).toBeGreaterThanOrEqual(0);
      expect(top + LABEL_HEIGHT).toBeLessThanOrEqual(300);
    }
  });

  it('keeps ten labels near the bottom edge inside the pane, in price order', () => {
    const wanted = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, y: 290 + i * 0.5 }));
    const tops = stackLabels(wanted, 300);
    const ordered = wanted.map((w) => tops.get(w.id)!);
    expect(ordered).toEqual([...ordered].sort((a, b) => a - b));
    expect(Math.max(...ordered) + LABEL_HEIGHT).toBeLessThanOrEqual(300);
    expect(overlaps(ordered, LABEL_HEIGHT + LABEL_GAP)).toBe(false);
  });

  it('leaves labels far apart where they are, pins an off-scale price to the edge and never overlaps when they cannot all fit', () => {
    const apart = stackLabels([{ id: 1, y: 50 }, { id: 2, y: 200 }], 300);
    expect(apart.get(1)).toBe(50 - LABEL_HEIGHT / 2);
    expect(apart.get(2)).toBe(200 - LABEL_HEIGHT / 2);
    expect(stackLabels([{ id: 1, y: null }], 300).get(1)).toBe(300 - LABEL_HEIGHT);
    expect(stackLabels([{ id: 1, y: -40 }], 300).get(1)).toBe(0);
    const crowded = [...stackLabels(Array.from({ length: 10 }, (_, i) => ({ id: i, y: 60 })), 120).values()];
    expect(overlaps(crowded, LABEL_HEIGHT + LABEL_GAP)).toBe(false);
    expect(Math.min(...crowded)).toBe(0);
  });

  it('ends a label left of its entry point, inside the pane', () => {
    expect(labelLeft(500, 120, 800)).toBe(500 - 10 - 120);
    expect(labelLeft(50, 120, 800)).toBe(0);
    expect(labelLeft(null, 120, 800)).toBe(800 - 10 - 120);
  });
});

describe('label text', () => {
  it('counts down to the expiry and stops at 0:00', () => {
    expect(countdownText(62_000, 0)).toBe('1:02');
    expect(countdownText(3_723_000, 0)).toBe('1:02:03');
    expect(countdownText(1_000, 5_000)).toBe('0:00');
  });

  it('says the result if it closed now: a win plus the profit, a loss minus the stake, a tie zero', () => {
    const up = makeOrder({ direction: 'up', open_price: 1.16, amount: 10, potential_return: 19.2 });
    expect(liveResult(up, 1.16002)).toEqual({ kind: 'win', sign: 'plus', amount: 9.2 });
    expect(liveResult(up, 1.15998)).toEqual({ kind: 'loss', sign: 'minus', amount: -10 });
    expect(liveResult(up, 1.16)).toEqual({ kind: 'tie', sign: 'zero', amount: 0 });
    const down = makeOrder({ direction: 'down', open_price: 1.16, amount: 10, potential_return: 19.2 });
    expect(liveResult(down, 1.15)?.sign).toBe('plus');
    expect(liveResult(down, null)).toBeNull();
  });
});

describe('fired alert toast', () => {
  it('carries the prices as prices, formatted with the pair precision in the reader language', () => {
    const toast = firedToast({
      alert_id: 1,
      pair_code: 'BTCUSD',
      pair_human_code: 'BTC/USD',
      direction: 'above',
      price: 94_700,
      price_text: '94700.00',
      precision: 2,
      created_at_ms: 1,
      fired_at_ms: 2,
      fired_price: 94_788.45,
    });
    const i18n = createI18n({
      en: { alerts: { fired_above: '{{pair}} is above {{level}}: the price is {{price}}' } },
      ru: { alerts: { fired_above: '{{pair}} выше {{level}}: цена {{price}}' } },
    });
    expect(i18n.translate('en', toast.messageKey!, toast.params)).toBe('BTC/USD is above 94,700.00: the price is 94,788.45');
    expect(i18n.translate('ru', toast.messageKey!, toast.params)).toMatch(/^BTC\/USD выше 94\s700,00: цена 94\s788,45$/u);
  });
});

describe('compactLabels (issue 26: ten orders on a phone chart)', () => {
  it('collapses when full labels would cover more than a fifth of the pane, never on a roomy chart', () => {
    // A 390x844 phone's pane is about 300x380: ten full labels would cover ~29 %.
    expect(compactLabels(10, 300, 380)).toBe(true);
    expect(compactLabels(3, 300, 380)).toBe(false);
    // A desktop pane of 1000x600 keeps ten full labels.
    expect(compactLabels(10, 1000, 600)).toBe(false);
    expect(compactLabels(0, 300, 380)).toBe(false);
    expect(compactLabels(5, 0, 0)).toBe(false);
  });
});
