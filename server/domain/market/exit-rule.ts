/**
 * The one rule for an order's exit price at expiry (docs/trading.md, "Exit price at expiry").
 * Pure: no clock, no database. Settlement, the operator's verify command and the receipt all
 * call it, so they cannot disagree.
 *
 *   1. The candidate is the last tick with time <= expiry (highest seq among equal times) that
 *      is not older than the order's entry tick (seq >= entrySeq).
 *   2. No candidate: the stake is refunded (`no_price_at_expiry`).
 *   3. A candidate older than the pair's stale limit (expiry - time > limitMs): the quotes were
 *      delayed at expiry, the price is not trusted, the stake is refunded (`stale_at_expiry`).
 *   4. Otherwise the order settles on the candidate (`last_tick_at_or_before_expiry`).
 */
import type { Tick } from './types';

export const EXIT_RULES = ['last_tick_at_or_before_expiry', 'stale_at_expiry', 'no_price_at_expiry'] as const;
export type ExitRuleName = (typeof EXIT_RULES)[number];

export type ExitDecision =
  | { tick: Tick; refund: false; rule: 'last_tick_at_or_before_expiry' }
  /** `stale` carries the too-old tick (for the receipt); a refund never uses its price. */
  | { tick: null; refund: true; rule: 'stale_at_expiry'; stale: Tick }
  | { tick: null; refund: true; rule: 'no_price_at_expiry' };

/**
 * Decide the exit of an order expiring at `expiresAt` (ms) from `ticks` (any ticks of the pair;
 * usually just the last one at or before expiry), with the pair's stale limit `limitMs`.
 */
export function exitRule(ticks: readonly Tick[], expiresAt: number, limitMs: number, entrySeq = 0): ExitDecision {
  let best: Tick | undefined;
  for (const t of ticks) {
    if (!t || !(t.time <= expiresAt) || t.seq < entrySeq) continue;
    if (!best || t.time > best.time || (t.time === best.time && t.seq > best.seq)) best = t;
  }
  if (!best) return { tick: null, refund: true, rule: 'no_price_at_expiry' };
  if (expiresAt - best.time > limitMs) return { tick: null, refund: true, rule: 'stale_at_expiry', stale: best };
  return { tick: best, refund: false, rule: 'last_tick_at_or_before_expiry' };
}

/** The order row's close_reason for a decision (the receipt maps it back to the rule). */
export function closeReasonOf(rule: ExitRuleName): 'expiry' | 'stale_quotes_at_expiry' | 'no_price_at_expiry' {
  if (rule === 'last_tick_at_or_before_expiry') return 'expiry';
  if (rule === 'stale_at_expiry') return 'stale_quotes_at_expiry';
  return 'no_price_at_expiry';
}
