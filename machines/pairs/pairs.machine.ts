/**
 * The trading pairs, their live prices and which pair and timeframe the trader is looking at
 * (spec section 4, "Pair list"; section 7, init_pairs / pairs_rates / price_update / select_pair).
 *
 * Lifecycle: long-lived, spawned by the app with systemId 'pairs'. It owns the candles actor
 * (`chart`, invoked for its whole life with systemId 'chart', so socket routes reach it) and is
 * the only one that tells it which series to show.
 *
 * - The pair list (`pairs.pairsReceived`, from init_pairs on every socket connect) keeps only the
 *   active pairs (active unless `is_active === false`). Prices (`pairs.ratesReceived` from
 *   pairs_rates, `pairs.priceUpdated` from price_update) are kept by pair code in every state.
 * - `loggedOut` until the app says a session started (`pairs.sessionStarted` with the user's
 *   saved pair and timeframe). In `loggedIn` it waits for the list (`awaitingPairs`), then
 *   `choosing` applies the default rule: a saved pair that is still active keeps its saved
 *   timeframe when the pair offers it (else the pair's first); no saved pair, or one no longer
 *   active, becomes the first active pair with its first timeframe. Whatever changed is saved
 *   (the parent hears `settings.changed {currentPair, currentTimeframe}`, which the session
 *   persists as front settings).
 * - In `ready` the trader picks a pair (`pairs.pairSelected`) or a timeframe
 *   (`pairs.timeframeSelected`), or steps to the next / previous pair (`pairs.pairStepped`, the
 *   keyboard's shortcut); each choice is saved the same way. A new pair list re-runs the
 *   rule (the current pair may have been switched off).
 * - Every new selection subscribes: the parent hears `socket.emitRequested {event: 'select_pair',
 *   payload: {pair_code, timeframe}}` (the socket machine adds the token, remembers it and
 *   re-sends it on reconnect) and the chart hears `chart.seriesSelected`. The selection last
 *   subscribed is remembered, so the init_pairs that follows each reconnect does not subscribe
 *   twice.
 * - `pairs.sessionEnded` (logout) forgets the selection and clears the chart.
 * - Each rate may carry the pair's price 24 hours ago (`price_24h`, and `price_24h_time` when the
 *   pair has less history): kept by pair code in `dayBases`, the base of the 24-hour change the
 *   price header and the pair selector show (issue 26 item 4, docs/market.md).
 * - The pair selector's order (`pairs.sortChosen`: the server's order, name, 24-hour change or
 *   payout, each up or down) is kept for the session in `sort` (sortPairs applies it).
 */
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import { dayChangeRatio, type Pair, type QuoteState, type Rate } from '../../contract/market';
import type { Timeframe } from '../../contract/user';
import { TIMEFRAMES } from '../../contract/user';
import type { SettingsPatch } from '../types';
import { chartMachine, type ChartEvent } from '../chart/chart.machine';

export interface PairSelection {
  pairCode: string;
  timeframe: Timeframe;
}

/** A pair's price 24 hours ago; `since` (ms) only when its history is shorter than a day. */
export interface DayBase {
  price: number;
  since?: number;
}

export const PAIR_SORT_KEYS = ['default', 'name', 'change', 'payout'] as const;
export type PairSortKey = (typeof PAIR_SORT_KEYS)[number];
export interface PairSort {
  key: PairSortKey;
  /** Descending: Z to A, the biggest gain or payout first. */
  descending: boolean;
}

/** The 24-hour change of a pair at its latest price as a ratio, or null while unknown. */
export function dayChangeOf(context: Pick<PairsContext, 'rates' | 'dayBases'>, pairCode: string): number | null {
  const price = context.rates[pairCode];
  return price === undefined ? null : dayChangeRatio(price, context.dayBases[pairCode]?.price);
}

/**
 * The pairs in the chosen order (a stable sort; `default` is the server's order). Pairs without a
 * known change go last whichever way the change is sorted.
 */
