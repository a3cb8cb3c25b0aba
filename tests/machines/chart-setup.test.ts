/**
 * Chart setup (issue 16): generated paths over every state and transition, and the behaviour
 * the trading screen relies on: per-pair setups restored from the front settings, every change
 * saved as a `settings.changed {chart_setups: {[pair]: setup}}` for that pair only, bounded
 * studies and drawings, invalid study edits ignored, and the two-click trend line.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fromPromise, waitFor, type AnyEventObject } from 'xstate';
import type { User } from '../../contract/user';
import { sessionMachine, type SaveFrontSettingsInput } from '../../machines/session/session.machine';
import type { PersistedSession } from '../../machines/types';
import { makeUser } from './fixtures';
import { MAX_DRAWINGS, MAX_STUDIES, type ChartSetup, type Study } from '../../contract/chart';
import { chartSetupMachine, defaultStudy, nextId, setupOf } from '../../machines/chart-setup/chart-setup.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';

const saved: ChartSetup = {
  type: 'bars',
  studies: [{ id: 's1', kind: 'sma', period: 20, color: '#f5a623' }],
  drawings: [{ id: 'd1', kind: 'hline', price: 1.1 }],
};

const full: ChartSetup = { type: 'candles', studies: [], drawings: Array.from({ length: MAX_DRAWINGS }, (_, i) => ({ id: `d${i + 1}`, kind: 'hline' as const, price: 1 + i })) };

const events: AnyEventObject[] = [
  { type: 'chartSetup.sessionStarted', setups: { EURUSD: saved } },
  { type: 'chartSetup.sessionEnded' },
  { type: 'chart.typeChosen', pairCode: 'EURUSD', chartType: 'heikin_ashi' },
  { type: 'chart.typeChosen', pairCode: 'EURUSD', chartType: 'bars' },
  { type: 'chart.setupReset', pairCode: 'EURUSD' },
  { type: 'study.added', pairCode: 'EURUSD', kind: 'rsi' },
  { type: 'study.updated', pairCode: 'EURUSD', study: { id: 's1', kind: 'sma', period: 50, color: '#4aa3ff' } },
  { type: 'study.updated', pairCode: 'EURUSD', study: { id: 's1', kind: 'sma', period: 1, color: '#4aa3ff' } },
  { type: 'study.removed', pairCode: 'EURUSD', id: 's1' },
  { type: 'drawing.removed', pairCode: 'EURUSD', id: 'd1' },
  { type: 'drawing.toolChosen', pairCode: 'EURUSD', tool: 'hline' },
  { type: 'drawing.toolChosen', pairCode: 'EURUSD', tool: 'trend' },
  { type: 'drawing.pointPicked', pairCode: 'EURUSD', point: { time: 60, price: 1.2 } },
  { type: 'drawing.pointPicked', pairCode: 'BTCUSD', point: { time: 120, price: 64000 } },
  { type: 'drawing.cancelled' },
  { type: 'chartSetup.sessionStarted', setups: { GBPUSD: full } },
  { type: 'drawing.toolChosen', pairCode: 'GBPUSD', tool: 'trend' },
];

const model: PathModel = {
  name: 'chartSetup',
  machine: chartSetupMachine,
  // Bounded: the full set while the pair has few drawings, without new drawings beyond that.
  events: (snapshot) => {
    const setups = snapshot.context.setups;
    const drawings = setupOf(setups, 'EURUSD').drawings.length + setupOf(setups, 'BTCUSD').drawings.length;
    const studiesAsSaved = JSON.stringify(setupOf(setups, 'EURUSD').studies) === JSON.stringify(saved.studies);
    return events.filter(
      (e) => !(e.type === 'drawing.pointPicked' && drawings >= 2) && !(e.type.startsWith('study.') && !studiesAsSaved) && !(e.type === 'chart.typeChosen' && !(setups.EURUSD && drawings < 2 && !snapshot.context.pending)),
    );
  },
  simplePaths: 200,
  simplePathEvents: [events[0], events[1], events[10], events[11], events[14]],
};

describe('chartSetup machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('chartSetup'));
});

describe('chart setup behaviour', () => {
  function started() {
    const run = startUnderParent(chartSetupMachine);
    run.actor.send({ type: 'chartSetup.sessionStarted', setups: { EURUSD: saved } });
    return run;
  }

  it('restores the saved setups per pair and shows the defaults for a pair without one', () => {
    const { actor, parentEvents } = started();
    expect(setupOf(actor.getSnapshot().context.setups, 'EURUSD')).toEqual(saved);
    expect(setupOf(actor.getSnapshot().context.setups, 'BTCUSD')).toEqual({ type: 'candles', studies: [], drawings: [] });
    expect(parentEvents).toEqual([]);
  });

  it('saves each change for the pair it names only', () => {
    const { actor, parentEvents } = started();
    actor.send({ type: 'chart.typeChosen', pairCode: 'BTCUSD', chartType: 'line' });
    actor.send({ type: 'study.added', pairCode: 'BTCUSD', kind: 'macd' });
    expect(parentEvents).toEqual([
      { type: 'settings.changed', patch: { chart_setups: { BTCUSD: { type: 'line', studies: [], drawings: [] } } } },
      {
        type: 'settings.changed',
        patch: {
          chart_setups: {
            BTCUSD: { type: 'line', studies: [{ id: 's1', kind: 'macd', fast: 12, slow: 26, signal: 9, color: '#f5a623', signalColor: '#4aa3ff' }], drawings: [] },
          },
        },
      },
    ]);
    actor.send({ type: 'chart.setupReset', pairCode: 'BTCUSD' });
    expect(parentEvents.at(-1)).toEqual({ type: 'settings.changed', patch: { chart_setups: { BTCUSD: null } } });
    expect(actor.getSnapshot().context.setups).toEqual({ EURUSD: saved });
  });

  it('edits a study only with valid periods and colours, and removes it', () => {
    const { actor, parentEvents } = started();
    const bad: Study[] = [
      { id: 's1', kind: 'sma', period: 1, color: '#4aa3ff' },
      { id: 's1', kind: 'sma', period: 20, color: 'red' },
      { id: 's9', kind: 'sma', period: 20, color: '#4aa3ff' },
      { id: 's1', kind: 'ema', period: 20, color: '#4aa3ff' },
    ];
    for (const study of bad) actor.send({ type: 'study.updated', pairCode: 'EURUSD', study });
    expect(parentEvents).toEqual([]);
    actor.send({ type: 'study.updated', pairCode: 'EURUSD', study: { id: 's1', kind: 'sma', period: 50, color: '#4aa3ff' } });
    expect(setupOf(actor.getSnapshot().context.setups, 'EURUSD').studies).toEqual([{ id: 's1', kind: 'sma', period: 50, color: '#4aa3ff' }]);
    actor.send({ type: 'study.removed', pairCode: 'EURUSD', id: 's1' });
    expect(setupOf(actor.getSnapshot().context.setups, 'EURUSD').studies).toEqual([]);
    expect(parentEvents).toHaveLength(2);
  });

  it(`refuses a study beyond ${MAX_STUDIES} and a drawing tool beyond ${MAX_DRAWINGS} drawings`, () => {
    const { actor } = started();
    for (let i = 0; i < MAX_STUDIES + 2; i += 1) actor.send({ type: 'study.added', pairCode: 'EURUSD', kind: 'ema' });
    expect(setupOf(actor.getSnapshot().context.setups, 'EURUSD').studies).toHaveLength(MAX_STUDIES);
    for (let i = 0; i < MAX_DRAWINGS + 2; i += 1) {
      actor.send({ type: 'drawing.toolChosen', pairCode: 'EURUSD', tool: 'hline' });
      actor.send({ type: 'drawing.pointPicked', pairCode: 'EURUSD', point: { time: 60, price: 1 + i / 100 } });
    }
    expect(setupOf(actor.getSnapshot().context.setups, 'EURUSD').drawings).toHaveLength(MAX_DRAWINGS);
    expect(actor.getSnapshot().value).toEqual({ loggedIn: 'viewing' });
  });

  it('draws a trend line with two points on the same pair, starting again when the pair changed', () => {
    const { actor, parentEvents } = started();
    actor.send({ type: 'drawing.toolChosen', pairCode: 'EURUSD', tool: 'trend' });
    actor.send({ type: 'drawing.pointPicked', pairCode: 'EURUSD', point: { time: 60, price: 1.1 } });
    actor.send({ type: 'drawing.pointPicked', pairCode: 'BTCUSD', point: { time: 120, price: 64000 } });
    expect(actor.getSnapshot().value).toEqual({ loggedIn: 'placingTrendEnd' });
    actor.send({ type: 'drawing.pointPicked', pairCode: 'BTCUSD', point: { time: 180, price: 64100 } });
    expect(actor.getSnapshot().value).toEqual({ loggedIn: 'viewing' });
    expect(setupOf(actor.getSnapshot().context.setups, 'BTCUSD').drawings).toEqual([
      { id: 'd1', kind: 'trend', from: { time: 120, price: 64000 }, to: { time: 180, price: 64100 } },
    ]);
    expect(parentEvents).toHaveLength(1);
  });

  it('forgets everything on logout', () => {
    const { actor } = started();
    actor.send({ type: 'chartSetup.sessionEnded' });
    expect(actor.getSnapshot().context).toEqual({ setups: {}, pending: null });
    expect(actor.getSnapshot().value).toBe('loggedOut');
  });

  it('gives new studies the next id and an unused colour', () => {
    expect(nextId('s', [{ id: 's1' }, { id: 's7' }, { id: 'd9' }])).toBe('s8');
    const first = defaultStudy('sma', []);
    expect(defaultStudy('ema', [first]).color).not.toBe(first.color);
  });
});

describe('saving chart setups through the session (front settings)', () => {
  it('a change queued while a save runs keeps the other pair waiting in the same request', async () => {
    const saves: SaveFrontSettingsInput[] = [];
    const pending: Array<(value: unknown) => void> = [];
    const user = makeUser({ front_settings: { chart_setups: { EURUSD: saved } } });
    const machine = sessionMachine.provide({
      actors: {
        fetchMe: fromPromise<User, void>(() => Promise.resolve(user)),
        saveFrontSettings: fromPromise<unknown, SaveFrontSettingsInput>(({ input }) => {
          saves.push(input);
          return new Promise((resolve) => pending.push(resolve));
        }),
      },
    });
    const persisted: PersistedSession = {
      token: 'tok',
      refreshToken: 'ref',
      user,
      isAuthenticated: true,
      balanceType: 'DemoBalance',
      currentPair: 'EURUSD',
      currentTimeframe: '1m',
      sessionType: 'user',
    };
    const { actor } = startUnderParent(machine, { persistedSession: persisted, adminToken: null });
    await waitFor(actor, (s) => s.hasTag('authenticated') && s.context.user !== null);
    const line: ChartSetup = { type: 'line', studies: [], drawings: [] };
    actor.send({ type: 'session.settingsChanged', patch: { chart_setups: { EURUSD: line } } });
    actor.send({ type: 'session.settingsChanged', patch: { chart_setups: { BTCUSD: line } } });
    actor.send({ type: 'session.settingsChanged', patch: { chart_setups: { AAPL: null } } });
    expect(saves).toEqual([{ patch: { chart_setups: { EURUSD: line } } }]);
    pending[0]({});
    await waitFor(actor, () => saves.length === 2);
    expect(saves[1]).toEqual({ patch: { chart_setups: { BTCUSD: line, AAPL: null } } });
    // The user the session holds has every pair's change applied at once.
    expect(actor.getSnapshot().context.user!.front_settings.chart_setups).toEqual({ EURUSD: line, BTCUSD: line });
  });
});
