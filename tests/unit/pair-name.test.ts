/**
 * Issue 26: pair names in the reader's language. The commodities (named, not coded) have a name
 * per language under trading.pair_names; every other pair keeps its catalogue code.
 */
import { describe, expect, it } from 'vitest';
import { createI18n, type Messages } from '../../src/i18n';
import { NAMED_PAIRS, pairDisplayName } from '../../src/i18n/pair-name';
import { CATALOGUE } from '../../server/domain/market/catalogue';
import { settledToast } from '../../machines/orders/orders.machine';
import { firedToast } from '../../machines/price-alerts/price-alerts.machine';
import { makeOrder } from '../machines/trading-fixtures';
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

describe('toasts name the pair in the reader\'s language (issue 26)', () => {
  const gold = { pair_code: 'XAUUSD', pair_human_code: 'Gold' };
  it('a settlement toast says "Золото" in Russian and "Oro" in Spanish, not the English name', () => {
    const order = { ...makeOrder({ ...gold, pair: 'XAUUSD', amount: 10, currency: 'USD' }), status: 'closed' as const, result: 'lost' as const, profit_loss: -10, payout: 0 };
    const toast = settledToast(order)!;
    const ru = i18n.translate('ru', toast.messageKey!, toast.params);
    expect(ru).toContain('Золото');
    expect(ru).not.toContain('Gold');
    expect(i18n.translate('es', toast.messageKey!, toast.params)).toContain('Oro');
    expect(i18n.translate('en', toast.messageKey!, toast.params)).toContain('Gold');
  });

  it('a price alert toast too, and a coded pair keeps its code', () => {
    const alert = { alert_id: 1, ...gold, direction: 'above' as const, price: 2400, price_text: '2400.00', precision: 2, created_at_ms: 1, fired_at_ms: 2, fired_price: 2400.5 };
    const toast = firedToast(alert);
    expect(i18n.translate('ru', toast.messageKey!, toast.params)).toContain('Золото');
    const eur = firedToast({ ...alert, pair_code: 'EURUSD', pair_human_code: 'EUR/USD', precision: 5, price: 1.16, fired_price: 1.16001 });
    expect(i18n.translate('ru', eur.messageKey!, eur.params)).toContain('EUR/USD');
  });
});