export function sortPairs(pairs: readonly Pair[], sort: PairSort, context: Pick<PairsContext, 'rates' | 'dayBases'>): Pair[] {
  if (sort.key === 'default') return [...pairs];
  const sign = sort.descending ? -1 : 1;
  const indexed = pairs.map((pair, index) => ({ pair, index, change: sort.key === 'change' ? dayChangeOf(context, pair.pair_code) : null }));
  indexed.sort((a, b) => {
    if (sort.key === 'change' && (a.change === null || b.change === null)) return a.change === b.change ? a.index - b.index : a.change === null ? 1 : -1;
    const by =
      sort.key === 'name' ? a.pair.pair_human_code.localeCompare(b.pair.pair_human_code) : sort.key === 'payout' ? a.pair.payout_rate - b.pair.payout_rate : (a.change ?? 0) - (b.change ?? 0);
    return by !== 0 ? sign * by : a.index - b.index;
  });
  return indexed.map((x) => x.pair);
}

export interface PairsContext {
  /** Active pairs only, in the server's order. */
  pairs: Pair[];
  /** Latest price by pair code. */
  rates: Record<string, number>;
  /** The price 24 hours ago by pair code (from the rates). */
  dayBases: Record<string, DayBase>;
  /** The pair selector's order. */
  sort: PairSort;
  currentPair: string | null;
  currentTimeframe: Timeframe | null;
  /** The selection last sent to the socket and the chart. */
  subscribed: PairSelection | null;
}

export type PairsEvent =
  | { type: 'pairs.sessionStarted'; currentPair: string | null; currentTimeframe: string | null }
  | { type: 'pairs.sessionEnded' }
  | { type: 'pairs.pairsReceived'; pairs: Pair[] }
  | { type: 'pairs.ratesReceived'; rates: Rate[] }
  | { type: 'pairs.priceUpdated'; pairCode: string; price: number }
  /** pair_status: a pair's quotes became delayed (trading paused) or live again. */
  | { type: 'pairs.statusReceived'; pairCode: string; quotes: QuoteState }
  | { type: 'pairs.pairSelected'; pairCode: string }
  | { type: 'pairs.timeframeSelected'; timeframe: Timeframe }
  /** The next (+1) or previous (-1) active pair in the list's order, wrapping (keyboard trading). */
  | { type: 'pairs.pairStepped'; step: 1 | -1 }
  /** The pair selector's order. */
  | { type: 'pairs.sortChosen'; sort: PairSort };

export interface SelectPairPayload {
  pair_code: string;
  timeframe: Timeframe;
}

/** What the pairs actor tells its parent (the app routes both). */
export type PairsParentEvent =
  /** `confirm`: the trader chose it (a success message follows the save); absent for the default rule. */
  | { type: 'settings.changed'; patch: SettingsPatch }
  | { type: 'socket.emitRequested'; event: 'select_pair'; payload: SelectPairPayload };

/** A pair is active unless it is explicitly switched off (spec section 3). */
export function isActivePair(pair: Pair): boolean {
  return pair.is_active !== false;
}

export function activePairs(pairs: readonly Pair[]): Pair[] {
  return pairs.filter(isActivePair);
}

function isTimeframe(value: string | null): value is Timeframe {
  return value !== null && (TIMEFRAMES as readonly string[]).includes(value);
}

/**
 * The default rule of spec section 4 as a pure function: the selection that should be current
 * for these active pairs, given what is current now. Null only when there is no active pair.
 */
export function resolveSelection(pairs: readonly Pair[], currentPair: string | null, currentTimeframe: string | null): PairSelection | null {
  const pair = pairs.find((p) => p.pair_code === currentPair) ?? pairs[0];
  if (!pair) return null;
  const keepTimeframe = pair.pair_code === currentPair && isTimeframe(currentTimeframe) && pair.timeframes.includes(currentTimeframe);
  const timeframe = keepTimeframe ? currentTimeframe : (pair.timeframes[0] ?? TIMEFRAMES[0]);
  return { pairCode: pair.pair_code, timeframe };
}

/** The pair `step` places after (or before) the current one in the list, wrapping; null without pairs. */
export function steppedPair(pairs: readonly Pair[], currentPair: string | null, step: 1 | -1): string | null {
  if (pairs.length === 0) return null;
  const index = pairs.findIndex((p) => p.pair_code === currentPair);
  const next = index < 0 ? 0 : (index + step + pairs.length) % pairs.length;
  return pairs[next]?.pair_code ?? null;
}

