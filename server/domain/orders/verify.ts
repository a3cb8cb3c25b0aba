/**
 * Re-checking one order against the tick log and the ledger, from the database alone (the
 * operator CLI runs it while the server may be down): the entry and exit ticks as the log holds
 * them, the close price by the rules (the last logged tick at or before expiry), the outcome and
 * payout that gives (or, for an early close, the fair value at the recorded close moment), and
 * what the ledger actually credited under `order:<id>:settle`.
 *
 * Verdicts: `open` (nothing settled yet), `agrees`, `disagrees` (the log, the rules, the order
 * row and the ledger do not tell the same story), `unverifiable` (the log no longer holds what
 * the check needs, e.g. pruned by retention).
 */
import type { DB, Trx } from '../../db';
import type { OrderResult } from '../../../contract/orders';
import { pairSpec } from '../market/catalogue';
import { prunedFrom, storedTickAtOrBefore, storedTickBySeq } from '../market/tick-log';
import type { Tick } from '../market/types';
import { closeValueAt } from './early-close';
import { stakeKey } from './placement';
import { ledgerSum } from '../ledger';
import { findOrder } from './repository';
import { settleKey, settlementOf } from './settle-order';
import { exitRule } from '../market/exit-rule';
import type { OrderRow } from './wire';

export type Verdict = 'open' | 'agrees' | 'disagrees' | 'unverifiable';

export interface OrderCheck {
  row: OrderRow;
  entry: { recorded: Tick; logged: Tick | undefined };
  exit: { recorded: Tick | null; logged: Tick | undefined };
  /** The last logged tick at or before expiry (not older than the entry): the close price by the rules. */
  closeTick: Tick | undefined;
  /** What the rules give from the log (null when it cannot be recomputed). */
  expected: { result: OrderResult; payout: number } | null;
  /** Minor units the ledger debited for the stake (positive) and credited at settlement. */
  staked: number;
  paid: number;
  /** Retention (TICK_RETENTION_HOURS) deleted ticks of the order's span. */
  pruned: boolean;
  verdict: Verdict;
  /** Each disagreement or gap, in plain words. */
  findings: string[];
}

const sameTick = (a: Pick<Tick, 'seq' | 'price'> | null | undefined, b: Pick<Tick, 'seq' | 'price'> | null | undefined) =>
  !!a && !!b && a.seq === b.seq && a.price === b.price;

/**
 * Check one order; null when there is no such order. `staleLimitMs`: the pair's stale-quote
 * limit (STALE_QUOTE_MS), which the exit rule needs (market/exit-rule.ts).
 */
