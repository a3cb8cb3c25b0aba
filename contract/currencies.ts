/**
 * The currencies the platform keeps balances in (spec section 3, Currency: iso_code, symbol,
 * rate, display name). `rate` is the CONFIGURED rate, units of the currency per 1 USD: it is
 * used only where the market has no pair for the currency (docs/money.md, "Exchange rates");
 * every other conversion takes the market's latest price (server/domain/market/fx.ts), and
 * the SPA gets those rates from the server (a RateTable), never from this list. `decimals`
 * is the size of the minor unit the ledger counts in.
 */
import * as v from 'valibot';

export const CurrencySchema = v.object({
  iso_code: v.string(),
  symbol: v.string(),
  rate: v.number(),
  name: v.string(),
  decimals: v.number(),
  kind: v.picklist(['fiat', 'crypto']),
  /** Largest single bet in this currency, in whole units. */
  max_bet: v.number(),
});
export type Currency = v.InferOutput<typeof CurrencySchema>;

const fiat = (iso_code: string, symbol: string, rate: number, name: string, max_bet = 5000 * rate): Currency => ({
  iso_code,
  symbol,
  rate,
  name,
  decimals: 2,
  kind: 'fiat',
  max_bet: roundBet(max_bet),
});
const crypto = (iso_code: string, symbol: string, rate: number, name: string): Currency => ({
  iso_code,
  symbol,
  rate,
  name,
  decimals: 8,
  kind: 'crypto',
  max_bet: roundBet(5000 * rate),
});
function roundBet(x: number): number {
  if (x < 1) return Number(x.toPrecision(2));
  const p = 10 ** Math.max(0, Math.floor(Math.log10(x)) - 1);
  return Math.round(x / p) * p;
}

export const CURRENCIES: readonly Currency[] = [
  fiat('USD', '$', 1, 'US Dollar'),
  fiat('EUR', '€', 0.92, 'Euro'),
  fiat('GBP', '£', 0.79, 'British Pound'),
  fiat('JPY', '¥', 151.2, 'Japanese Yen'),
  fiat('CHF', 'CHF', 0.88, 'Swiss Franc'),
  fiat('CAD', 'C$', 1.37, 'Canadian Dollar'),
  fiat('AUD', 'A$', 1.52, 'Australian Dollar'),
  fiat('NZD', 'NZ$', 1.66, 'New Zealand Dollar'),
  fiat('CNY', '¥', 7.24, 'Chinese Yuan'),
  fiat('HKD', 'HK$', 7.82, 'Hong Kong Dollar'),
  fiat('SGD', 'S$', 1.34, 'Singapore Dollar'),
  fiat('SEK', 'kr', 10.6, 'Swedish Krona'),
  fiat('NOK', 'kr', 10.9, 'Norwegian Krone'),
  fiat('DKK', 'kr', 6.87, 'Danish Krone'),
  fiat('PLN', 'zł', 3.98, 'Polish Zloty'),
  fiat('CZK', 'Kč', 23.1, 'Czech Koruna'),
  fiat('HUF', 'Ft', 362, 'Hungarian Forint'),
  fiat('RUB', '₽', 92.5, 'Russian Ruble'),
  fiat('UAH', '₴', 41.2, 'Ukrainian Hryvnia'),
  fiat('KZT', '₸', 478, 'Kazakhstani Tenge'),
  fiat('TRY', '₺', 34.2, 'Turkish Lira'),
  fiat('INR', '₹', 83.4, 'Indian Rupee'),
  fiat('IDR', 'Rp', 15850, 'Indonesian Rupiah'),
  fiat('THB', '฿', 35.9, 'Thai Baht'),
  fiat('MYR', 'RM', 4.7, 'Malaysian Ringgit'),
  fiat('PHP', '₱', 56.8, 'Philippine Peso'),
  fiat('VND', '₫', 25300, 'Vietnamese Dong'),
  fiat('KRW', '₩', 1370, 'South Korean Won'),
  fiat('BRL', 'R$', 5.45, 'Brazilian Real'),
  fiat('MXN', 'MX$', 17.9, 'Mexican Peso'),
  fiat('ARS', 'AR$', 915, 'Argentine Peso'),
  fiat('CLP', 'CLP$', 935, 'Chilean Peso'),
  fiat('COP', 'COL$', 3950, 'Colombian Peso'),
  fiat('PEN', 'S/', 3.74, 'Peruvian Sol'),
  fiat('ZAR', 'R', 18.3, 'South African Rand'),
  fiat('NGN', '₦', 1480, 'Nigerian Naira'),
  fiat('EGP', 'E£', 48.3, 'Egyptian Pound'),
  fiat('AED', 'AED', 3.67, 'UAE Dirham'),
  fiat('SAR', 'SAR', 3.75, 'Saudi Riyal'),
  fiat('ILS', '₪', 3.7, 'Israeli Shekel'),
  fiat('GEL', '₾', 2.7, 'Georgian Lari'),
  fiat('AZN', '₼', 1.7, 'Azerbaijani Manat'),
  fiat('UZS', 'soʻm', 12650, 'Uzbekistani Som'),
  crypto('USDT', '₮', 1, 'Tether USD'),
  crypto('BTC', '₿', 0.0000155, 'Bitcoin'),
  crypto('ETH', 'Ξ', 0.00029, 'Ethereum'),
];

