/**
 * The pair catalogue: every tradable pair with its display name, category, quote precision,
 * default payout and the simulator's model parameters (reference price and annualised
 * volatility). The catalogue is code; `seedPairs` (repository.ts) copies it into the `pairs`
 * table, where an operator may later change payout_rate / is_active without touching the
 * simulator parameters; `operatedPair` reads a row of that table back as the wire Pair.
 */
import * as v from 'valibot';
import { TIMEFRAMES, TimeframeSchema, type Timeframe } from '../../../contract/user';
import type { Pair, PairCategory } from '../../../contract/market';

export interface PairSpec {
  pair_code: string;
  pair_human_code: string;
  category: PairCategory;
  /** Digits after the decimal point of every quote. */
  precision: number;
  /** Default payout on a win (fraction of the stake), 0.70 .. 0.92. */
  payout_rate: number;
  /** False for pairs listed but not tradable (exercises "active unless explicitly false"). */
  is_active: boolean;
  /** Reference price: where a fresh simulator starts and what its mean reversion pulls towards. */
  start_price: number;
  /** Annualised volatility of the log price. */
  sigma: number;
}

// Precision: 5 for forex, 3 for JPY pairs; crypto by price level (>= 100: 2, >= 10: 3, >= 1: 4,
// below: 5); 2 for stocks and commodities, except silver and natural gas which trade in
// thousandths (at 2 decimals their quotes would stand still for seconds at a time).
export const CATALOGUE: readonly PairSpec[] = [
  // ---- forex majors (sigma 7-10 %) -------------------------------------------------------
  { pair_code: 'EURUSD', pair_human_code: 'EUR/USD', category: 'forex', precision: 5, payout_rate: 0.92, is_active: true, start_price: 1.16, sigma: 0.07 },
  { pair_code: 'GBPUSD', pair_human_code: 'GBP/USD', category: 'forex', precision: 5, payout_rate: 0.9, is_active: true, start_price: 1.33, sigma: 0.08 },
  { pair_code: 'USDJPY', pair_human_code: 'USD/JPY', category: 'forex', precision: 3, payout_rate: 0.9, is_active: true, start_price: 152.5, sigma: 0.09 },
  { pair_code: 'USDCHF', pair_human_code: 'USD/CHF', category: 'forex', precision: 5, payout_rate: 0.88, is_active: true, start_price: 0.8, sigma: 0.08 },
  { pair_code: 'AUDUSD', pair_human_code: 'AUD/USD', category: 'forex', precision: 5, payout_rate: 0.88, is_active: true, start_price: 0.65, sigma: 0.09 },
  { pair_code: 'USDCAD', pair_human_code: 'USD/CAD', category: 'forex', precision: 5, payout_rate: 0.88, is_active: true, start_price: 1.4, sigma: 0.07 },
  { pair_code: 'NZDUSD', pair_human_code: 'NZD/USD', category: 'forex', precision: 5, payout_rate: 0.86, is_active: true, start_price: 0.57, sigma: 0.1 },
  // ---- forex crosses (sigma ~10 %) -------------------------------------------------------
  { pair_code: 'EURGBP', pair_human_code: 'EUR/GBP', category: 'forex', precision: 5, payout_rate: 0.86, is_active: true, start_price: 0.87, sigma: 0.09 },
  { pair_code: 'EURJPY', pair_human_code: 'EUR/JPY', category: 'forex', precision: 3, payout_rate: 0.86, is_active: true, start_price: 176.5, sigma: 0.1 },
  { pair_code: 'GBPJPY', pair_human_code: 'GBP/JPY', category: 'forex', precision: 3, payout_rate: 0.85, is_active: true, start_price: 202.8, sigma: 0.11 },
  { pair_code: 'EURCHF', pair_human_code: 'EUR/CHF', category: 'forex', precision: 5, payout_rate: 0.84, is_active: true, start_price: 0.93, sigma: 0.1 },
  { pair_code: 'AUDJPY', pair_human_code: 'AUD/JPY', category: 'forex', precision: 3, payout_rate: 0.84, is_active: true, start_price: 99.2, sigma: 0.11 },
  { pair_code: 'EURAUD', pair_human_code: 'EUR/AUD', category: 'forex', precision: 5, payout_rate: 0.83, is_active: true, start_price: 1.78, sigma: 0.1 },
  { pair_code: 'GBPCHF', pair_human_code: 'GBP/CHF', category: 'forex', precision: 5, payout_rate: 0.83, is_active: true, start_price: 1.06, sigma: 0.1 },
  { pair_code: 'CADJPY', pair_human_code: 'CAD/JPY', category: 'forex', precision: 3, payout_rate: 0.82, is_active: true, start_price: 108.9, sigma: 0.1 },
  // An exotic listed for display but closed for trading.
  { pair_code: 'USDTRY', pair_human_code: 'USD/TRY', category: 'forex', precision: 4, payout_rate: 0.7, is_active: false, start_price: 42.1, sigma: 0.15 },
  // ---- crypto (sigma 60-90 %) ------------------------------------------------------------
  { pair_code: 'BTCUSD', pair_human_code: 'BTC/USD', category: 'crypto', precision: 2, payout_rate: 0.85, is_active: true, start_price: 95000, sigma: 0.6 },
  { pair_code: 'ETHUSD', pair_human_code: 'ETH/USD', category: 'crypto', precision: 2, payout_rate: 0.85, is_active: true, start_price: 3200, sigma: 0.7 },
  { pair_code: 'BNBUSD', pair_human_code: 'BNB/USD', category: 'crypto', precision: 2, payout_rate: 0.82, is_active: true, start_price: 900, sigma: 0.65 },
  { pair_code: 'SOLUSD', pair_human_code: 'SOL/USD', category: 'crypto', precision: 2, payout_rate: 0.82, is_active: true, start_price: 140, sigma: 0.85 },
  { pair_code: 'XRPUSD', pair_human_code: 'XRP/USD', category: 'crypto', precision: 4, payout_rate: 0.8, is_active: true, start_price: 2.2, sigma: 0.8 },
  { pair_code: 'LTCUSD', pair_human_code: 'LTC/USD', category: 'crypto', precision: 3, payout_rate: 0.8, is_active: true, start_price: 95, sigma: 0.75 },
  { pair_code: 'ADAUSD', pair_human_code: 'ADA/USD', category: 'crypto', precision: 5, payout_rate: 0.8, is_active: true, start_price: 0.45, sigma: 0.85 },
  { pair_code: 'DOGEUSD', pair_human_code: 'DOGE/USD', category: 'crypto', precision: 5, payout_rate: 0.78, is_active: true, start_price: 0.16, sigma: 0.9 },
  { pair_code: 'DOTUSD', pair_human_code: 'DOT/USD', category: 'crypto', precision: 4, payout_rate: 0.78, is_active: true, start_price: 2.6, sigma: 0.85 },
  { pair_code: 'AVAXUSD', pair_human_code: 'AVAX/USD', category: 'crypto', precision: 3, payout_rate: 0.78, is_active: true, start_price: 14.5, sigma: 0.9 },
  // ---- large US stocks (sigma 25-45 %) ---------------------------------------------------
  { pair_code: 'AAPL', pair_human_code: 'Apple', category: 'stocks', precision: 2, payout_rate: 0.82, is_active: true, start_price: 270, sigma: 0.25 },
  { pair_code: 'MSFT', pair_human_code: 'Microsoft', category: 'stocks', precision: 2, payout_rate: 0.82, is_active: true, start_price: 500, sigma: 0.25 },
  { pair_code: 'NVDA', pair_human_code: 'NVIDIA', category: 'stocks', precision: 2, payout_rate: 0.8, is_active: true, start_price: 185, sigma: 0.45 },
  { pair_code: 'AMZN', pair_human_code: 'Amazon', category: 'stocks', precision: 2, payout_rate: 0.8, is_active: true, start_price: 225, sigma: 0.3 },
  { pair_code: 'GOOGL', pair_human_code: 'Alphabet', category: 'stocks', precision: 2, payout_rate: 0.8, is_active: true, start_price: 290, sigma: 0.3 },
  { pair_code: 'META', pair_human_code: 'Meta', category: 'stocks', precision: 2, payout_rate: 0.79, is_active: true, start_price: 600, sigma: 0.35 },
  { pair_code: 'TSLA', pair_human_code: 'Tesla', category: 'stocks', precision: 2, payout_rate: 0.78, is_active: true, start_price: 420, sigma: 0.45 },
  { pair_code: 'NFLX', pair_human_code: 'Netflix', category: 'stocks', precision: 2, payout_rate: 0.77, is_active: true, start_price: 110, sigma: 0.35 },
  { pair_code: 'JPM', pair_human_code: 'JPMorgan Chase', category: 'stocks', precision: 2, payout_rate: 0.77, is_active: true, start_price: 300, sigma: 0.25 },
  { pair_code: 'V', pair_human_code: 'Visa', category: 'stocks', precision: 2, payout_rate: 0.76, is_active: true, start_price: 330, sigma: 0.25 },
  { pair_code: 'AMD', pair_human_code: 'AMD', category: 'stocks', precision: 2, payout_rate: 0.76, is_active: true, start_price: 230, sigma: 0.45 },
  // ---- commodities -----------------------------------------------------------------------
  { pair_code: 'XAUUSD', pair_human_code: 'Gold', category: 'commodities', precision: 2, payout_rate: 0.85, is_active: true, start_price: 4050, sigma: 0.15 },
  { pair_code: 'XAGUSD', pair_human_code: 'Silver', category: 'commodities', precision: 3, payout_rate: 0.82, is_active: true, start_price: 50.5, sigma: 0.25 },
  { pair_code: 'XPTUSD', pair_human_code: 'Platinum', category: 'commodities', precision: 2, payout_rate: 0.8, is_active: true, start_price: 1550, sigma: 0.25 },
  { pair_code: 'USOIL', pair_human_code: 'WTI Crude Oil', category: 'commodities', precision: 2, payout_rate: 0.8, is_active: true, start_price: 59.5, sigma: 0.35 },
  { pair_code: 'UKOIL', pair_human_code: 'Brent Crude Oil', category: 'commodities', precision: 2, payout_rate: 0.8, is_active: true, start_price: 63.5, sigma: 0.35 },
  { pair_code: 'NATGAS', pair_human_code: 'Natural Gas', category: 'commodities', precision: 3, payout_rate: 0.75, is_active: true, start_price: 4.5, sigma: 0.6 },
  // Thinly traded: listed for display but closed for trading.
  { pair_code: 'XPDUSD', pair_human_code: 'Palladium', category: 'commodities', precision: 2, payout_rate: 0.72, is_active: false, start_price: 1400, sigma: 0.35 },
];