export async function checkOrder(
  db: DB | Trx,
  orderId: number,
  nowMs: number,
  retentionHours: number,
  staleLimitMs: number = Number.POSITIVE_INFINITY,
): Promise<OrderCheck | null> {
  const row = await findOrder(db, orderId);
  if (!row) return null;
  const pair = row.pair_code;
  const entry: Tick = { pair_code: pair, seq: Number(row.entry_tick_seq), time: Number(row.entry_tick_time), price: Number(row.open_price) };
  const exit: Tick | null =
    row.exit_tick_seq === null || row.exit_tick_time === null || row.close_price === null
      ? null
      : { pair_code: pair, seq: Number(row.exit_tick_seq), time: Number(row.exit_tick_time), price: Number(row.close_price) };
  const expiresAt = Number(row.expires_at);
  // As the settlement does: a tick older than the entry tick is not the order's close price.
  const atExpiry = await storedTickAtOrBefore(db, pair, expiresAt);
  const check: OrderCheck = {
    row,
    entry: { recorded: entry, logged: await storedTickBySeq(db, pair, entry.seq) },
    exit: { recorded: exit, logged: exit ? await storedTickBySeq(db, pair, exit.seq) : undefined },
    closeTick: atExpiry && atExpiry.seq >= entry.seq ? atExpiry : undefined,
    expected: null,
    staked: -(await ledgerSum(db, stakeKey(orderId))),
    paid: await ledgerSum(db, settleKey(orderId)),
    pruned: await prunedFrom(db, pair, entry.seq, nowMs - retentionHours * 3_600_000),
    verdict: 'agrees',
    findings: [],
  };
  const disagree = (text: string) => check.findings.push(`DISAGREES: ${text}`);
  const unknown = (text: string) => check.findings.push(`CANNOT CHECK: ${text}`);
  const gone = check.pruned ? ' (pruned by retention)' : '';

  if (check.staked !== Number(row.stake)) disagree(`the ledger debited ${check.staked} for the stake, the order says ${Number(row.stake)} (minor units)`);
  if (!check.entry.logged) unknown(`the entry tick seq ${entry.seq} is not in the tick log${gone}`);
  else if (!sameTick(check.entry.logged, entry)) disagree(`the log's tick seq ${entry.seq} has price ${check.entry.logged.price}, the order opened at ${entry.price}`);

  if (row.status === 'open') {
    if (check.paid !== 0) disagree(`the order is open but the ledger credited ${check.paid} under ${settleKey(orderId)}`);
    if (nowMs >= expiresAt && check.closeTick) check.expected = settlementOf(row, check.closeTick);
  } else if (row.result === 'closed_early') {
    const spec = pairSpec(pair);
    if (!exit) disagree('closed early without an exit tick');
    else if (!check.exit.logged) unknown(`the exit tick seq ${exit.seq} is not in the tick log${gone}`);
    else if (!sameTick(check.exit.logged, exit)) disagree(`the log's tick seq ${exit.seq} has price ${check.exit.logged.price}, the order closed at ${exit.price}`);
    if (exit && !spec) unknown(`no volatility known for ${pair}`);
    if (exit && spec && row.closed_at !== null) {
      // The value the close paid: priced on the logged tick at the recorded moment of the close.
      const spot = check.exit.logged?.price ?? exit.price;
      check.expected = { result: 'closed_early', payout: closeValueAt(row, spot, spec.sigma, Number(row.closed_at)) };
    }
  } else {
    // Settled at expiry (won, lost, tie) or refunded for want of a trusted price (the exit rule).
    const decision = check.closeTick ? exitRule([check.closeTick], expiresAt, staleLimitMs, entry.seq) : null;
    if (decision?.rule === 'stale_at_expiry') {
      check.expected = settlementOf(row, undefined);
      if (row.result !== 'refunded') disagree(`the last logged tick at or before expiry (seq ${check.closeTick!.seq}) is older than the ${staleLimitMs} ms stale limit: the rule refunds, the order says ${row.result}`);
    } else if (!check.closeTick) {
      if (row.result === 'refunded' && !check.pruned) check.expected = settlementOf(row, undefined);
      else unknown(`the log holds no tick at or before expiry${gone}`);
    } else {
      check.expected = settlementOf(row, check.closeTick);
      if (row.result === 'refunded') disagree(`refunded for want of a price, but the log has seq ${check.closeTick.seq} at or before expiry`);
      else if (!sameTick(check.closeTick, exit)) {
        disagree(`the last logged tick at or before expiry is seq ${check.closeTick.seq} at ${check.closeTick.price}, the order recorded ${exit ? `seq ${exit.seq} at ${exit.price}` : 'none'}`);
      }
    }
  }

  if (check.expected && row.status === 'closed') {
    const recordedPayout = Number(row.payout ?? 0);
    if (check.expected.result !== row.result) disagree(`the rules give ${check.expected.result}, the order says ${row.result}`);
    if (check.expected.payout !== recordedPayout) disagree(`the rules give a payout of ${check.expected.payout}, the order says ${recordedPayout} (minor units)`);
  }
  if (row.status === 'closed' && check.paid !== Number(row.payout ?? 0)) {
    disagree(`the ledger credited ${check.paid} under ${settleKey(orderId)}, the order says ${Number(row.payout ?? 0)} (minor units)`);
  }

  if (check.findings.some((f) => f.startsWith('DISAGREES'))) check.verdict = 'disagrees';
  else if (row.status === 'open') check.verdict = 'open';
  else if (check.findings.length > 0) check.verdict = 'unverifiable';
  return check;
}
