/**
 * Chart (candles): generated paths, the candle rule of spec section 4 (kept per pair and
 * timeframe, sorted, at most 1000, same timestamp replaces), the cache of recent series (shown
 * at once when switching back, at most 8), series filtering and the stale state while
 * reconnecting.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createActor, type AnyEventObject } from 'xstate';
import { cacheSeries, chartMachine, chartSummary, MAX_CANDLES, mergeCandlePages, SERIES_CACHE_LIMIT, seriesKey } from '../../machines/chart/chart.machine';
import type { Timeframe } from '../../contract/user';
import { assertFullCoverage, pathCases, printCoverage, replayPath, type PathModel } from './harness';
import { candle } from './trading-fixtures';

const history = [candle(120, 1.1602), candle(60, 1.1601)];
const events: AnyEventObject[] = [
  { type: 'chart.seriesSelected', pairCode: 'EURUSD', timeframe: '1m' },
  { type: 'chart.seriesSelected', pairCode: 'BTCUSD', timeframe: '5s' },
  { type: 'chart.cleared' },
  { type: 'chart.candlesReceived', pairCode: 'EURUSD', timeframe: '1m', candles: history },
  { type: 'chart.candlesReceived', pairCode: 'EURUSD', timeframe: '5m', candles: history },
  { type: 'chart.candleUpdated', candle: candle(120, 1.1605, { volume: 0 }) },
  { type: 'chart.candleUpdated', candle: candle(180, 1.1607, { pair_code: 'GBPUSD' }) },
  { type: 'chart.subscriptionFailed', message: 'Pair not found' },
  { type: 'chart.connectionLost' },
  { type: 'chart.candlesReceived', pairCode: 'BTCUSD', timeframe: '5s', candles: [candle(5, 64000, { pair_code: 'BTCUSD', timeframe: '5s' })] },
  { type: 'chart.candleUpdated', candle: candle(10, 64001, { pair_code: 'BTCUSD', timeframe: '5s', volume: 0 }) },
];

const model: PathModel = {
  name: 'chart',
  machine: chartMachine,
  events,
  simplePaths: 300,
  simplePathEvents: [events[0], events[1], events[3], events[9], events[8]],
};

describe('chart machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('chart'));
});

describe('candles (spec section 4)', () => {
  it('sorts by timestamp and lets a later candle with the same timestamp replace the earlier one', () => {
    const merged = mergeCandlePages([candle(60, 1), candle(180, 3)], [candle(120, 2), candle(60, 1.5)]);
    expect(merged.map((c) => [c.timestamp, c.close])).toEqual([
      [60, 1.5],
      [120, 2],
      [180, 3],
    ]);
  });

  it('keeps only the last 1000', () => {
    const many = Array.from({ length: 1005 }, (_, i) => candle(1005 - i, i));
    const merged = mergeCandlePages([], many);
    expect(merged).toHaveLength(MAX_CANDLES);
    expect(merged[0].timestamp).toBe(6);
    expect(merged.at(-1)!.timestamp).toBe(1005);
  });

  it('keeps the volume of the candle a volume-less new_price replaces', () => {
    const [updated] = mergeCandlePages([candle(60, 1, { volume: 42 })], [candle(60, 2, { volume: 0 })]);
    expect(updated).toMatchObject({ close: 2, volume: 42 });
  });

  it('summarises the last price and the change over the candles shown', () => {
    expect(chartSummary([])).toBeNull();
    const summary = chartSummary([candle(60, 1.2, { open: 1.0 }), candle(120, 1.1)]);
    expect(summary!.last).toBe(1.1);
    expect(summary!.change).toBeCloseTo(0.1, 10);
    expect(summary!.changeRatio).toBeCloseTo(0.1, 10);
  });
});

describe('chart behaviour', () => {
  it('ignores candles of another series, goes stale on a drop and live on fresh data', () => {
    const actor = createActor(chartMachine).start();
    actor.send({ type: 'chart.seriesSelected', pairCode: 'EURUSD', timeframe: '1m' });
    actor.send({ type: 'chart.candlesReceived', pairCode: 'EURUSD', timeframe: '5s', candles: history });
    expect(actor.getSnapshot().value).toBe('loading');
    actor.send({ type: 'chart.candlesReceived', pairCode: 'EURUSD', timeframe: '1m', candles: history });
    expect(actor.getSnapshot().value).toBe('live');
    expect(actor.getSnapshot().context.candles.map((c) => c.timestamp)).toEqual([60, 120]);

    actor.send({ type: 'chart.candleUpdated', candle: candle(180, 1.1609) });
    actor.send({ type: 'chart.candleUpdated', candle: candle(240, 9, { timeframe: '5s' }) });
    expect(actor.getSnapshot().context.candles.map((c) => c.timestamp)).toEqual([60, 120, 180]);

    actor.send({ type: 'chart.connectionLost' });
    expect(actor.getSnapshot().value).toBe('stale');
    expect(actor.getSnapshot().context.candles).toHaveLength(3);
    actor.send({ type: 'chart.candlesReceived', pairCode: 'EURUSD', timeframe: '1m', candles: [candle(240, 1.161)] });
    expect(actor.getSnapshot().value).toBe('live');
    expect(actor.getSnapshot().context.candles.map((c) => c.timestamp)).toEqual([240]);
  });

  it('shows the refusal of a subscription and recovers on the next selection', () => {
    const actor = createActor(chartMachine).start();
    actor.send({ type: 'chart.seriesSelected', pairCode: 'XXX', timeframe: '1m' });
    actor.send({ type: 'chart.subscriptionFailed', message: 'Pair not found' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe('Pair not found');
    actor.send({ type: 'chart.seriesSelected', pairCode: 'EURUSD', timeframe: '1m' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('keeps each series it has shown and shows it at once when switching back; the server history then replaces it', () => {
    const actor = createActor(chartMachine).start();
    actor.send({ type: 'chart.seriesSelected', pairCode: 'EURUSD', timeframe: '1m' });
    actor.send({ type: 'chart.candlesReceived', pairCode: 'EURUSD', timeframe: '1m', candles: history });
    actor.send({ type: 'chart.candleUpdated', candle: candle(180, 1.1609) });

    actor.send({ type: 'chart.seriesSelected', pairCode: 'BTCUSD', timeframe: '5s' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.candles).toEqual([]);
    // A late new_price of the series just left goes into its own series, not the one shown.
    actor.send({ type: 'chart.candleUpdated', candle: candle(180, 1.1611) });
    actor.send({ type: 'chart.candlesReceived', pairCode: 'BTCUSD', timeframe: '5s', candles: [candle(5, 64000, { pair_code: 'BTCUSD', timeframe: '5s' })] });
    actor.send({ type: 'chart.candleUpdated', candle: candle(10, 64001, { pair_code: 'BTCUSD', timeframe: '5s' }) });
    expect(actor.getSnapshot().context.candles.map((c) => c.timestamp)).toEqual([5, 10]);

    actor.send({ type: 'chart.seriesSelected', pairCode: 'EURUSD', timeframe: '1m' });
    expect(actor.getSnapshot().value).toBe('refreshing');
    expect(actor.getSnapshot().context.candles.map((c) => [c.timestamp, c.close])).toEqual([
      [60, 1.1601],
      [120, 1.1602],
      [180, 1.1611],
    ]);
    expect(actor.getSnapshot().context.recent).toEqual([seriesKey('EURUSD', '1m'), seriesKey('BTCUSD', '5s')]);
    actor.send({ type: 'chart.candleUpdated', candle: candle(240, 1.1612) });
    expect(actor.getSnapshot().context.candles).toHaveLength(4);
    actor.send({ type: 'chart.candlesReceived', pairCode: 'EURUSD', timeframe: '1m', candles: [candle(240, 1.1613), candle(300, 1.1614)] });
    expect(actor.getSnapshot().value).toBe('live');
    expect(actor.getSnapshot().context.candles.map((c) => c.timestamp)).toEqual([240, 300]);
    expect(actor.getSnapshot().context.series[seriesKey('EURUSD', '1m')]).toBe(actor.getSnapshot().context.candles);
    expect(actor.getSnapshot().context.series[seriesKey('BTCUSD', '5s')].map((c) => c.timestamp)).toEqual([5, 10]);

    actor.send({ type: 'chart.cleared' });
    expect(actor.getSnapshot().context).toMatchObject({ series: {}, recent: [], candles: [] });
    actor.send({ type: 'chart.seriesSelected', pairCode: 'EURUSD', timeframe: '1m' });
    expect(actor.getSnapshot().value).toBe('loading');
  });

  it('keeps at most 8 series, dropping the one shown longest ago', () => {
    const actor = createActor(chartMachine).start();
    const timeframes: Timeframe[] = ['5s', '15s', '30s', '1m', '5m', '15m', '1h'];
    const shown = [...timeframes.map((tf) => ['EURUSD', tf] as const), ['BTCUSD', '1m'] as const, ['AAPL', '1m'] as const];
    for (const [pairCode, timeframe] of shown) {
      actor.send({ type: 'chart.seriesSelected', pairCode, timeframe });
      actor.send({ type: 'chart.candlesReceived', pairCode, timeframe, candles: [candle(60, 1, { pair_code: pairCode, timeframe })] });
      // Showing the first one again keeps it among the most recent.
      if (pairCode === 'EURUSD' && timeframe === '1h') actor.send({ type: 'chart.seriesSelected', pairCode: 'EURUSD', timeframe: '5s' });
    }
    const { series, recent } = actor.getSnapshot().context;
    expect(Object.keys(series)).toHaveLength(SERIES_CACHE_LIMIT);
    expect(recent).toHaveLength(SERIES_CACHE_LIMIT);
    expect(recent.slice(0, 3)).toEqual(['AAPL|1m', 'BTCUSD|1m', 'EURUSD|5s']);
    expect(series).not.toHaveProperty('EURUSD|15s');
    // A late candle of a series no longer kept is dropped, not cached again.
    actor.send({ type: 'chart.candleUpdated', candle: candle(120, 2, { timeframe: '15s' }) });
    expect(actor.getSnapshot().context.series).not.toHaveProperty('EURUSD|15s');
  });

  it('stores a series as the most recent and caps the cache', () => {
    const one = [candle(60, 1)];
    let cache = { series: {}, recent: [] as string[] };
    for (let i = 0; i < 10; i++) cache = cacheSeries(cache, `P${i}|1m`, one);
    expect(cache.recent).toEqual(['P9|1m', 'P8|1m', 'P7|1m', 'P6|1m', 'P5|1m', 'P4|1m', 'P3|1m', 'P2|1m']);
    expect(Object.keys(cache.series).sort()).toEqual([...cache.recent].sort());
    cache = cacheSeries(cache, 'P2|1m', [candle(120, 2)]);
    expect(cache.recent[0]).toBe('P2|1m');
    expect((cache.series as Record<string, unknown[]>)['P2|1m']).toHaveLength(1);
  });
});
