/**
 * The candles of the trading screen: the series on screen (one pair and one timeframe) and a
 * cache of the series seen recently (spec section 4, Candles; section 7, init_candles /
 * new_price).
 *
 * Lifecycle: owned by the pairs actor, which invokes it for its whole life with systemId
 * 'chart' and is the only one that selects a series (`chart.seriesSelected`) or clears it
 * (`chart.cleared`, on logout: the cache goes too). The socket routes deliver
 * `chart.candlesReceived` (init_candles, the answer to select_pair), `chart.candleUpdated`
 * (new_price) and `chart.subscriptionFailed` (an error_message about select_pair). A history
 * for another series than the one selected is ignored: a late answer to an earlier selection
 * must not paint the wrong chart. A live candle goes into its own series: the one shown, or a
 * cached one (a late new_price of the series just left), never into another.
 *
 * States: `idle` (nothing selected) -> `loading` (a series never seen: skeleton) or
 * `refreshing` (a cached series: its candles show at once while select_pair is answered) ->
 * `live`; `failed` when the server refused the subscription. While the socket reconnects
 * (`chart.connectionLost`, reported by the `watchConnection` actor that watches the socket) the
 * chart is `stale`: the candles stay, the view dims the prices, and the init_candles that
 * answers the re-sent select_pair (or any newer candle) makes it `live` again. The server's
 * init_candles is the truth: it replaces the series (shown and cached).
 *
 * Candles are kept per pair and timeframe (`series`, keyed by `seriesKey`), each sorted by
 * timestamp, capped at the last 1000, a candle with the same timestamp replacing the earlier
 * one (mergeCandlePages); at most SERIES_CACHE_LIMIT series are kept, the least recently shown
 * (`recent`) dropped first. `candles` is the series on screen.
 */
import { assertEvent, assign, fromCallback, setup } from 'xstate';
import type { Candle } from '../../contract/market';
import type { Timeframe } from '../../contract/user';

export const MAX_CANDLES = 1000;
/** How many series (pair and timeframe) the cache keeps. */
export const SERIES_CACHE_LIMIT = 8;