export const CURRENCY_CODES = CURRENCIES.map((c) => c.iso_code);
const byCode = new Map(CURRENCIES.map((c) => [c.iso_code, c]));

export function findCurrency(code: string): Currency | undefined {
  return byCode.get(code.toUpperCase());
}

export const CurrencyCodeSchema = v.pipe(
  v.string('Currency must be a string'),
  v.trim(),
  v.toUpperCase(),
  v.check((c) => byCode.has(c), 'Unknown currency'),
);

/** Demo balance every new account and every demo reset gets, in whole units of the currency. */
export const DEMO_BALANCE_UNITS = 10_000;
export const DEFAULT_CURRENCY = 'USD';

// ---- exchange rates ---------------------------------------------------------------------------

/**
 * Where a currency's rate comes from: `base` (USD itself), `pair` (the latest price of a
 * market pair with USD, e.g. EUR/USD, BTC/USD) or `configured` (Currency.rate, where no pair
 * exists: USDT, RUB, ...).
 */
export const RATE_SOURCES = ['base', 'pair', 'configured'] as const;
export type RateSource = (typeof RATE_SOURCES)[number];

/** One currency against USD: units of the currency per 1 USD, its source and the time of its price. */
export const UsdRateSchema = v.object({
  per_usd: v.pipe(v.number(), v.finite(), v.minValue(Number.MIN_VALUE)),
  source: v.picklist(RATE_SOURCES),
  /** The pair it was read from ("EUR/USD"); null for base and configured rates. */
  pair: v.nullable(v.string()),
  /** Milliseconds since the epoch of the price (the pair's latest tick); null for base and configured. */
  at: v.nullable(v.number()),
});
export type UsdRate = v.InferOutput<typeof UsdRateSchema>;

/** Every currency's rate against USD, by ISO code (what the server sends with the payment methods). */
export const RateTableSchema = v.record(v.string(), UsdRateSchema);
export type RateTable = v.InferOutput<typeof RateTableSchema>;

/** A conversion rate between two currencies: `rate` units of `to` per 1 unit of `from`. */
export interface Rate {
  from: string;
  to: string;
  rate: number;
  /** `configured` when any leg is configured; `pair` when a market price is used; `base` for USD/same currency. */
  source: RateSource;
  /** The pairs read, e.g. ["EUR/USD"] or ["EUR/USD", "BTC/USD"] (a cross through USD). */
  pairs: string[];
  /** The oldest price time among the legs; null when no pair is read. */
  at: number | null;
}

/** A currency's configured rate against USD (base for USD). */
export function configuredUsdRate(code: string): UsdRate | undefined {
  const c = findCurrency(code);
  if (!c) return undefined;
  return { per_usd: c.rate, source: c.iso_code === 'USD' ? 'base' : 'configured', pair: null, at: null };
}

/** The configured table (no market: the operator CLI, or before the first tick). */
export function configuredRateTable(): RateTable {
  const out: RateTable = {};
  for (const c of CURRENCIES) out[c.iso_code] = configuredUsdRate(c.iso_code) as UsdRate;
  return out;
}

/** A leg's rate: the table's, else the configured one. */
function legOf(table: RateTable, code: string): UsdRate {
  const leg = table[code.toUpperCase()] ?? configuredUsdRate(code);
  if (!leg) throw new Error(`Unknown currency ${code}`);
  return leg;
}

/** The rate between two currencies through USD with a rate table (the same on the server and in the SPA). */
export function rateVia(table: RateTable, from: string, to: string): Rate {
  const f = from.toUpperCase();
  const t = to.toUpperCase();
  if (f === t) return { from: f, to: t, rate: 1, source: 'base', pairs: [], at: null };
  const legs = [legOf(table, f), legOf(table, t)];
  const pairs = legs.flatMap((l) => (l.pair ? [l.pair] : []));
  const times = legs.flatMap((l) => (l.at === null ? [] : [l.at]));
  const source: RateSource = legs.some((l) => l.source === 'configured') ? 'configured' : pairs.length > 0 ? 'pair' : 'base';
  return { from: f, to: t, rate: legs[1].per_usd / legs[0].per_usd, source, pairs, at: times.length ? Math.min(...times) : null };
}

/**
 * A currency against USD from the market's live prices as the SPA holds them (the pair list and
 * the latest price by pair code, from init_pairs / pairs_rates / price_update): the same rule as
 * the server's rate provider (server/domain/market/fx.ts) — the latest price of the pair XXX/USD
 * (or USD/XXX, inverted), the configured rate only where no such pair has a price. `at` is null:
 * pairs_rates carries no price time (the server's table, with the user data, has it).
 */
export function usdRateFromPrices(
  pairs: readonly { pair_code: string; pair_human_code: string }[],
  prices: Readonly<Record<string, number>>,
  code: string,
): UsdRate | undefined {
  const upper = code.toUpperCase();
  const configured = configuredUsdRate(upper);
  if (!configured || upper === 'USD') return configured;
  for (const p of pairs) {
    const price = prices[p.pair_code];
    if (price === undefined || !(price > 0)) continue;
    if (p.pair_human_code === `${upper}/USD`) return { per_usd: 1 / price, source: 'pair', pair: p.pair_human_code, at: null };
    if (p.pair_human_code === `USD/${upper}`) return { per_usd: price, source: 'pair', pair: p.pair_human_code, at: null };
  }
  return configured;
}
