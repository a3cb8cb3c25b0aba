/**
 * The candles of the series on screen: one pair and one timeframe (spec section 4, Candles;
 * section 7, init_candles / new_price).
 *
 * Lifecycle: owned by the pairs actor, which invokes it for its whole life with systemId
 * 'chart' and is the only one that selects a series (`chart.seriesSelected`) or clears it
 * (`chart.cleared`, on logout). The socket routes deliver `chart.candlesReceived` (init_candles,
 * the answer to select_pair), `chart.candleUpdated` (new_price) and `chart.subscriptionFailed`
 * (an error_message about select_pair). Anything about another pair or timeframe is ignored:
 * a late answer to an earlier selection must not paint the wrong chart.
 *
 * States: `idle` (nothing selected) -> `loading` (skeleton) -> `live`; `failed` when the server
 * refused the subscription. While the socket reconnects (`chart.connectionLost`, reported by the
 * `watchConnection` actor that watches the socket) the chart is `stale`: the candles stay, the
 * view dims the prices, and the init_candles that answers the re-sent select_pair (or any newer
 * candle) makes it `live` again.
 *
 * Candles are kept sorted by timestamp, capped at the last 1000, and a candle with the same
 * timestamp replaces the earlier one (mergeCandles).
 */
import { assertEvent, assign, fromCallback, setup } from 'xstate';
import type { Candle } from '../../contract/market';
import type { Timeframe } from '../../contract/user';

export const MAX_CANDLES = 1000;

export interface ChartContext {
  pairCode: string | null;
  timeframe: Timeframe | null;
  candles: Candle[];
  /** The server's reason for refusing the subscription. */
  error: string | null;
}

export type ChartEvent =
  | { type: 'chart.seriesSelected'; pairCode: string; timeframe: Timeframe }
  | { type: 'chart.cleared' }
  | { type: 'chart.candlesReceived'; pairCode: string; timeframe: Timeframe; candles: Candle[] }
  | { type: 'chart.candleUpdated'; candle: Candle }
  | { type: 'chart.subscriptionFailed'; message: string }
  | { type: 'chart.connectionLost' };

/**
 * Candles sorted by timestamp, at most `cap`, the later of two with the same timestamp winning.
 * A new_price carries no volume: a replacement keeps the volume of the candle it replaces.
 */
export function mergeCandles(existing: readonly Candle[], incoming: readonly Candle[], cap = MAX_CANDLES): Candle[] {
  const byTime = new Map<number, Candle>();
  for (const candle of existing) byTime.set(candle.timestamp, candle);
  for (const candle of incoming) {
    const earlier = byTime.get(candle.timestamp);
    byTime.set(candle.timestamp, earlier && candle.volume === 0 ? { ...candle, volume: earlier.volume } : candle);
  }
  const sorted = [...byTime.values()].sort((a, b) => a.timestamp - b.timestamp);
  return sorted.length > cap ? sorted.slice(sorted.length - cap) : sorted;
}

/** The last price and its change over the candles shown (the chart's text alternative). */
export function chartSummary(candles: readonly Candle[]): { last: number; change: number; changeRatio: number } | null {
  const first = candles[0];
  const last = candles[candles.length - 1];
  if (!first || !last) return null;
  const change = last.close - first.open;
  return { last: last.close, change, changeRatio: first.open === 0 ? 0 : change / first.open };
}

export const chartMachine = setup({
  types: {
    context: {} as ChartContext,
    events: {} as ChartEvent,
  },
  actors: {
    /** Reports `chart.connectionLost` when the live socket drops (real implementation in services). */
    watchConnection: fromCallback<ChartEvent>(() => () => {}),
  },
  guards: {
    isSelectedSeries: ({ context, event }) => {
      assertEvent(event, ['chart.candlesReceived', 'chart.candleUpdated']);
      const { pairCode, timeframe } = event.type === 'chart.candlesReceived' ? event : { pairCode: event.candle.pair_code, timeframe: event.candle.timeframe };
      return pairCode === context.pairCode && timeframe === context.timeframe;
    },
  },
  actions: {
    selectSeries: assign(({ event }) => {
      assertEvent(event, 'chart.seriesSelected');
      return { pairCode: event.pairCode, timeframe: event.timeframe, candles: [], error: null };
    }),
    clear: assign({ pairCode: null, timeframe: null, candles: [], error: null }),
    assignHistory: assign(({ event }) => {
      assertEvent(event, 'chart.candlesReceived');
      return { candles: mergeCandles([], event.candles) };
    }),
    mergeCandle: assign(({ context, event }) => {
      assertEvent(event, 'chart.candleUpdated');
      return { candles: mergeCandles(context.candles, [event.candle]) };
    }),
    assignError: assign(({ event }) => {
      assertEvent(event, 'chart.subscriptionFailed');
      return { error: event.message };
    }),
  },
}).createMachine({
  id: 'chart',
  context: {
    pairCode: null,
    timeframe: null,
    candles: [],
    error: null,
  },
  invoke: {
    id: 'watchConnection',
    src: 'watchConnection',
  },
  initial: 'idle',
  on: {
    'chart.seriesSelected': { target: '.loading', actions: 'selectSeries' },
    'chart.cleared': { target: '.idle', actions: 'clear' },
  },
  states: {
    idle: {
      description: 'No series selected (logged out, or the pairs are not known yet).',
    },
    loading: {
      description: 'select_pair was sent; waiting for its init_candles.',
      on: {
        'chart.candlesReceived': { guard: 'isSelectedSeries', target: 'live', actions: 'assignHistory' },
        'chart.subscriptionFailed': { target: 'failed', actions: 'assignError' },
      },
    },
    live: {
      on: {
        'chart.candleUpdated': { guard: 'isSelectedSeries', actions: 'mergeCandle' },
        'chart.candlesReceived': { guard: 'isSelectedSeries', description: 'A fresh history (after a reconnect) replaces the old one.', actions: 'assignHistory' },
        'chart.connectionLost': { target: 'stale' },
      },
    },
    stale: {
      description: 'The socket is reconnecting: the candles stay on screen, dimmed.',
      on: {
        'chart.candlesReceived': { guard: 'isSelectedSeries', target: 'live', actions: 'assignHistory' },
        'chart.candleUpdated': { guard: 'isSelectedSeries', target: 'live', actions: 'mergeCandle' },
      },
    },
    failed: {
      description: 'The server refused the subscription (e.g. "Pair not found").',
    },
  },
});

export type ChartMachine = typeof chartMachine;
