/**
 * The house's exposure on open real orders and the per-pair risk limit (docs/money.md, "Risk
 * limit per pair").
 *
 * Worst case of a pair: whatever the price does, either every `up` order wins or every `down`
 * order wins (a tie refunds everything and costs nothing). The house already holds every stake,
 * so if direction d wins it loses payouts(d) - stakes(all). The worst case is the larger of the
 * two, counted in USD cents at the market's rates (server/domain/market/fx.ts `perUsd`: the
 * latest price of the currency's pair with USD, the configured Currency.rate where none exists;
 * docs/money.md "Exchange rates"), rounded up: a risk measure, never an amount that is posted.
 * The rate is a memory read (no query, no await): placement stays as fast as before.
 *
 * The limit: the pair's row in `risk_limits` (set by the operator), else the configured default
 * (RISK_MAX_PAIR_LOSS_USD). `checkPairRisk` runs inside placement's write transaction, before
 * the order row and the stake, and reads `pair_exposure` (open real orders per pair, direction
 * and currency, kept by triggers on `orders`, migration 008: 2 rows per currency by primary key)
 * and one row of `risk_limits` by primary key: its cost does not grow with the open orders. The
 * `exposure` view aggregates the orders themselves; `exposureDrift` compares the two. The
 * queries, and the operator's reads and writes of `risk_limits`, are in repository.ts.
 */
import { findCurrency } from '../../../contract/currencies';
import { ORDER_DIRECTIONS, OrderErrorText, type OrderDirection } from '../../../contract/orders';
import { dialectOf, type Trx } from '../../db';
import { conflict } from '../errors';
import { lockPairRow } from '../market/repository';
import { keptAggregates, openAggregates, riskLimitOf, type AggregateRow } from './repository';

/** Default maximum worst-case house loss per pair, whole USD (config RISK_MAX_PAIR_LOSS_USD). */
export const DEFAULT_RISK_MAX_PAIR_LOSS_USD = 50_000;

export interface DirectionExposure {
  count: number;
  /** Minor units per currency. */
  stakes: Record<string, number>;
  /** What the orders pay if they win (stake x (1 + payout rate), toward zero), minor units per currency. */
  payouts: Record<string, number>;
}

export interface PairExposure {
  pair: string;
  directions: Record<OrderDirection, DirectionExposure>;
  /** The house's loss if the worse direction wins, USD cents (0 when neither direction loses money). */
  worst_case_usd_minor: number;
  limit_usd_minor: number;
}

/**
 * Rows where the trigger-kept `pair_exposure` differs from the open orders themselves (should
 * be none; the books tests check it after every operation).
 */
export async function exposureDrift(trx: Trx): Promise<{ key: string; kept: string; orders: string }[]> {
  const fmt = (r: AggregateRow | undefined) => (r ? `${r.n} orders, stakes ${r.stakes}, payouts ${r.payouts}` : 'none');
  const key = (r: AggregateRow) => `${r.pair_code} ${r.direction} ${r.currency}`;
  const kept = new Map((await keptAggregates(trx)).map((r) => [key(r), r]));
  const actual = new Map((await openAggregates(trx)).map((r) => [key(r), r]));
  const out: { key: string; kept: string; orders: string }[] = [];
  for (const k of new Set([...kept.keys(), ...actual.keys()])) {
    const a = kept.get(k);
    const b = actual.get(k);
    if (a?.n !== b?.n || a?.stakes !== b?.stakes || a?.payouts !== b?.payouts) out.push({ key: k, kept: fmt(a), orders: fmt(b) });
  }
  return out;
}

const emptyDirection = (): DirectionExposure => ({ count: 0, stakes: {}, payouts: {} });

/** Units of a currency per 1 USD (the market's rate provider; the configured rates by default). */
export type PerUsd = (currency: string) => number;

const configuredPerUsd: PerUsd = (currency) => {
  const cur = findCurrency(currency);
  if (!cur) throw new Error(`Unknown currency ${currency}`);
  return cur.rate;
};

function toUsdCents(minor: number, currency: string, perUsd: PerUsd): number {
  const cur = findCurrency(currency);
  if (!cur) throw new Error(`Unknown currency ${currency}`);
  return (minor * 100) / (10 ** cur.decimals * perUsd(cur.iso_code));
}

