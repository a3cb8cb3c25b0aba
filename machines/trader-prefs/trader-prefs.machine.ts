/**
 * The trader's screen preferences (issue 16 items 4 and 5): keyboard trading and trade sounds,
 * and the shortcuts dialog.
 *
 * Lifecycle: long-lived, spawned by the app with systemId 'traderPrefs'. Both switches are on
 * by default; `traderPrefs.userLoaded` (login) adopts the account's saved front settings
 * (null or absent: on). A switch (`traderPrefs.shortcutsSwitched`, `traderPrefs.soundsSwitched`)
 * applies at once and goes to the parent as `settings.changed` (the session saves it).
 *
 * Keyboard: the view reports every key press with `traderPrefs.keyPressed {key, inField,
 * modified}`. With shortcuts on, outside a text field and without Ctrl/Alt/Meta, a key that
 * names a shortcut (SHORTCUTS) is emitted as `shortcut {action}`; the trading screen listens and
 * sends the very events its buttons send. `?` opens the dialog that lists them (also when they
 * are off, so the trader learns how to switch them on); Escape closes it.
 *
 * Favourite pairs (issue 26 item 4): `traderPrefs.userLoaded` adopts the saved list
 * (`favourite_pairs`, absent: none); `traderPrefs.favouriteToggled {pairCode}` stars or unstars a
 * pair at once and saves the whole list the same way (at most MAX_FAVOURITE_PAIRS: the oldest
 * star goes first).
 *
 * Sounds: `traderPrefs.orderOpened` and `traderPrefs.orderSettled {result}` (from the order_update
 * push) run the `playSound {sound}` action when sounds are on and the page is visible
 * (`traderPrefs.visibilityChanged {hidden}`); the player itself is an effect the app provides
 * (src/services/sounds.ts).
 */
import { assertEvent, assign, emit, enqueueActions, setup } from 'xstate';
import type { SettingsPatch } from '../types';
import { MAX_FAVOURITE_PAIRS } from '../../contract/user';

export type ShortcutAction = 'up' | 'down' | 'amountUp' | 'amountDown' | 'timeUp' | 'timeDown' | 'nextPair' | 'previousPair' | 'pairSelector' | 'help';
export type TradeSound = 'opened' | 'won' | 'lost';

/** One documented shortcut: the keys (KeyboardEvent.key values) and what it does. */
export interface Shortcut {
  action: ShortcutAction;
  keys: readonly string[];
}

/** The documented shortcuts, in the order the dialog lists them (docs/trader-tools.md). */
export const SHORTCUTS: readonly Shortcut[] = [
  { action: 'up', keys: ['ArrowUp', 'w', 'W'] },
  { action: 'down', keys: ['ArrowDown', 's', 'S'] },
  { action: 'amountUp', keys: ['+', '='] },
  { action: 'amountDown', keys: ['-', '_'] },
  { action: 'timeUp', keys: [']'] },
  { action: 'timeDown', keys: ['['] },
  { action: 'nextPair', keys: ['ArrowRight', '.'] },
  { action: 'previousPair', keys: ['ArrowLeft', ','] },
  { action: 'pairSelector', keys: ['p', 'P'] },
  { action: 'help', keys: ['?'] },
];

/** The action a key names, or null. */
export function shortcutFor(key: string): ShortcutAction | null {
  return SHORTCUTS.find((s) => s.keys.includes(key))?.action ?? null;
}

export interface TraderPrefsContext {
  shortcuts: boolean;
  sounds: boolean;
  hidden: boolean;
  /** Favourite pair codes, in the order starred. */
  favourites: string[];
}

/** The favourites after starring or unstarring `pairCode`. */
export function toggledFavourites(favourites: readonly string[], pairCode: string): string[] {
  if (favourites.includes(pairCode)) return favourites.filter((code) => code !== pairCode);
  return [...favourites, pairCode].slice(-MAX_FAVOURITE_PAIRS);
}

export type TraderPrefsEvent =
  | { type: 'traderPrefs.userLoaded'; shortcuts: boolean | null | undefined; sounds: boolean | null | undefined; favourites?: readonly string[] | null }
  | { type: 'traderPrefs.favouriteToggled'; pairCode: string }
  | { type: 'traderPrefs.shortcutsSwitched'; enabled: boolean }
  | { type: 'traderPrefs.soundsSwitched'; enabled: boolean }
  | { type: 'traderPrefs.keyPressed'; key: string; inField: boolean; modified: boolean }
  | { type: 'traderPrefs.helpOpened' }
  | { type: 'traderPrefs.helpClosed' }
  | { type: 'traderPrefs.visibilityChanged'; hidden: boolean }
  | { type: 'traderPrefs.orderOpened' }
  | { type: 'traderPrefs.orderSettled'; result: string };

