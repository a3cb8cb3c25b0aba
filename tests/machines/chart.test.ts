/**
 * Chart (candles): generated paths, the candle rule of spec section 4 (sorted, at most 1000,
 * same timestamp replaces), series filtering and the stale state while reconnecting.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createActor, type AnyEventObject } from 'xstate';
import { chartMachine, chartSummary, MAX_CANDLES, mergeCandles } from '../../machines/chart/chart.machine';
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
];

const model: PathModel = {
  name: 'chart',
  machine: chartMachine,
  events,
  simplePaths: 300,
  simplePathEvents: [events[0], events[2], events[3], events[5], events[7], events[8]],
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
    const merged = mergeCandles([candle(60, 1), candle(180, 3)], [candle(120, 2), candle(60, 1.5)]);
    expect(merged.map((c) => [c.timestamp, c.close])).toEqual([
      [60, 1.5],
      [120, 2],
      [180, 3],
    ]);
  });

  it('keeps only the last 1000', () => {
    const many = Array.from({ length: 1005 }, (_, i) => candle(1005 - i, i));
    const merged = mergeCandles([], many);
    expect(merged).toHaveLength(MAX_CANDLES);
    expect(merged[0].timestamp).toBe(6);
    expect(merged.at(-1)!.timestamp).toBe(1005);
  });

  it('keeps the volume of the candle a volume-less new_price replaces', () => {
    const [updated] = mergeCandles([candle(60, 1, { volume: 42 })], [candle(60, 2, { volume: 0 })]);
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
});
