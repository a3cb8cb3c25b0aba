/**
 * Honest labels in the pair selector on the real machines: a pair the server flags as simulated
 * says so in its accessible name (translated), and its group's header shows "Simulated" once
 * (issue 26: not on every row); a market-quoted one does not; pair_status pushes reach the pairs
 * actor.
 */
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { PairSelectorModal } from '../../src/features/trading/PairSelectorModal';
import { BTCUSD, EURUSD } from '../machines/trading-fixtures';
import { startTradingApp } from './trading-harness';

const PAIRS = [{ ...EURUSD, simulated: true }, { ...BTCUSD, simulated: false }];

describe('simulated labels in the pair selector', () => {
  it('labels the simulated pair only, in English', () => {
    const app = startTradingApp();
    app.feedPairs(PAIRS, { EURUSD: 1.16, BTCUSD: 64000 });
    app.render(<PairSelectorModal data={null} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Choose a pair' });
    const eur = within(dialog).getByRole('button', { name: 'EUR/USD, Forex, payout 92%, simulated prices' });
    expect(within(eur).queryByText('Simulated')).toBeNull();
    expect(within(within(dialog).getByRole('heading', { name: /^Forex/ })).getByText('Simulated')).toBeTruthy();
    expect(within(dialog).getAllByText('Simulated')).toHaveLength(1);
    const btc = within(dialog).getByRole('button', { name: 'BTC/USD, Crypto, payout 80%' });
    expect(within(btc).queryByText('Simulated')).toBeNull();
    expect(within(within(dialog).getByRole('heading', { name: 'Crypto' })).queryByText('Simulated')).toBeNull();
  });

  it('says it in Russian and Spanish', () => {
    for (const [language, label, name, group] of [
      ['ru', 'Симуляция', /цены симулируются$/, /^Форекс/],
      ['es', 'Simulado', /precios simulados$/, /^Divisas/],
    ] as const) {
      const app = startTradingApp();
      app.feedPairs(PAIRS, {});
      const { unmount } = app.render(<PairSelectorModal data={null} onClose={() => undefined} />, language);
      expect(screen.getByRole('button', { name })).toBeTruthy();
      expect(within(screen.getByRole('heading', { name: group })).getByText(label)).toBeTruthy();
      unmount();
    }
  });

  it('takes pair_status pushes: delayed, then live again', () => {
    const app = startTradingApp();
    app.feedPairs(PAIRS, {});
    app.push('pair_status', { pair_code: 'BTCUSD', quotes: 'delayed' });
    const btc = () => app.child('pairs').getSnapshot().context.pairs.find((p: { pair_code: string }) => p.pair_code === 'BTCUSD');
    expect(btc().quotes).toBe('delayed');
    app.push('pair_status', { pair_code: 'BTCUSD', quotes: 'live' });
    expect(btc().quotes).toBe('live');
    app.push('pair_status', { pair_code: 'BTCUSD', quotes: 'nonsense' });
    expect(btc().quotes).toBe('live');
  });
});
