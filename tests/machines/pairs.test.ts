/**
 * Pairs: generated paths, the default pair rule of spec section 4 as a table, and what the
 * machine tells its parent (saved settings, select_pair) and its chart.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { activePairs, dayChangeOf, pairsMachine, resolveSelection, selectCurrentPair, sortPairs, steppedPair } from '../../machines/pairs/pairs.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';
import { AAPL, BTCUSD, EURUSD, USDTRY } from './trading-fixtures';

const events: AnyEventObject[] = [
  { type: 'pairs.sessionStarted', currentPair: 'BTCUSD', currentTimeframe: '5m' },
  { type: 'pairs.sessionStarted', currentPair: null, currentTimeframe: null },
  { type: 'pairs.sessionStarted', currentPair: 'USDTRY', currentTimeframe: '1m' },
  { type: 'pairs.sessionEnded' },
  { type: 'pairs.pairsReceived', pairs: [EURUSD, BTCUSD, USDTRY] },
  { type: 'pairs.pairsReceived', pairs: [USDTRY] },
  { type: 'pairs.ratesReceived', rates: [{ pair_code: 'EURUSD', current_price: 1.16012 }] },
  { type: 'pairs.priceUpdated', pairCode: 'BTCUSD', price: 64000.5 },
  { type: 'pairs.pairSelected', pairCode: 'BTCUSD' },
  { type: 'pairs.pairSelected', pairCode: 'EURUSD' },
  { type: 'pairs.pairSelected', pairCode: 'USDTRY' },
  { type: 'pairs.timeframeSelected', timeframe: '5s' },
  { type: 'pairs.timeframeSelected', timeframe: '1h' },
  { type: 'pairs.pairStepped', step: 1 },
  { type: 'pairs.pairStepped', step: -1 },
  { type: 'pairs.statusReceived', pairCode: 'BTCUSD', quotes: 'delayed' },
  { type: 'pairs.ratesReceived', rates: [{ pair_code: 'BTCUSD', current_price: 64000.5, price_24h: 62000, price_24h_time: 1_700_000_000_000 }] },
  { type: 'pairs.sortChosen', sort: { key: 'change', descending: true } },
];

const model: PathModel = {
  name: 'pairs',
  machine: pairsMachine,
  events,
  simplePaths: 300,
  simplePathEvents: [events[0], events[1], events[3], events[4], events[5], events[8], events[11]],
};

describe('pairs machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('pairs'));
});

describe('default pair rule (spec section 4)', () => {
  const pairs = [EURUSD, BTCUSD, AAPL];
  const cases: Array<[string, string | null, string | null, { pairCode: string; timeframe: string }]> = [
    ['no saved pair: the first active pair and its first timeframe', null, null, { pairCode: 'EURUSD', timeframe: '5s' }],
    ['a saved active pair keeps its saved timeframe', 'BTCUSD', '5m', { pairCode: 'BTCUSD', timeframe: '5m' }],
    ['a saved timeframe the pair does not offer becomes its first', 'BTCUSD', '5s', { pairCode: 'BTCUSD', timeframe: '1m' }],
    ['an unknown timeframe becomes the first', 'AAPL', '2m', { pairCode: 'AAPL', timeframe: '5s' }],
    ['a saved pair that is no longer active: the first active pair', 'USDTRY', '1m', { pairCode: 'EURUSD', timeframe: '5s' }],
  ];
  it.each(cases)('%s', (_, pair, timeframe, expected) => {
    expect(resolveSelection(pairs, pair, timeframe)).toEqual(expected);
  });
  it('steps to the next / previous pair in list order, wrapping (keyboard trading)', () => {
    expect(steppedPair(pairs, 'EURUSD', 1)).toBe('BTCUSD');
    expect(steppedPair(pairs, 'AAPL', 1)).toBe('EURUSD');
    expect(steppedPair(pairs, 'EURUSD', -1)).toBe('AAPL');
    expect(steppedPair(pairs, 'GONE', 1)).toBe('EURUSD');
    expect(steppedPair([], 'EURUSD', 1)).toBeNull();
  });
  it('keeps only active pairs: active unless is_active is false', () => {
    expect(activePairs([EURUSD, USDTRY, AAPL]).map((p) => p.pair_code)).toEqual(['EURUSD', 'AAPL']);
    expect(resolveSelection([], 'EURUSD', '1m')).toBeNull();
  });
});

describe('pairs behaviour', () => {
  it('applies the default on login, saves it and subscribes the socket and the chart once', () => {
    const { actor, parentEvents } = startUnderParent(pairsMachine);
    actor.send({ type: 'pairs.pairsReceived', pairs: [USDTRY, EURUSD, BTCUSD] });
    expect(parentEvents).toEqual([]);
    actor.send({ type: 'pairs.sessionStarted', currentPair: null, currentTimeframe: null });
    expect(actor.getSnapshot().value).toEqual({ loggedIn: 'ready' });
    expect(selectCurrentPair(actor.getSnapshot().context)?.pair_code).toBe('EURUSD');
    expect(parentEvents).toEqual([
      { type: 'settings.changed', patch: { currentPair: 'EURUSD', currentTimeframe: '5s' } },
      { type: 'socket.emitRequested', event: 'select_pair', payload: { pair_code: 'EURUSD', timeframe: '5s' } },
    ]);
    const chart = actor.system.get('chart');
    expect(chart.getSnapshot().value).toBe('loading');
    expect(chart.getSnapshot().context).toMatchObject({ pairCode: 'EURUSD', timeframe: '5s' });

    // The init_pairs of a reconnect: the selection stands, nothing is saved or sent again.
    actor.send({ type: 'pairs.pairsReceived', pairs: [EURUSD, BTCUSD] });
    expect(parentEvents).toHaveLength(2);
  });

  it('keeps a saved pair without saving it again, and switches pair and timeframe on request', () => {
    const { actor, parentEvents } = startUnderParent(pairsMachine);
    actor.send({ type: 'pairs.sessionStarted', currentPair: 'EURUSD', currentTimeframe: '1m' });
    expect(actor.getSnapshot().value).toEqual({ loggedIn: 'awaitingPairs' });
    actor.send({ type: 'pairs.pairsReceived', pairs: [EURUSD, BTCUSD] });
    expect(parentEvents).toEqual([{ type: 'socket.emitRequested', event: 'select_pair', payload: { pair_code: 'EURUSD', timeframe: '1m' } }]);

    actor.send({ type: 'pairs.pairSelected', pairCode: 'BTCUSD' });
    actor.send({ type: 'pairs.pairSelected', pairCode: 'BTCUSD' });
    actor.send({ type: 'pairs.pairSelected', pairCode: 'NOPE' });
    actor.send({ type: 'pairs.timeframeSelected', timeframe: '5s' });
    actor.send({ type: 'pairs.timeframeSelected', timeframe: '1h' });
    expect(parentEvents.slice(1)).toEqual([
      { type: 'settings.changed', patch: { currentPair: 'BTCUSD', currentTimeframe: '1m' } },
      { type: 'socket.emitRequested', event: 'select_pair', payload: { pair_code: 'BTCUSD', timeframe: '1m' } },
      { type: 'settings.changed', patch: { currentPair: 'BTCUSD', currentTimeframe: '1h' } },
      { type: 'socket.emitRequested', event: 'select_pair', payload: { pair_code: 'BTCUSD', timeframe: '1h' } },
    ]);
    expect(actor.system.get('chart').getSnapshot().context).toMatchObject({ pairCode: 'BTCUSD', timeframe: '1h' });
  });

  it('marks a pair delayed and live again from pair_status, in any state, keeping the other pairs', () => {
    const { actor } = startUnderParent(pairsMachine);
    actor.send({ type: 'pairs.sessionStarted', currentPair: 'BTCUSD', currentTimeframe: '1m' });
    actor.send({ type: 'pairs.pairsReceived', pairs: [EURUSD, BTCUSD] });
    actor.send({ type: 'pairs.statusReceived', pairCode: 'BTCUSD', quotes: 'delayed' });
    expect(selectCurrentPair(actor.getSnapshot().context)?.quotes).toBe('delayed');
    expect(actor.getSnapshot().context.pairs[0]).toBe(EURUSD);
    actor.send({ type: 'pairs.statusReceived', pairCode: 'BTCUSD', quotes: 'live' });
    expect(selectCurrentPair(actor.getSnapshot().context)?.quotes).toBe('live');
    expect(actor.getSnapshot().context.currentPair).toBe('BTCUSD');
  });

  it('moves off a pair that was switched off and keeps prices whatever the session', () => {
    const { actor, parentEvents } = startUnderParent(pairsMachine);
    actor.send({ type: 'pairs.ratesReceived', rates: [{ pair_code: 'EURUSD', current_price: 1.1 }, { pair_code: 'BTCUSD', current_price: 60000 }] });
    actor.send({ type: 'pairs.priceUpdated', pairCode: 'EURUSD', price: 1.10002 });
    expect(actor.getSnapshot().context.rates).toEqual({ EURUSD: 1.10002, BTCUSD: 60000 });

    actor.send({ type: 'pairs.sessionStarted', currentPair: 'BTCUSD', currentTimeframe: '1m' });
    actor.send({ type: 'pairs.pairsReceived', pairs: [EURUSD, BTCUSD] });
    actor.send({ type: 'pairs.pairsReceived', pairs: [EURUSD, { ...BTCUSD, is_active: false }] });
    expect(actor.getSnapshot().context).toMatchObject({ currentPair: 'EURUSD', currentTimeframe: '5s' });
    expect(parentEvents.at(-2)).toEqual({ type: 'settings.changed', patch: { currentPair: 'EURUSD', currentTimeframe: '5s' } });

    actor.send({ type: 'pairs.sessionEnded' });
    expect(actor.getSnapshot().value).toBe('loggedOut');
    expect(actor.getSnapshot().context).toMatchObject({ currentPair: null, currentTimeframe: null, subscribed: null });
    expect(actor.system.get('chart').getSnapshot().value).toBe('idle');
    // A new session subscribes again, even to the same pair.
    actor.send({ type: 'pairs.sessionStarted', currentPair: 'EURUSD', currentTimeframe: '5s' });
    expect(parentEvents.at(-1)).toEqual({ type: 'socket.emitRequested', event: 'select_pair', payload: { pair_code: 'EURUSD', timeframe: '5s' } });
  });

  it('waits when every pair is switched off', () => {
    const { actor, parentEvents } = startUnderParent(pairsMachine);
    actor.send({ type: 'pairs.sessionStarted', currentPair: null, currentTimeframe: null });
    actor.send({ type: 'pairs.pairsReceived', pairs: [USDTRY] });
    expect(actor.getSnapshot().value).toEqual({ loggedIn: 'awaitingPairs' });
    expect(parentEvents).toEqual([]);
  });
});

describe('24-hour change and the selector order', () => {
  it('keeps the price 24 h ago from the rates (and since when, for a short history), and the change against the latest price', () => {
    const { actor } = startUnderParent(pairsMachine);
    actor.send({
      type: 'pairs.ratesReceived',
      rates: [
        { pair_code: 'EURUSD', current_price: 1.1, price_24h: 1.0 },
        { pair_code: 'BTCUSD', current_price: 60000, price_24h: 64000, price_24h_time: 1_700_000_000_000 },
        { pair_code: 'AAPL', current_price: 270 },
      ],
    });
    const before = actor.getSnapshot().context.dayBases;
    expect(before).toEqual({ EURUSD: { price: 1.0 }, BTCUSD: { price: 64000, since: 1_700_000_000_000 } });
    actor.send({ type: 'pairs.priceUpdated', pairCode: 'EURUSD', price: 1.05 });
    const context = actor.getSnapshot().context;
    expect(dayChangeOf(context, 'EURUSD')).toBeCloseTo(0.05, 10);
    expect(dayChangeOf(context, 'BTCUSD')).toBeCloseTo(-0.0625, 10);
    expect(dayChangeOf(context, 'AAPL')).toBeNull();
    expect(dayChangeOf(context, 'NOPE')).toBeNull();
    // The same bases again: the map is kept as it is (the selector does not re-sort every second).
    actor.send({ type: 'pairs.ratesReceived', rates: [{ pair_code: 'EURUSD', current_price: 1.06, price_24h: 1.0 }] });
    expect(actor.getSnapshot().context.dayBases).toBe(before);
    actor.send({ type: 'pairs.ratesReceived', rates: [{ pair_code: 'EURUSD', current_price: 1.06, price_24h: 1.01 }] });
    expect(actor.getSnapshot().context.dayBases.EURUSD).toEqual({ price: 1.01 });
  });

  it('sorts by name, change and payout either way; unknown changes last; the default is the server order', () => {
    const pairs = [EURUSD, BTCUSD, AAPL];
    const context = { rates: { EURUSD: 1.1, BTCUSD: 60000, AAPL: 270 }, dayBases: { EURUSD: { price: 1.0 }, BTCUSD: { price: 64000 } } };
    const codes = (key: 'default' | 'name' | 'change' | 'payout', descending: boolean) => sortPairs(pairs, { key, descending }, context).map((p) => p.pair_code);
    expect(codes('default', false)).toEqual(['EURUSD', 'BTCUSD', 'AAPL']);
    expect(codes('name', false)).toEqual(['AAPL', 'BTCUSD', 'EURUSD']);
    expect(codes('name', true)).toEqual(['EURUSD', 'BTCUSD', 'AAPL']);
    expect(codes('change', true)).toEqual(['EURUSD', 'BTCUSD', 'AAPL']);
    expect(codes('change', false)).toEqual(['BTCUSD', 'EURUSD', 'AAPL']);
    expect(codes('payout', true)).toEqual(['EURUSD', 'BTCUSD', 'AAPL'].sort((a, b) => payoutOf(b) - payoutOf(a) || pairs.findIndex((p) => p.pair_code === a) - pairs.findIndex((p) => p.pair_code === b)));
  });

  it('keeps the chosen order in any state', () => {
    const { actor } = startUnderParent(pairsMachine);
    expect(actor.getSnapshot().context.sort).toEqual({ key: 'default', descending: false });
    actor.send({ type: 'pairs.sortChosen', sort: { key: 'payout', descending: true } });
    expect(actor.getSnapshot().context.sort).toEqual({ key: 'payout', descending: true });
  });
});

function payoutOf(code: string): number {
  return [EURUSD, BTCUSD, AAPL].find((p) => p.pair_code === code)!.payout_rate;
}
