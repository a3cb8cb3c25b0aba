/**
 * A pair's name in the reader's language: a commodity's name is a word ("Gold", "Natural Gas")
 * and is translated (locales: trading.pair_names.<CODE>); currency pairs, coins and company
 * names read the same in every language and stay as the server names them.
 */
import type { Pair } from '../../../contract/market';
import type { TFunction } from '../../i18n';

/** The pair codes whose names the locales translate. */
export const TRANSLATED_PAIR_NAMES: ReadonlySet<string> = new Set(['XAUUSD', 'XAGUSD', 'XPTUSD', 'XPDUSD', 'USOIL', 'UKOIL', 'NATGAS']);

export function pairName(pair: Pick<Pair, 'pair_code' | 'pair_human_code'>, t: TFunction): string {
  return TRANSLATED_PAIR_NAMES.has(pair.pair_code) ? t(`trading.pair_names.${pair.pair_code}`) : pair.pair_human_code;
}