export type TraderPrefsEmitted = { type: 'shortcut'; action: Exclude<ShortcutAction, 'help'> };
export type TraderPrefsParentEvent = { type: 'settings.changed'; patch: SettingsPatch };

/** The sound of a settled order's result (ties, early closes and refunds make none). */
export function soundForResult(result: string): TradeSound | null {
  return result === 'won' ? 'won' : result === 'lost' ? 'lost' : null;
}

export const traderPrefsMachine = setup({
  types: {
    context: {} as TraderPrefsContext,
    events: {} as TraderPrefsEvent,
    emitted: {} as TraderPrefsEmitted,
  },
  actions: {
    /** Plays a short synthesised sound (real implementation in src/services/sounds.ts). */
    playSound: (_, _params: { sound: TradeSound }) => {},
    adoptUser: assign(({ event }) => {
      assertEvent(event, 'traderPrefs.userLoaded');
      return { shortcuts: event.shortcuts ?? true, sounds: event.sounds ?? true, favourites: [...(event.favourites ?? [])] };
    }),
    toggleFavourite: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'traderPrefs.favouriteToggled');
      const favourites = toggledFavourites(context.favourites, event.pairCode);
      enqueue.assign({ favourites });
      enqueue.sendParent({ type: 'settings.changed', patch: { favourite_pairs: favourites } } satisfies TraderPrefsParentEvent);
    }),
    switchShortcuts: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'traderPrefs.shortcutsSwitched');
      enqueue.assign({ shortcuts: event.enabled });
      enqueue.sendParent({ type: 'settings.changed', patch: { keyboard_shortcuts: event.enabled } } satisfies TraderPrefsParentEvent);
    }),
    switchSounds: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'traderPrefs.soundsSwitched');
      enqueue.assign({ sounds: event.enabled });
      enqueue.sendParent({ type: 'settings.changed', patch: { sounds: event.enabled } } satisfies TraderPrefsParentEvent);
    }),
    assignVisibility: assign(({ event }) => {
      assertEvent(event, 'traderPrefs.visibilityChanged');
      return { hidden: event.hidden };
    }),
    emitShortcut: emit(({ event }): TraderPrefsEmitted => {
      assertEvent(event, 'traderPrefs.keyPressed');
      const action = shortcutFor(event.key);
      if (action === null || action === 'help') throw new Error('not a trading shortcut');
      return { type: 'shortcut', action };
    }),
  },
  guards: {
    isHelpKey: ({ event }) => {
      assertEvent(event, 'traderPrefs.keyPressed');
      return !event.inField && !event.modified && shortcutFor(event.key) === 'help';
    },
    isTradingShortcut: ({ context, event }) => {
      assertEvent(event, 'traderPrefs.keyPressed');
      const action = shortcutFor(event.key);
      return context.shortcuts && !event.inField && !event.modified && action !== null && action !== 'help';
    },
    isEscape: ({ event }) => {
      assertEvent(event, 'traderPrefs.keyPressed');
      return event.key === 'Escape';
    },
    canPlay: ({ context }) => context.sounds && !context.hidden,
    canPlaySettled: ({ context, event }) => {
      assertEvent(event, 'traderPrefs.orderSettled');
      return context.sounds && !context.hidden && soundForResult(event.result) !== null;
    },
  },
}).createMachine({
  id: 'traderPrefs',
  context: { shortcuts: true, sounds: true, hidden: false, favourites: [] },
  initial: 'trading',
  on: {
    'traderPrefs.userLoaded': { actions: 'adoptUser' },
    'traderPrefs.shortcutsSwitched': { actions: 'switchShortcuts' },
    'traderPrefs.soundsSwitched': { actions: 'switchSounds' },
    'traderPrefs.favouriteToggled': { actions: 'toggleFavourite' },
    'traderPrefs.visibilityChanged': { actions: 'assignVisibility' },
    'traderPrefs.orderOpened': { guard: 'canPlay', actions: { type: 'playSound', params: { sound: 'opened' } } },
    'traderPrefs.orderSettled': {
      guard: 'canPlaySettled',
      actions: { type: 'playSound', params: ({ event }) => ({ sound: soundForResult(event.result) ?? 'opened' }) },
    },
  },
  states: {
    trading: {
      description: 'Keys trade (when on); ? opens the list of shortcuts.',
      on: {
        'traderPrefs.keyPressed': [
          { guard: 'isHelpKey', target: 'helpOpen' },
          { guard: 'isTradingShortcut', actions: 'emitShortcut' },
        ],
        'traderPrefs.helpOpened': { target: 'helpOpen' },
      },
    },
    helpOpen: {
      description: 'The shortcuts dialog is open; keys do not trade behind it.',
      on: {
        'traderPrefs.helpClosed': { target: 'trading' },
        'traderPrefs.keyPressed': { guard: 'isEscape', target: 'trading' },
      },
    },
  },
});

export type TraderPrefsMachine = typeof traderPrefsMachine;
