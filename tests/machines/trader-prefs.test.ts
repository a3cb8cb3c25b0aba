/**
 * Keyboard trading and trade sounds (trader-prefs.machine): generated paths with full
 * coverage, then behaviour: which key is which shortcut, keys ignored while typing, with a
 * modifier or when switched off, `?` opens the list (also when off) and Escape closes it, a
 * switch is saved to the account, the account's saved choice is adopted, and sounds play only
 * when on and the page is visible (won / lost; a tie is silent).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createActor, type AnyEventObject } from 'xstate';
import { SHORTCUTS, shortcutFor, soundForResult, toggledFavourites, traderPrefsMachine, type TradeSound } from '../../machines/trader-prefs/trader-prefs.machine';
import { MAX_FAVOURITE_PAIRS } from '../../contract/user';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';

const events: AnyEventObject[] = [
  { type: 'traderPrefs.userLoaded', shortcuts: false, sounds: null },
  { type: 'traderPrefs.userLoaded', shortcuts: null, sounds: false },
  { type: 'traderPrefs.shortcutsSwitched', enabled: false },
  { type: 'traderPrefs.shortcutsSwitched', enabled: true },
  { type: 'traderPrefs.soundsSwitched', enabled: false },
  { type: 'traderPrefs.soundsSwitched', enabled: true },
  { type: 'traderPrefs.keyPressed', key: 'ArrowUp', inField: false, modified: false },
  { type: 'traderPrefs.keyPressed', key: 'ArrowUp', inField: true, modified: false },
  { type: 'traderPrefs.keyPressed', key: '?', inField: false, modified: false },
  { type: 'traderPrefs.keyPressed', key: 'Escape', inField: false, modified: false },
  { type: 'traderPrefs.keyPressed', key: 'q', inField: false, modified: false },
  { type: 'traderPrefs.helpOpened' },
  { type: 'traderPrefs.helpClosed' },
  { type: 'traderPrefs.visibilityChanged', hidden: true },
  { type: 'traderPrefs.visibilityChanged', hidden: false },
  { type: 'traderPrefs.orderOpened' },
  { type: 'traderPrefs.orderSettled', result: 'won' },
  { type: 'traderPrefs.orderSettled', result: 'lost' },
  { type: 'traderPrefs.orderSettled', result: 'tie' },
  { type: 'traderPrefs.favouriteToggled', pairCode: 'EURUSD' },
  { type: 'traderPrefs.userLoaded', shortcuts: null, sounds: null, favourites: ['BTCUSD'] },
];
const model: PathModel = {
  name: 'traderPrefs',
  machine: traderPrefsMachine,
  events,
  simplePathEvents: [events[2], events[8], events[9], events[11], events[12]],
  simplePaths: 100,
};

describe('traderPrefs machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('traderPrefs'));
});

function start() {
  const played: TradeSound[] = [];
  const machine = traderPrefsMachine.provide({ actions: { playSound: (_, params: { sound: TradeSound }) => played.push(params.sound) } });
  const { actor, parentEvents } = startUnderParent(machine);
  const shortcuts: string[] = [];
  actor.on('shortcut', (e) => shortcuts.push(e.action));
  const press = (key: string, extra: { inField?: boolean; modified?: boolean } = {}) =>
    actor.send({ type: 'traderPrefs.keyPressed', key, inField: extra.inField ?? false, modified: extra.modified ?? false });
  return { actor, parentEvents, played, shortcuts, press };
}

describe('keyboard trading', () => {
  it('documents one action per key, every action reachable', () => {
    const keys = SHORTCUTS.flatMap((s) => s.keys);
    expect(new Set(keys).size).toBe(keys.length);
    for (const s of SHORTCUTS) for (const key of s.keys) expect(shortcutFor(key)).toBe(s.action);
    expect(shortcutFor('x')).toBeNull();
  });

  it('emits the shortcut of a key, not while typing, not with Ctrl/Alt/Meta, not when off', () => {
    const { actor, press, shortcuts, parentEvents } = start();
    press('ArrowUp');
    press('s');
    press('+');
    press('[');
    press('.');
    press('p');
    press('ArrowUp', { inField: true });
    press('ArrowDown', { modified: true });
    press('x');
    expect(shortcuts).toEqual(['up', 'down', 'amountUp', 'timeDown', 'nextPair', 'pairSelector']);
    actor.send({ type: 'traderPrefs.shortcutsSwitched', enabled: false });
    expect(parentEvents).toEqual([{ type: 'settings.changed', patch: { keyboard_shortcuts: false } }]);
    press('ArrowUp');
    expect(shortcuts).toHaveLength(6);
  });

  it('? opens the list even when keys are off; keys do not trade behind it; Escape closes it', () => {
    const { actor, press, shortcuts } = start();
    actor.send({ type: 'traderPrefs.userLoaded', shortcuts: false, sounds: true });
    press('?');
    expect(actor.getSnapshot().value).toBe('helpOpen');
    actor.send({ type: 'traderPrefs.shortcutsSwitched', enabled: true });
    press('ArrowUp');
    expect(shortcuts).toEqual([]);
    press('Escape');
    expect(actor.getSnapshot().value).toBe('trading');
    press('?', { inField: true });
    expect(actor.getSnapshot().value).toBe('trading');
  });

  it("adopts the account's saved choices (null or absent means on)", () => {
    const { actor } = start();
    actor.send({ type: 'traderPrefs.userLoaded', shortcuts: false, sounds: false });
    expect(actor.getSnapshot().context).toMatchObject({ shortcuts: false, sounds: false });
    actor.send({ type: 'traderPrefs.userLoaded', shortcuts: null, sounds: undefined });
    expect(actor.getSnapshot().context).toMatchObject({ shortcuts: true, sounds: true });
  });
});

describe('trade sounds', () => {
  it('plays opened / won / lost when on and visible; a tie, a hidden page or sounds off are silent', () => {
    const { actor, played, parentEvents } = start();
    actor.send({ type: 'traderPrefs.orderOpened' });
    actor.send({ type: 'traderPrefs.orderSettled', result: 'won' });
    actor.send({ type: 'traderPrefs.orderSettled', result: 'lost' });
    actor.send({ type: 'traderPrefs.orderSettled', result: 'tie' });
    expect(played).toEqual(['opened', 'won', 'lost']);
    actor.send({ type: 'traderPrefs.visibilityChanged', hidden: true });
    actor.send({ type: 'traderPrefs.orderSettled', result: 'won' });
    expect(played).toHaveLength(3);
    actor.send({ type: 'traderPrefs.visibilityChanged', hidden: false });
    actor.send({ type: 'traderPrefs.soundsSwitched', enabled: false });
    actor.send({ type: 'traderPrefs.orderOpened' });
    expect(played).toHaveLength(3);
    expect(parentEvents).toEqual([{ type: 'settings.changed', patch: { sounds: false } }]);
    expect(soundForResult('closed_early')).toBeNull();
  });

  it('needs no parent for the defaults (on, on, visible)', () => {
    const actor = createActor(traderPrefsMachine).start();
    expect(actor.getSnapshot().context).toEqual({ shortcuts: true, sounds: true, hidden: false, favourites: [] });
  });
});

describe('favourite pairs', () => {
  it("adopts the account's favourites (absent: none), stars and unstars a pair and saves the whole list", () => {
    const { actor, parentEvents } = start();
    expect(actor.getSnapshot().context.favourites).toEqual([]);
    actor.send({ type: 'traderPrefs.userLoaded', shortcuts: null, sounds: null, favourites: ['BTCUSD'] });
    expect(actor.getSnapshot().context.favourites).toEqual(['BTCUSD']);
    actor.send({ type: 'traderPrefs.favouriteToggled', pairCode: 'EURUSD' });
    actor.send({ type: 'traderPrefs.favouriteToggled', pairCode: 'BTCUSD' });
    expect(actor.getSnapshot().context.favourites).toEqual(['EURUSD']);
    expect(parentEvents).toEqual([
      { type: 'settings.changed', patch: { favourite_pairs: ['BTCUSD', 'EURUSD'] } },
      { type: 'settings.changed', patch: { favourite_pairs: ['EURUSD'] } },
    ]);
    actor.send({ type: 'traderPrefs.userLoaded', shortcuts: null, sounds: null });
    expect(actor.getSnapshot().context.favourites).toEqual([]);
  });

  it('keeps at most the newest MAX_FAVOURITE_PAIRS stars', () => {
    const many = Array.from({ length: MAX_FAVOURITE_PAIRS }, (_, i) => `P${i}`);
    const next = toggledFavourites(many, 'NEW');
    expect(next).toHaveLength(MAX_FAVOURITE_PAIRS);
    expect(next[0]).toBe('P1');
    expect(next.at(-1)).toBe('NEW');
  });
});