/**
 * The crypto pairs Binance quotes with MARKET_FEED=binance: our pair -> Binance spot symbol. The
 * USD pairs are quoted from the USDT markets (the deepest ones; USDT is a dollar stablecoin), so
 * BTC/USD shows Binance's BTCUSDT trades. Pairs not listed here keep the simulator.
 */
export const BINANCE_SYMBOLS: ReadonlyMap<string, string> = new Map([
  ['BTCUSD', 'BTCUSDT'],
  ['ETHUSD', 'ETHUSDT'],
  ['BNBUSD', 'BNBUSDT'],
  ['SOLUSD', 'SOLUSDT'],
  ['XRPUSD', 'XRPUSDT'],
  ['LTCUSD', 'LTCUSDT'],
  ['ADAUSD', 'ADAUSDT'],
  ['DOGEUSD', 'DOGEUSDT'],
  ['DOTUSD', 'DOTUSDT'],
  ['AVAXUSD', 'AVAXUSDT'],
]);

const BY_CODE = new Map(CATALOGUE.map((p) => [p.pair_code, p]));

export function pairSpec(pairCode: string): PairSpec | undefined {
  return BY_CODE.get(pairCode);
}

export const pairLogoPath = (pairCode: string) => `pairs/${pairCode}.svg`;