/** The current pair's full record, or null. */
export function selectCurrentPair(context: PairsContext): Pair | null {
  return context.pairs.find((p) => p.pair_code === context.currentPair) ?? null;
}

export const pairsMachine = setup({
  types: {
    context: {} as PairsContext,
    events: {} as PairsEvent,
  },
  actors: {
    chart: chartMachine,
  },
  guards: {
    hasPairs: ({ context }) => context.pairs.length > 0,
    isSelectionCurrent: ({ context }) => {
      const resolved = resolveSelection(context.pairs, context.currentPair, context.currentTimeframe);
      return resolved !== null && resolved.pairCode === context.currentPair && resolved.timeframe === context.currentTimeframe;
    },
    isOtherActivePair: ({ context, event }) => {
      assertEvent(event, 'pairs.pairSelected');
      return event.pairCode !== context.currentPair && context.pairs.some((p) => p.pair_code === event.pairCode);
    },
    hasOtherPair: ({ context }) => context.pairs.some((p) => p.pair_code !== context.currentPair),
    isOtherOfferedTimeframe: ({ context, event }) => {
      assertEvent(event, 'pairs.timeframeSelected');
      const pair = selectCurrentPair(context);
      return event.timeframe !== context.currentTimeframe && pair !== null && pair.timeframes.includes(event.timeframe);
    },
  },
  actions: {
    assignPairs: assign(({ event }) => {
      assertEvent(event, 'pairs.pairsReceived');
      return { pairs: activePairs(event.pairs) };
    }),
    assignRates: assign(({ context, event }) => {
      assertEvent(event, 'pairs.ratesReceived');
      const rates = { ...context.rates };
      let dayBases = context.dayBases;
      for (const rate of event.rates) {
        rates[rate.pair_code] = rate.current_price;
        if (rate.price_24h === undefined) continue;
        const known = dayBases[rate.pair_code];
        if (known && known.price === rate.price_24h && known.since === rate.price_24h_time) continue;
        if (dayBases === context.dayBases) dayBases = { ...dayBases };
        dayBases[rate.pair_code] = rate.price_24h_time === undefined ? { price: rate.price_24h } : { price: rate.price_24h, since: rate.price_24h_time };
      }
      return { rates, dayBases };
    }),
    assignSort: assign(({ event }) => {
      assertEvent(event, 'pairs.sortChosen');
      return { sort: { key: event.sort.key, descending: event.sort.descending } };
    }),
    assignQuoteState: assign(({ context, event }) => {
      assertEvent(event, 'pairs.statusReceived');
      return { pairs: context.pairs.map((p) => (p.pair_code === event.pairCode ? { ...p, quotes: event.quotes } : p)) };
    }),
    assignPrice: assign(({ context, event }) => {
      assertEvent(event, 'pairs.priceUpdated');
      return { rates: { ...context.rates, [event.pairCode]: event.price } };
    }),
    assignSavedSelection: assign(({ event }) => {
      assertEvent(event, 'pairs.sessionStarted');
      return { currentPair: event.currentPair, currentTimeframe: isTimeframe(event.currentTimeframe) ? event.currentTimeframe : null };
    }),
    applyDefaultSelection: assign(({ context }) => {
      const resolved = resolveSelection(context.pairs, context.currentPair, context.currentTimeframe);
      return resolved ? { currentPair: resolved.pairCode, currentTimeframe: resolved.timeframe } : {};
    }),
    assignPair: assign(({ context, event }) => {
      assertEvent(event, 'pairs.pairSelected');
      const resolved = resolveSelection(context.pairs, event.pairCode, context.currentTimeframe);
      return resolved ? { currentPair: resolved.pairCode, currentTimeframe: resolved.timeframe } : {};
    }),
    assignSteppedPair: assign(({ context, event }) => {
      assertEvent(event, 'pairs.pairStepped');
      const resolved = resolveSelection(context.pairs, steppedPair(context.pairs, context.currentPair, event.step), context.currentTimeframe);
      return resolved ? { currentPair: resolved.pairCode, currentTimeframe: resolved.timeframe } : {};
    }),
    assignTimeframe: assign(({ event }) => {
      assertEvent(event, 'pairs.timeframeSelected');
      return { currentTimeframe: event.timeframe };
    }),
    // Saved silently: the chart itself shows the choice (issue 26, no "Trading pair saved" toast).
    saveSelection: enqueueActions(({ context, enqueue }) => {
      if (context.currentPair === null || context.currentTimeframe === null) return;
      const saved: PairsParentEvent = { type: 'settings.changed', patch: { currentPair: context.currentPair, currentTimeframe: context.currentTimeframe } };
      enqueue.sendParent(saved);
    }),
    subscribeSelection: enqueueActions(({ context, enqueue }) => {
      const { currentPair, currentTimeframe, subscribed } = context;
      if (currentPair === null || currentTimeframe === null) return;
      // A repeated init_pairs (every reconnect) must not subscribe again: the socket machine
      // re-sends the remembered select_pair by itself.
      if (subscribed && subscribed.pairCode === currentPair && subscribed.timeframe === currentTimeframe) return;
      const emit: PairsParentEvent = { type: 'socket.emitRequested', event: 'select_pair', payload: { pair_code: currentPair, timeframe: currentTimeframe } };
      enqueue.sendParent(emit);
      const show: ChartEvent = { type: 'chart.seriesSelected', pairCode: currentPair, timeframe: currentTimeframe };
      enqueue.sendTo('chart', show);
      enqueue.assign({ subscribed: { pairCode: currentPair, timeframe: currentTimeframe } });
    }),
    forgetSelection: assign({ currentPair: null, currentTimeframe: null, subscribed: null }),
    clearChart: enqueueActions(({ enqueue }) => {
      const cleared: ChartEvent = { type: 'chart.cleared' };
      enqueue.sendTo('chart', cleared);
    }),
  },
}).createMachine({
  id: 'pairs',
  context: {
    pairs: [],
    rates: {},
    dayBases: {},
    sort: { key: 'default', descending: false },
    currentPair: null,
    currentTimeframe: null,
    subscribed: null,
  },
  invoke: {
    id: 'chart',
    src: 'chart',
    systemId: 'chart',
  },
  initial: 'loggedOut',
  on: {
    'pairs.pairsReceived': { actions: 'assignPairs' },
    'pairs.ratesReceived': { actions: 'assignRates' },
    'pairs.priceUpdated': { actions: 'assignPrice' },
    'pairs.statusReceived': { actions: 'assignQuoteState' },
    'pairs.sortChosen': { actions: 'assignSort' },
  },
  states: {
    loggedOut: {
      description: 'Prices may still arrive; nothing is selected or saved without a session.',
      on: {
        'pairs.sessionStarted': { target: 'loggedIn', actions: 'assignSavedSelection' },
      },
    },
    loggedIn: {
      initial: 'awaitingPairs',
      on: {
        'pairs.sessionEnded': { target: 'loggedOut', actions: ['forgetSelection', 'clearChart'] },
      },
      states: {
        awaitingPairs: {
          description: 'The saved selection is held until the pair list says whether it is still active.',
          always: { guard: 'hasPairs', target: 'choosing' },
          on: {
            'pairs.pairsReceived': { target: 'choosing', actions: 'assignPairs' },
          },
        },
        choosing: {
          description: 'The default rule of spec section 4; a changed selection is saved.',
          always: [
            { guard: 'isSelectionCurrent', target: 'ready', actions: 'subscribeSelection' },
            { guard: 'hasPairs', target: 'ready', actions: ['applyDefaultSelection', 'saveSelection', 'subscribeSelection'] },
            { target: 'awaitingPairs', description: 'Every pair is switched off: wait for a list with an active one.' },
          ],
        },
        ready: {
          on: {
            'pairs.pairSelected': { guard: 'isOtherActivePair', actions: ['assignPair', 'saveSelection', 'subscribeSelection'] },
            'pairs.timeframeSelected': {
              guard: 'isOtherOfferedTimeframe',
              actions: ['assignTimeframe', 'saveSelection', 'subscribeSelection'],
            },
            'pairs.pairStepped': { guard: 'hasOtherPair', actions: ['assignSteppedPair', 'saveSelection', 'subscribeSelection'] },
            'pairs.pairsReceived': { target: 'choosing', description: 'The current pair may have been switched off.', actions: 'assignPairs' },
          },
        },
      },
    },
  },
});
