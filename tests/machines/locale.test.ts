/**
 * Locale: generated paths for both starts, plus the order of choice (stored language, then the
 * user's setting, else en) and what a user choice does (apply, store, save to the account).
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { localeMachine } from '../../machines/locale/locale.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';

const events = [
  { type: 'locale.chosen', language: 'ru' },
  { type: 'locale.chosen', language: 'es' },
  { type: 'locale.userLoaded', language: 'es' },
  { type: 'locale.userLoaded', language: null },
];
const fresh: PathModel = { name: 'locale', machine: localeMachine, input: { stored: null }, events };
const stored: PathModel = { name: 'locale', machine: localeMachine, input: { stored: 'ru' }, events };

describe('locale machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(fresh))('nothing stored: %s', (_, path) => {
    replayPath(fresh, path);
  });
  it.each(pathCases(stored))('stored ru: %s', (_, path) => {
    replayPath(stored, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('locale'));
});

function start(stored: 'en' | 'ru' | 'es' | null) {
  const applyLanguage = vi.fn();
  const persistLanguage = vi.fn();
  const machine = localeMachine.provide({
    actions: {
      applyLanguage: (_, params) => applyLanguage(params.language),
      persistLanguage: (_, params) => persistLanguage(params.language),
    },
  });
  return { ...startUnderParent(machine, { stored }), applyLanguage, persistLanguage };
}

describe('locale order of choice', () => {
  it('uses the stored language over the user setting', () => {
    const { actor, applyLanguage } = start('ru');
    actor.send({ type: 'locale.userLoaded', language: 'es' });
    expect(actor.getSnapshot().context.language).toBe('ru');
    expect(applyLanguage.mock.calls.map((c) => c[0])).toEqual(['ru']);
  });

  it("uses the user's setting when nothing is stored, else English", () => {
    const { actor, applyLanguage, persistLanguage } = start(null);
    expect(actor.getSnapshot().context.language).toBe('en');
    actor.send({ type: 'locale.userLoaded', language: null });
    expect(actor.getSnapshot().context.language).toBe('en');
    actor.send({ type: 'locale.userLoaded', language: 'es' });
    expect(actor.getSnapshot().context.language).toBe('es');
    expect(applyLanguage.mock.calls.map((c) => c[0])).toEqual(['en', 'es']);
    expect(persistLanguage).not.toHaveBeenCalled();
  });

  it('applies, stores and saves a language the user chooses', () => {
    const { actor, applyLanguage, persistLanguage, parentEvents } = start(null);
    actor.send({ type: 'locale.chosen', language: 'ru' });
    expect(actor.getSnapshot().value).toBe('chosenLocally');
    expect(applyLanguage).toHaveBeenLastCalledWith('ru');
    expect(persistLanguage).toHaveBeenCalledWith('ru');
    expect(parentEvents).toEqual([{ type: 'settings.changed', patch: { language: 'ru' } }]);
    actor.send({ type: 'locale.userLoaded', language: 'es' });
    expect(actor.getSnapshot().context.language).toBe('ru');
  });
});