/** The worst case of one pair's directions, USD cents, rounded up; never below 0. */
export function worstCaseUsdMinor(directions: Record<OrderDirection, DirectionExposure>, perUsd: PerUsd = configuredPerUsd): number {
  const stakesByCurrency: Record<string, number> = {};
  for (const d of ORDER_DIRECTIONS) {
    for (const [c, s] of Object.entries(directions[d].stakes)) stakesByCurrency[c] = (stakesByCurrency[c] ?? 0) + s;
  }
  let worst = 0;
  for (const d of ORDER_DIRECTIONS) {
    let loss = 0;
    for (const [c, staked] of Object.entries(stakesByCurrency)) loss += toUsdCents((directions[d].payouts[c] ?? 0) - staked, c, perUsd);
    worst = Math.max(worst, loss);
  }
  // Float error of the conversion must not add a cent to an exact figure.
  return Math.max(0, Math.ceil(worst - 1e-6));
}

/** The limit of a pair, USD cents: the operator's override, else the default. */
export async function pairLimitUsdMinor(trx: Trx, pairCode: string, defaultUsd: number): Promise<number> {
  const row = await riskLimitOf(trx, pairCode);
  return row ? Number(row.max_loss_usd_minor) : defaultUsd * 100;
}

function byPair(rows: AggregateRow[]): Map<string, Record<OrderDirection, DirectionExposure>> {
  const out = new Map<string, Record<OrderDirection, DirectionExposure>>();
  for (const r of rows) {
    let dirs = out.get(r.pair_code);
    if (!dirs) out.set(r.pair_code, (dirs = { up: emptyDirection(), down: emptyDirection() }));
    const d = dirs[r.direction as OrderDirection];
    if (!d) continue;
    d.count += r.n;
    d.stakes[r.currency] = (d.stakes[r.currency] ?? 0) + r.stakes;
    d.payouts[r.currency] = (d.payouts[r.currency] ?? 0) + r.payouts;
  }
  return out;
}

/** Every pair with open real orders: per direction count, stakes, potential payouts; worst case and limit. */
export async function readExposure(trx: Trx, defaultUsd: number, perUsd: PerUsd = configuredPerUsd): Promise<PairExposure[]> {
  const pairs = byPair(await openAggregates(trx));
  const out: PairExposure[] = [];
  for (const [pair, directions] of [...pairs].sort(([a], [b]) => a.localeCompare(b))) {
    out.push({ pair, directions, worst_case_usd_minor: worstCaseUsdMinor(directions, perUsd), limit_usd_minor: await pairLimitUsdMinor(trx, pair, defaultUsd) });
  }
  return out;
}

export interface NewOrderRisk {
  pairCode: string;
  direction: OrderDirection;
  /** `real` or `demo` (ledger account); demo orders are not checked. */
  account: string;
  currency: string;
  stake: number;
  payoutRateBp: number;
}

/**
 * Refuse (409, OrderErrorText.riskLimit) a real order that would make its pair's worst case
 * larger than the pair's limit and larger than it already is. Call inside the placement
 * transaction, before anything is written.
 */
export async function checkPairRisk(
  trx: Trx,
  order: NewOrderRisk,
  defaultUsd = DEFAULT_RISK_MAX_PAIR_LOSS_USD,
  perUsd: PerUsd = configuredPerUsd,
): Promise<void> {
  if (order.account !== 'real') return;
  // PostgreSQL: real placements on one pair take its row lock first, so two of them never both
  // pass the check on the same exposure (SQLite's BEGIN IMMEDIATE already runs them one by one).
  if (dialectOf(trx) === 'postgres') await lockPairRow(trx, order.pairCode);
  const directions = byPair(await keptAggregates(trx, order.pairCode)).get(order.pairCode) ?? { up: emptyDirection(), down: emptyDirection() };
  const before = worstCaseUsdMinor(directions, perUsd);
  const d = directions[order.direction];
  const payout = order.stake + Math.floor((order.stake * order.payoutRateBp) / 10_000);
  const after = worstCaseUsdMinor({
    ...directions,
    [order.direction]: {
      count: d.count + 1,
      stakes: { ...d.stakes, [order.currency]: (d.stakes[order.currency] ?? 0) + order.stake },
      payouts: { ...d.payouts, [order.currency]: (d.payouts[order.currency] ?? 0) + payout },
    },
  }, perUsd);
  if (after <= before) return;
  const limit = await pairLimitUsdMinor(trx, order.pairCode, defaultUsd);
  if (after > limit) throw conflict(OrderErrorText.riskLimit);
}
