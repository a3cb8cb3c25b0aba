/**
 * Theme: generated paths for both starts (something stored on the device or not), plus the
 * rules: dark default, toggle dark <-> light, auto follows the system, the user's saved theme
 * applies only when nothing is stored locally, a user choice is stored and sent as a settings
 * change, applyTheme gets the resolved theme.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { themeMachine, resolveTheme } from '../../machines/theme/theme.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';

const events = [
  { type: 'theme.toggled' },
  { type: 'theme.chosen', theme: 'auto' },
  { type: 'theme.chosen', theme: 'light' },
  { type: 'theme.systemChanged', dark: false },
  { type: 'theme.systemChanged', dark: true },
  { type: 'theme.userLoaded', theme: 'light' },
  { type: 'theme.userLoaded', theme: null },
];
const fresh: PathModel = { name: 'theme', machine: themeMachine, input: { stored: null, systemPrefersDark: true }, events, simplePaths: 300 };
const stored: PathModel = { name: 'theme', machine: themeMachine, input: { stored: 'light', systemPrefersDark: false }, events, simplePaths: 300 };

describe('theme machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(fresh))('nothing stored: %s', (_, path) => {
    replayPath(fresh, path);
  });
  it.each(pathCases(stored))('stored light: %s', (_, path) => {
    replayPath(stored, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('theme'));
});

function start(input: { stored: 'dark' | 'light' | 'auto' | null; systemPrefersDark: boolean }) {
  const applyTheme = vi.fn();
  const persistTheme = vi.fn();
  const machine = themeMachine.provide({
    actions: {
      applyTheme: (_, params) => applyTheme(params.resolved),
      persistTheme: (_, params) => persistTheme(params.theme),
    },
  });
  return { ...startUnderParent(machine, input), applyTheme, persistTheme };
}

describe('theme rules', () => {
  it('starts dark and applies it', () => {
    const { actor, applyTheme } = start({ stored: null, systemPrefersDark: false });
    expect(actor.getSnapshot().context.setting).toBe('dark');
    expect(actor.getSnapshot().value).toBe('followingDefault');
    expect(applyTheme).toHaveBeenCalledWith('dark');
  });

  it('toggles dark <-> light, stores the choice and asks to save it to the account', () => {
    const { actor, applyTheme, persistTheme, parentEvents } = start({ stored: null, systemPrefersDark: true });
    actor.send({ type: 'theme.toggled' });
    expect(actor.getSnapshot().context.setting).toBe('light');
    actor.send({ type: 'theme.toggled' });
    expect(actor.getSnapshot().context.setting).toBe('dark');
    expect(applyTheme.mock.calls.map((c) => c[0])).toEqual(['dark', 'light', 'dark']);
    expect(persistTheme.mock.calls.map((c) => c[0])).toEqual(['light', 'dark']);
    expect(parentEvents).toEqual([
      { type: 'settings.changed', patch: { theme: 'light' } },
      { type: 'settings.changed', patch: { theme: 'dark' } },
    ]);
    expect(actor.getSnapshot().value).toBe('chosenLocally');
  });

  it('auto follows the system preference, and toggling from auto flips what is shown', () => {
    const { actor, applyTheme } = start({ stored: 'auto', systemPrefersDark: false });
    expect(applyTheme).toHaveBeenLastCalledWith('light');
    actor.send({ type: 'theme.systemChanged', dark: true });
    expect(applyTheme).toHaveBeenLastCalledWith('dark');
    actor.send({ type: 'theme.toggled' });
    expect(actor.getSnapshot().context.setting).toBe('light');
    expect(resolveTheme('auto', true)).toBe('dark');
    expect(resolveTheme('auto', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });

  it("applies the user's saved theme only when nothing is stored on the device", () => {
    const nothingStored = start({ stored: null, systemPrefersDark: true });
    nothingStored.actor.send({ type: 'theme.userLoaded', theme: 'light' });
    expect(nothingStored.actor.getSnapshot().context.setting).toBe('light');
    expect(nothingStored.persistTheme).not.toHaveBeenCalled();
    expect(nothingStored.parentEvents).toEqual([]);

    const storedDark = start({ stored: 'dark', systemPrefersDark: true });
    storedDark.actor.send({ type: 'theme.userLoaded', theme: 'light' });
    expect(storedDark.actor.getSnapshot().context.setting).toBe('dark');
  });
});
