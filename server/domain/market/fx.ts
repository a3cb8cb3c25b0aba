/**
 * One source of prices for money conversions (docs/money.md, "Exchange rates"): a currency's
 * rate against USD is the latest price of a market pair with USD (EUR/USD, USD/JPY inverted,
 * BTC/USD, ...), the same price the chart shows, whether the simulator or the live feed made
 * it; only where no active pair exists (USDT, RUB, ...) or before the pair's first tick is the
 * configured Currency.rate used. A pair an operator disabled still gives its last price (the
 * pairs are indexed once, at the first conversion). A conversion between two non-USD currencies reads their own
 * pair when one exists (EUR/GBP), else crosses through USD.
 *
 * Stale prices: the latest tick is used at any age (a closed market's last price is still the
 * platform's price), with its time, which the wallet shows next to the rate; the configured
 * rate is never mixed in while a pair has a price.
 *
 * Hot path: `perUsd` is a map lookup and the pair's latest tick (memory), no query and no
 * await, so the risk check at placement can call it (bench/risk-check.bench.ts).
 */
import { CURRENCIES, configuredUsdRate, rateVia, type Rate, type RateTable, type UsdRate } from '../../../contract/currencies';
import type { MarketService } from './types';

/** What the areas that convert money need (payments, the risk check). */
export interface FxRates {
  /** Units of `to` per 1 unit of `from`, with its source and time. */
  rate(from: string, to: string): Rate;
  /** Units of the currency per 1 USD (the hot path: the risk check). */
  perUsd(code: string): number;
  /** Every currency against USD (the payment methods payload). */
  table(): RateTable;
}

interface PairLeg {
  pairCode: string;
  human: string;
  /** True for USD/XXX (the price is units of XXX per USD); false for XXX/USD. */
  usdBase: boolean;
}

const CODES = new Set(CURRENCIES.map((c) => c.iso_code));

/** The configured rates only (no market: the operator CLI, unit tests). */
export const configuredFx: FxRates = {
  rate: (from, to) => rateVia({}, from, to),
  perUsd: (code) => configuredUsdRate(code)?.per_usd ?? Number.NaN,
  table: () => tableOf((code) => configuredUsdRate(code) as UsdRate),
};

function tableOf(leg: (code: string) => UsdRate): RateTable {
  const out: RateTable = {};
  for (const c of CURRENCIES) out[c.iso_code] = leg(c.iso_code);
  return out;
}

/** The rate provider over a market's latest ticks. */
export function marketFx(market: Pick<MarketService, 'listPairs' | 'latestTick'>): FxRates {
  let legs: Map<string, PairLeg> | null = null;
  let direct: Map<string, PairLeg> | null = null;
  const index = () => {
    if (legs && direct) return { legs, direct };
    legs = new Map();
    direct = new Map();
    for (const p of market.listPairs()) {
      const [base, quote] = p.pair_human_code.split('/');
      if (!base || !quote || !CODES.has(base) || !CODES.has(quote)) continue;
      direct.set(`${base}/${quote}`, { pairCode: p.pair_code, human: p.pair_human_code, usdBase: false });
      if (quote === 'USD') legs.set(base, { pairCode: p.pair_code, human: p.pair_human_code, usdBase: false });
      else if (base === 'USD') legs.set(quote, { pairCode: p.pair_code, human: p.pair_human_code, usdBase: true });
    }
    return { legs, direct };
  };

  const usdLeg = (code: string): UsdRate => {
    const upper = code.toUpperCase();
    const configured = configuredUsdRate(upper);
    if (!configured) throw new Error(`Unknown currency ${code}`);
    const leg = index().legs.get(upper);
    const tick = leg ? market.latestTick(leg.pairCode) : undefined;
    if (!leg || !tick || !(tick.price > 0)) return configured;
    return { per_usd: leg.usdBase ? tick.price : 1 / tick.price, source: 'pair', pair: leg.human, at: tick.time };
  };

  return {
    rate(from, to) {
      const f = from.toUpperCase();
      const t = to.toUpperCase();
      if (f !== t && f !== 'USD' && t !== 'USD') {
        const { direct: pairs } = index();
        const straight = pairs.get(`${f}/${t}`);
        const inverted = pairs.get(`${t}/${f}`);
        const leg = straight ?? inverted;
        const tick = leg ? market.latestTick(leg.pairCode) : undefined;
        if (leg && tick && tick.price > 0) {
          return { from: f, to: t, rate: straight ? tick.price : 1 / tick.price, source: 'pair', pairs: [leg.human], at: tick.time };
        }
      }
      return rateVia({ [f]: usdLeg(f), [t]: usdLeg(t) }, f, t);
    },
    perUsd: (code) => usdLeg(code).per_usd,
    table: () => tableOf(usdLeg),
  };
}
