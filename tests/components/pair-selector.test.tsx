/**
 * The pair selector as a market overview (issue 26 item 4) on the real machines: the 24-hour
 * change per row from the rates' price 24 h ago, pairs grouped by category, sorting by change,
 * name and payout, favourites (a star per row, a Favourites tab, kept by the traderPrefs actor and
 * saved as front settings), and commodity names in the reader's language.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { Pair } from '../../contract/market';
import { PairSelectorModal } from '../../src/features/trading/PairSelectorModal';
import { AAPL, BTCUSD, EURUSD } from '../machines/trading-fixtures';
import { startTradingApp } from './trading-harness';

const GOLD: Pair = { ...AAPL, pair_code: 'XAUUSD', pair_human_code: 'Gold', category: 'commodities', payout_rate: 0.85, logo: 'pairs/XAUUSD.svg' };
const PAIRS = [EURUSD, BTCUSD, AAPL, GOLD];

function open(language = 'en') {
  const app = startTradingApp();
  app.feedPairs(PAIRS);
  app.push('pairs_rates', {
    rates: [
      { pair_code: 'EURUSD', current_price: 1.1, price_24h: 1.0 },
      { pair_code: 'BTCUSD', current_price: 60000, price_24h: 64000 },
      { pair_code: 'AAPL', current_price: 270, price_24h: 270 },
      { pair_code: 'XAUUSD', current_price: 4100, price_24h: 4000, price_24h_time: Date.now() - 3_600_000 },
    ],
  });
  const view = app.render(<PairSelectorModal data={null} onClose={() => undefined} />, language);
  const dialog = screen.getByRole('dialog');
  return { app, view, dialog };
}

/** The pairs listed, in order: the name each row's choosing button starts with. */
const optionNames = (dialog: HTMLElement) =>
  within(dialog)
    .getAllByRole('listitem')
    .map((row) => within(row).getAllByRole('button')[0].getAttribute('aria-label')?.split(',')[0]);
/** Radix tabs switch on mouse down. */
const pickTab = (dialog: HTMLElement, name: string) => fireEvent.mouseDown(within(dialog).getByRole('tab', { name }), { button: 0 });

describe('pair selector: a market overview', () => {
  it('shows each pair’s 24-hour change, signed and described for screen readers', () => {
    const { dialog } = open();
    const eur = within(dialog).getByRole('button', { name: /^EUR\/USD/ });
    expect(within(eur).getByText('+10.00%')).toBeTruthy();
    expect(eur.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(eur.getAttribute('aria-describedby')!)?.textContent).toBe('24h +10.00%');
    const btc = within(dialog).getByRole('button', { name: /^BTC\/USD/ });
    expect(within(btc).getByText('−6.25%')).toBeTruthy();
    expect(within(within(dialog).getByRole('button', { name: /^Apple/ })).getByText('0.00%')).toBeTruthy();
    // Gold has less than a day of history: its change says since when.
    const gold = within(dialog).getByRole('button', { name: /^Gold/ });
    expect(document.getElementById(gold.getAttribute('aria-describedby')!)?.textContent).toMatch(/^since .+ \+2\.50%$/);
  });

  it('groups the pairs by category and sorts them by change, name and payout', () => {
    const { dialog } = open();
    expect(within(dialog).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Forex', 'Crypto', 'Stocks', 'Commodities']);
    const sort = within(dialog).getByRole('combobox', { name: 'Sort pairs' });
    fireEvent.change(sort, { target: { value: 'name_desc' } });
    expect(optionNames(dialog)).toEqual(['EUR/USD', 'BTC/USD', 'Apple', 'Gold']);
    // Within All the groups keep their order; the sort orders the pairs inside each.
    fireEvent.change(sort, { target: { value: 'change_desc' } });
    expect((sort as HTMLSelectElement).value).toBe('change_desc');
    expect(optionNames(dialog)).toEqual(['EUR/USD', 'BTC/USD', 'Apple', 'Gold']);
  });

  it('orders by change across one group, gainers or losers first', () => {
    const app = startTradingApp();
    const ETH: Pair = { ...BTCUSD, pair_code: 'ETHUSD', pair_human_code: 'ETH/USD', payout_rate: 0.7 };
    app.feedPairs([BTCUSD, ETH]);
    app.push('pairs_rates', {
      rates: [
        { pair_code: 'BTCUSD', current_price: 60000, price_24h: 64000 },
        { pair_code: 'ETHUSD', current_price: 3300, price_24h: 3000 },
      ],
    });
    app.render(<PairSelectorModal data={null} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog');
    const sort = within(dialog).getByRole('combobox', { name: 'Sort pairs' });
    expect(optionNames(dialog)).toEqual(['BTC/USD', 'ETH/USD']);
    fireEvent.change(sort, { target: { value: 'change_desc' } });
    expect(optionNames(dialog)).toEqual(['ETH/USD', 'BTC/USD']);
    fireEvent.change(sort, { target: { value: 'change_asc' } });
    expect(optionNames(dialog)).toEqual(['BTC/USD', 'ETH/USD']);
    fireEvent.change(sort, { target: { value: 'payout_desc' } });
    expect(optionNames(dialog)).toEqual(['BTC/USD', 'ETH/USD']);
    fireEvent.change(sort, { target: { value: 'name_asc' } });
    expect(optionNames(dialog)).toEqual(['BTC/USD', 'ETH/USD']);
    expect(app.child('pairs').getSnapshot().context.sort).toEqual({ key: 'name', descending: false });
  });

  it('stars a pair into the Favourites tab and saves the list; unstarring takes it out', () => {
    const { app, dialog } = open();
    pickTab(dialog, 'Favourites');
    expect(within(dialog).getByText('No favourites yet')).toBeTruthy();
    pickTab(dialog, 'All');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add BTC/USD to favourites' }));
    expect(within(dialog).getByRole('button', { name: 'Remove BTC/USD from favourites' })).toBeTruthy();
    expect(app.child('traderPrefs').getSnapshot().context.favourites).toEqual(['BTCUSD']);
    pickTab(dialog, 'Favourites');
    expect(optionNames(dialog)).toEqual(['BTC/USD']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove BTC/USD from favourites' }));
    expect(within(dialog).getByText('No favourites yet')).toBeTruthy();
    expect(app.child('traderPrefs').getSnapshot().context.favourites).toEqual([]);
  });

  it('names commodities in Russian and Spanish, and finds them by that name', () => {
    for (const [language, name] of [
      ['ru', 'Золото'],
      ['es', 'Oro'],
    ] as const) {
      const { dialog, view } = open(language);
      expect(within(dialog).getByRole('button', { name: new RegExp(`^${name},`) })).toBeTruthy();
      fireEvent.change(within(dialog).getByRole('searchbox'), { target: { value: name.slice(0, 3) } });
      expect(optionNames(dialog)).toEqual([name]);
      view.unmount();
    }
  });
});
