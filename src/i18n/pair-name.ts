/**
 * A pair's name in the reader's language (issue 26): the commodities have names ("Gold",
 * "Золото", "Oro") kept in the locales under trading.pair_names.<pair_code>; every other pair
 * shows the catalogue's own name (EUR/USD, BTC/USD, Apple), which is the same in every language.
 * Use it wherever a pair name is shown; a toast's pair parameter (machines/types.ts PairParam) goes
 * through it in the translation (src/i18n/index.tsx).
 */
/** The pair codes with a translated name (the keys of trading.pair_names in every locale; tests/unit/pair-name.test.ts). */
export const NAMED_PAIRS: ReadonlySet<string> = new Set(['XAUUSD', 'XAGUSD', 'XPTUSD', 'XPDUSD', 'USOIL', 'UKOIL', 'NATGAS']);

export function pairDisplayName(t: (key: string) => string, pair: { pair_code: string; pair_human_code: string }): string {
  return NAMED_PAIRS.has(pair.pair_code) ? t(`trading.pair_names.${pair.pair_code}`) : pair.pair_human_code;
}