export interface ChartContext {
  pairCode: string | null;
  timeframe: Timeframe | null;
  /** The series on screen (the same candles as its cache entry, once it has one). */
  candles: Candle[];
  /** The server's reason for refusing the subscription. */
  error: string | null;
  /** Candles per series (seriesKey), at most SERIES_CACHE_LIMIT series. */
  series: Record<string, Candle[]>;
  /** The keys of `series`, most recently shown first. */
  recent: string[];
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
export function mergeCandlePages(existing: readonly Candle[], incoming: readonly Candle[], cap = MAX_CANDLES): Candle[] {
  const byTime = new Map<number, Candle>();
  for (const candle of existing) byTime.set(candle.timestamp, candle);
  for (const candle of incoming) {
    const earlier = byTime.get(candle.timestamp);
    byTime.set(candle.timestamp, earlier && candle.volume === 0 ? { ...candle, volume: earlier.volume } : candle);
  }
  const sorted = [...byTime.values()].sort((a, b) => a.timestamp - b.timestamp);
  return sorted.length > cap ? sorted.slice(sorted.length - cap) : sorted;
}

/** The cache key of one series: pair code and timeframe. */
export function seriesKey(pairCode: string, timeframe: Timeframe): string {
  return `${pairCode}|${timeframe}`;
}

/** `recent` with `key` first, at most SERIES_CACHE_LIMIT keys. */
function touch(recent: readonly string[], key: string): string[] {
  return [key, ...recent.filter((k) => k !== key)].slice(0, SERIES_CACHE_LIMIT);
}

/** The cache with `candles` stored under `key` (now the most recent), the oldest series dropped beyond the limit. */
export function cacheSeries(cache: Pick<ChartContext, 'series' | 'recent'>, key: string, candles: Candle[]): Pick<ChartContext, 'series' | 'recent'> {
  const recent = touch(cache.recent, key);
  const series: Record<string, Candle[]> = {};
  for (const k of recent) series[k] = k === key ? candles : cache.series[k];
  return { series, recent };
}

function candleKey(candle: Candle): string {
  return seriesKey(candle.pair_code, candle.timeframe);
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
    isCachedSeries: ({ context, event }) => {
      assertEvent(event, ['chart.seriesSelected', 'chart.candleUpdated']);
      const key = event.type === 'chart.seriesSelected' ? seriesKey(event.pairCode, event.timeframe) : candleKey(event.candle);
      return key in context.series;
    },
  },
  actions: {
    selectSeries: assign(({ context, event }) => {
      assertEvent(event, 'chart.seriesSelected');
      const key = seriesKey(event.pairCode, event.timeframe);
      const cached = context.series[key];
      return {
        pairCode: event.pairCode,
        timeframe: event.timeframe,
        candles: cached ?? [],
        error: null,
        recent: cached ? touch(context.recent, key) : context.recent,
      };
    }),
    clear: assign({ pairCode: null, timeframe: null, candles: [], error: null, series: {}, recent: [] }),
    assignHistory: assign(({ context, event }) => {
      assertEvent(event, 'chart.candlesReceived');
      const candles = mergeCandlePages([], event.candles);
      return { candles, ...cacheSeries(context, seriesKey(event.pairCode, event.timeframe), candles) };
    }),
    storeCandle: assign(({ context, event }) => {
      assertEvent(event, 'chart.candleUpdated');
      const key = candleKey(event.candle);
      const candles = mergeCandlePages(context.series[key] ?? [], [event.candle]);
      const shown = context.pairCode !== null && context.timeframe !== null && key === seriesKey(context.pairCode, context.timeframe);
      return { series: { ...context.series, [key]: candles }, ...(shown ? { candles } : {}) };
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
    series: {},
    recent: [],
  },
  invoke: {
    id: 'watchConnection',
    src: 'watchConnection',
  },
  initial: 'idle',
  on: {
    'chart.seriesSelected': [
      { guard: 'isCachedSeries', target: '.refreshing', description: 'Seen recently: its cached candles show at once.', actions: 'selectSeries' },
      { target: '.loading', actions: 'selectSeries' },
    ],
    'chart.cleared': { target: '.idle', actions: 'clear' },
    'chart.candleUpdated': {
      guard: 'isCachedSeries',
      description: 'A late candle of a cached series that is not live on screen goes into its own series.',
      actions: 'storeCandle',
    },
  },
  states: {
    idle: {
      description: 'No series selected (logged out, or the pairs are not known yet).',
    },
    loading: {
      description: 'select_pair was sent for a series not in the cache; waiting for its init_candles.',
      on: {
        'chart.candlesReceived': { guard: 'isSelectedSeries', target: 'live', actions: 'assignHistory' },
        'chart.subscriptionFailed': { target: 'failed', actions: 'assignError' },
      },
    },
    refreshing: {
      description: 'The cached candles are on screen; select_pair was sent and its init_candles will replace them.',
      on: {
        'chart.candlesReceived': { guard: 'isSelectedSeries', target: 'live', actions: 'assignHistory' },
        'chart.candleUpdated': { guard: 'isSelectedSeries', actions: 'storeCandle' },
        'chart.subscriptionFailed': { target: 'failed', actions: 'assignError' },
        'chart.connectionLost': { target: 'stale' },
      },
    },
    live: {
      on: {
        'chart.candleUpdated': { guard: 'isSelectedSeries', actions: 'storeCandle' },
        'chart.candlesReceived': { guard: 'isSelectedSeries', description: 'A fresh history (after a reconnect) replaces the old one.', actions: 'assignHistory' },
        'chart.connectionLost': { target: 'stale' },
      },
    },
    stale: {
      description: 'The socket is reconnecting: the candles stay on screen, dimmed.',
      on: {
        'chart.candlesReceived': { guard: 'isSelectedSeries', target: 'live', actions: 'assignHistory' },
        'chart.candleUpdated': { guard: 'isSelectedSeries', target: 'live', actions: 'storeCandle' },
      },
    },
    failed: {
      description: 'The server refused the subscription (e.g. "Pair not found").',
    },
  },
});
