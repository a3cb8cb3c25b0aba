/**
 * The chart panel creates the chart once the first history has come, under the skeleton until
 * then, and keeps it from then on (src/features/trading/ChartPanel.tsx): drawn once with its
 * candles, not empty first and again when they arrive; another pair or timeframe loading does
 * not re-create it. The chart itself is a stand-in here that counts its mounts.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import type { CandleChartProps } from '../../src/features/trading/CandleChart';
import { ChartPanel } from '../../src/features/trading/ChartPanel';
import { EURUSD } from '../machines/trading-fixtures';
import { startTradingApp } from './trading-harness';

const mounts = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/features/trading/CandleChart', async () => {
  const { useEffect } = await import('react');
  return {
    CandleChart: (props: CandleChartProps) => {
      useEffect(() => {
        mounts.count += 1;
      }, []);
      return <div data-testid="candle-chart" data-candles={props.candles.length} />;
    },
  };
});

const candle = (timestamp: number, timeframe: string) => ({ pair_code: 'EURUSD', timeframe, timestamp, open: 1.16, high: 1.17, low: 1.15, close: 1.165, volume: 1 });

describe('chart panel: the chart is created with its first history', () => {
  it('has no chart while the first candles load, one chart with them after, and keeps it on a timeframe switch', async () => {
    const app = startTradingApp();
    app.feedPairs([EURUSD], { EURUSD: 1.16012 });
    app.render(<ChartPanel />);
    await screen.findByRole('button', { name: /EUR\/USD/ });
    const chart = app.child('chart');
    expect(String(chart.getSnapshot().value)).toBe('loading');
    // The chart's code is there and React would have shown a resolved lazy chart by now (it
    // throttles a fallback's replacement by up to 300 ms): the chart is not there.
    await import('../../src/features/trading/CandleChart');
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    expect(screen.queryByTestId('candle-chart')).toBeNull();
    expect(mounts.count).toBe(0);

    const timeframe = (chart.getSnapshot().context as { timeframe: string }).timeframe;
    act(() => app.push('init_candles', { pair_code: 'EURUSD', timeframe, candles: [candle(60, timeframe), candle(120, timeframe)] }));
    expect((await screen.findByTestId('candle-chart')).getAttribute('data-candles')).toBe('2');
    // The chart is created in a transition: its mount effect may run after the element is in the page.
    await waitFor(() => expect(mounts.count).toBe(1));

    // Another timeframe: its candles load while the chart stays.
    act(() => app.child('pairs').send({ type: 'pairs.timeframeSelected', timeframe: timeframe === '5m' ? '1m' : '5m' }));
    expect(String(chart.getSnapshot().value)).toBe('loading');
    expect(screen.getByTestId('candle-chart')).toBeTruthy();
    expect(mounts.count).toBe(1);
  });
});
