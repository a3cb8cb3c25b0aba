/**
 * Issue 26: pair names in the reader's language. The commodities (named, not coded) have a name
 * per language under trading.pair_names; every other pair keeps its catalogue code.
 */
import { describe, expect, it } from 'vitest';
import { createI18n, type Messages } from '../../src/i18n';
import { NAMED_PAIRS, pairDisplayName } from '../../src/i18n/pair-name';
import { CATALOGUE } from '../../server/domain/market/catalogue';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import es from '../../locales/es.json';

const i18n = createI18n({ en, ru, es } as unknown as Record<string, Messages>);
const tIn = (language: string) => (key: string) => i18n.translate(language, key);

describe('pairDisplayName', () => {
  it('names the commodities in each language and keeps the codes of the others', () => {
    const gold = { pair_code: 'XAUUSD', pair_human_code: 'Gold' };
    const oil = { pair_code: 'UKOIL', pair_human_code: 'Brent Crude Oil' };
    expect([pairDisplayName(tIn('en'), gold), pairDisplayName(tIn('ru'), gold), pairDisplayName(tIn('es'), gold)]).toEqual(['Gold', 'Золото', 'Oro']);
    expect(pairDisplayName(tIn('ru'), oil)).toBe('Нефть Brent');
    expect(pairDisplayName(tIn('ru'), { pair_code: 'EURUSD', pair_human_code: 'EUR/USD' })).toBe('EUR/USD');
  });

  it('has a name in every locale for every named pair, and every catalogue commodity is named', () => {
    for (const table of [en, ru, es]) expect(new Set(Object.keys(table.trading.pair_names))).toEqual(NAMED_PAIRS);
    const commodities = CATALOGUE.filter((p) => p.category === 'commodities').map((p) => p.pair_code);
    expect(commodities.filter((code) => !NAMED_PAIRS.has(code))).toEqual([]);
    // The English name is the catalogue's own.
    for (const p of CATALOGUE.filter((p) => NAMED_PAIRS.has(p.pair_code))) expect(en.trading.pair_names[p.pair_code as keyof typeof en.trading.pair_names]).toBe(p.pair_human_code);
  });
});
