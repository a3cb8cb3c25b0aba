/**
 * The session's front-settings merge (queued saves and the user it keeps) takes every key of a
 * change, not a fixed list: the trader-tools switches (keyboard_shortcuts, sounds) used to be
 * dropped before they were sent, so they were never saved. Chart setups still merge per pair.
 */
import { describe, expect, it } from 'vitest';
import { mergeFrontSettings, mergePatches } from '../../machines/session/session.machine';
import type { FrontSettings } from '../../contract/user';

const settings: FrontSettings = {
  avatar_url: null,
  currentPair: 'EURUSD',
  currentTimeframe: '1m',
  balance_type: 'DemoBalance',
  current_currency: 'USD',
  language: 'en',
  theme: 'dark',
  chart_setups: {},
};

describe('session settings merge', () => {
  it('queues every key of a change, the later value winning', () => {
    expect(mergePatches({ theme: 'light' }, { keyboard_shortcuts: false })).toEqual({ theme: 'light', keyboard_shortcuts: false });
    expect(mergePatches({ sounds: false, language: 'ru' }, { sounds: true })).toEqual({ sounds: true, language: 'ru' });
    expect(mergePatches({ theme: 'light' }, { theme: undefined })).toEqual({ theme: 'light' });
  });

  it("applies every key to the user's settings and keeps the others", () => {
    const merged = mergeFrontSettings(settings, { keyboard_shortcuts: false, sounds: false, theme: 'light' });
    expect(merged).toMatchObject({ keyboard_shortcuts: false, sounds: false, theme: 'light', currentPair: 'EURUSD', language: 'en' });
  });

  it('still merges chart setups pair by pair', () => {
    const a = mergePatches({ chart_setups: { EURUSD: null } }, { chart_setups: { BTCUSD: null } });
    expect(Object.keys(a.chart_setups ?? {}).sort()).toEqual(['BTCUSD', 'EURUSD']);
  });
});
