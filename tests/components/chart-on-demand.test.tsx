/**
 * The chart's code (CandleChart with lightweight-charts) is a chunk of its own, loaded when the
 * chart panel first renders (src/features/trading/ChartPanel.tsx): the pair, the timeframes and
 * the live price show while it is still on its way, with the skeleton in the chart's place.
 * Here the chart's module never arrives (the panel's own module must load without it).
 */
import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { EURUSD } from '../machines/trading-fixtures';
import { startTradingApp } from './trading-harness';

vi.mock('../../src/features/trading/CandleChart', () => new Promise(() => {}));

describe('chart panel before the chart library is loaded', () => {
  it('shows the pair, the timeframes and the price, with the skeleton in the chart place', async () => {
    const { ChartPanel } = await Promise.race([
      import('../../src/features/trading/ChartPanel'),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the chart panel waits for the chart library')), 5_000)),
    ]);
    const app = startTradingApp();
    app.feedPairs([EURUSD], { EURUSD: 1.16012 });
    const { container } = app.render(<ChartPanel />);
    expect(await screen.findByRole('button', { name: /EUR\/USD/ })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Timeframe' })).toBeTruthy();
    expect(container.querySelector('.chart-price')?.textContent).toContain('1.16012');
    expect(container.querySelector('.chart-body .chart-skeleton')).not.toBeNull();
    expect(screen.queryByTestId('candle-chart')).toBeNull();
  });
});
