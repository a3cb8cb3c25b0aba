/**
 * Which currency and balance type to show for a user who just loaded (spec section 4,
 * Session: "If no currency or balance type is in the user's settings, the default currency is
 * the one with the highest real balance; if the real balance is zero, the one with the highest
 * demo balance; fallback USD and RealBalance").
 *
 * Decisions where the spec is silent:
 * - A setting the user saved is kept as it is; only a missing one is derived.
 * - "Highest" compares value, not raw numbers: each amount is divided by its currency's rate
 *   (units per USD), so 1,000 JPY does not beat 100 USD. The rate is the platform's price (the
 *   server's rate table sent with the user data: the market's pair with USD; issue 26), the
 *   currency's configured rate only while no table has arrived or where it has no entry.
 *   Unknown currencies count at rate 1.
 *   Ties keep the earlier currency in the list order (CURRENCIES order, then the rest).
 * - A missing balance type follows the balance that chose the currency: RealBalance when a real
 *   balance chose it, DemoBalance when a demo balance did (a new account with only its demo
 *   money starts on demo), RealBalance in the USD fallback.
 * - A saved currency that is not a known currency is treated as missing.
 */
import { CURRENCIES, DEFAULT_CURRENCY, type Currency, type RateTable } from '../../contract/currencies';
import type { BalanceType, Balances, FrontSettings } from '../../contract/user';

export interface CurrencyChoice {
  currency: string;
  balanceType: BalanceType;
}

interface UserLike {
  balances: Balances;
  front_settings: Pick<FrontSettings, 'current_currency' | 'balance_type'>;
}

function highest(balances: Balances, type: BalanceType, currencies: readonly Currency[], rates: RateTable): string | null {
  const rateOf = new Map(currencies.map((c) => [c.iso_code, rates[c.iso_code]?.per_usd ?? c.rate]));
  for (const [code, leg] of Object.entries(rates)) if (!rateOf.has(code)) rateOf.set(code, leg.per_usd);
  const order = new Map(currencies.map((c, i) => [c.iso_code, i]));
  const codes = Object.keys(balances).sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity) || a.localeCompare(b));
  let best: string | null = null;
  let bestValue = 0;
  for (const code of codes) {
    const amount = balances[code]?.[type] ?? 0;
    const rate = rateOf.get(code) ?? 1;
    const value = rate > 0 ? amount / rate : amount;
    if (Number.isFinite(value) && value > bestValue) {
      best = code;
      bestValue = value;
    }
  }
  return best;
}

export function defaultCurrencyChoice(user: UserLike, currencies: readonly Currency[] = CURRENCIES, rates: RateTable = {}): CurrencyChoice {
  const known = new Set([...currencies.map((c) => c.iso_code), ...CURRENCIES.map((c) => c.iso_code)]);
  const savedCurrency = user.front_settings.current_currency;
  const savedType = user.front_settings.balance_type;
  const currencyOk = savedCurrency !== null && known.has(savedCurrency);

  if (currencyOk && savedType !== null) return { currency: savedCurrency, balanceType: savedType };

  let derived: CurrencyChoice;
  const byReal = highest(user.balances, 'RealBalance', currencies, rates);
  const byDemo = byReal === null ? highest(user.balances, 'DemoBalance', currencies, rates) : null;
  if (byReal !== null) derived = { currency: byReal, balanceType: 'RealBalance' };
  else if (byDemo !== null) derived = { currency: byDemo, balanceType: 'DemoBalance' };
  else derived = { currency: DEFAULT_CURRENCY, balanceType: 'RealBalance' };

  return {
    currency: currencyOk ? savedCurrency : derived.currency,
    balanceType: savedType ?? derived.balanceType,
  };
}