/** The wire Pair of a catalogue entry (before any operator change from the pairs table). */
export function specToPair(spec: PairSpec): Pair {
  return {
    pair_code: spec.pair_code,
    pair_human_code: spec.pair_human_code,
    category: spec.category,
    is_active: spec.is_active,
    payout_rate: spec.payout_rate,
    precision: spec.precision,
    timeframes: [...TIMEFRAMES],
    logo: pairLogoPath(spec.pair_code),
  };
}

/** The columns of a `pairs` row the wire Pair is made of. */
type PairRow = { pair_code: string; pair_human_code: string; is_active: number; payout_rate: number; precision: number; timeframes: string; logo: string };

/** The wire Pair of a `pairs` row (as an operator left it); the category is the catalogue's. */
export function operatedPair(row: PairRow, spec: PairSpec): Pair {
  return {
    pair_code: row.pair_code,
    pair_human_code: row.pair_human_code,
    category: spec.category,
    is_active: Number(row.is_active) !== 0,
    payout_rate: Number(row.payout_rate),
    precision: Number(row.precision),
    timeframes: parseTimeframes(row.timeframes),
    logo: row.logo,
  };
}

/** A row's JSON list of timeframes, in the contract's order; every timeframe when it holds none valid. */
export function parseTimeframes(json: string): Timeframe[] {
  try {
    const parsed: unknown = JSON.parse(json);
    if (Array.isArray(parsed)) {
      const valid = parsed.filter((tf): tf is Timeframe => v.is(TimeframeSchema, tf));
      if (valid.length) return TIMEFRAMES.filter((tf) => valid.includes(tf));
    }
  } catch {
    // fall through to every timeframe
  }
  return [...TIMEFRAMES];
}

/** A copy of a pair safe to hand out (its timeframes too). */
export const copyPair = (p: Pair): Pair => ({ ...p, timeframes: [...p.timeframes] });

/** Round a price to the pair's quote precision (the one rounding every tick goes through). */
export function roundPrice(price: number, precision: number): number {
  // k / 10^d with both exact is the double nearest to the decimal k * 10^-d, the same value
  // Number(price.toFixed(d)) gives, at a fraction of the cost.
  const f = POW10[precision] ?? 10 ** precision;
  return Math.round(price * f) / f;
}

const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);
