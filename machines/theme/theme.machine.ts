/**
 * The colour theme (spec section 3, Theme state; UI.md: dark default, light, auto following
 * prefers-color-scheme).
 *
 * Lifecycle: long-lived, spawned by the app with the theme stored on this device (if any) and
 * the system preference. `initializing` decides at once: a stored theme means
 * `chosenLocally`, otherwise `followingDefault` (dark), where the logged-in user's saved theme
 * (`theme.userLoaded`) may still apply. A user choice (`theme.toggled`, `theme.chosen`) is
 * applied, stored on the device and sent to the parent as `settings.changed` so the session
 * saves it to the account. Every change of the resolved theme runs `applyTheme` {resolved}
 * (the real implementation sets data-theme on the document).
 */
import { assertEvent, assign, sendParent, setup } from 'xstate';
import type { ThemeSetting } from '../../contract/user';
import type { SettingsPatch } from '../types';

export type ResolvedTheme = 'dark' | 'light';

export interface ThemeInput {
  stored: ThemeSetting | null;
  systemPrefersDark: boolean;
}

export interface ThemeContext {
  setting: ThemeSetting;
  systemDark: boolean;
  /** What this device has stored (null: nothing yet). */
  storedSetting: ThemeSetting | null;
}

export type ThemeEvent =
  | { type: 'theme.toggled' }
  | { type: 'theme.chosen'; theme: ThemeSetting }
  | { type: 'theme.systemChanged'; dark: boolean }
  | { type: 'theme.userLoaded'; theme: ThemeSetting | null };

export type ThemeParentEvent = { type: 'settings.changed'; patch: SettingsPatch };

export const DEFAULT_THEME: ThemeSetting = 'dark';

/** 'auto' follows the system; the others are what they say. */
export function resolveTheme(setting: ThemeSetting, systemDark: boolean): ResolvedTheme {
  if (setting === 'auto') return systemDark ? 'dark' : 'light';
  return setting;
}

export const themeMachine = setup({
  types: {
    context: {} as ThemeContext,
    events: {} as ThemeEvent,
    input: {} as ThemeInput,
  },
  actions: {
    /** Sets the resolved theme on the document (real implementation in services). */
    applyTheme: (_, _params: { resolved: ResolvedTheme }) => {},
    /** Stores the setting on the device (real implementation in services). */
    persistTheme: (_, _params: { theme: ThemeSetting }) => {},
    toggle: assign(({ context }) => {
      const next: ThemeSetting = resolveTheme(context.setting, context.systemDark) === 'dark' ? 'light' : 'dark';
      return { setting: next, storedSetting: next };
    }),
    choose: assign(({ event }) => {
      assertEvent(event, 'theme.chosen');
      return { setting: event.theme, storedSetting: event.theme };
    }),
    assignSystemDark: assign(({ event }) => {
      assertEvent(event, 'theme.systemChanged');
      return { systemDark: event.dark };
    }),
    adoptUserTheme: assign(({ context, event }) => {
      assertEvent(event, 'theme.userLoaded');
      return { setting: event.theme ?? context.setting };
    }),
    notifySettingsChanged: sendParent(({ context }): ThemeParentEvent => ({ type: 'settings.changed', patch: { theme: context.setting } })),
  },
  guards: {
    hasStoredSetting: ({ context }) => context.storedSetting !== null,
    hasUserTheme: ({ event }) => {
      assertEvent(event, 'theme.userLoaded');
      return event.theme !== null;
    },
  },
}).createMachine({
  id: 'theme',
  context: ({ input }) => ({
    setting: input.stored ?? DEFAULT_THEME,
    systemDark: input.systemPrefersDark,
    storedSetting: input.stored,
  }),
  entry: { type: 'applyTheme', params: ({ context }) => ({ resolved: resolveTheme(context.setting, context.systemDark) }) },
  initial: 'initializing',
  on: {
    'theme.toggled': {
      target: '.chosenLocally',
      description: 'Dark <-> light; from auto it flips what is shown now.',
      actions: [
        'toggle',
        { type: 'applyTheme', params: ({ context }) => ({ resolved: resolveTheme(context.setting, context.systemDark) }) },
        { type: 'persistTheme', params: ({ context }) => ({ theme: context.setting }) },
        'notifySettingsChanged',
      ],
    },
    'theme.chosen': {
      target: '.chosenLocally',
      actions: [
        'choose',
        { type: 'applyTheme', params: ({ context }) => ({ resolved: resolveTheme(context.setting, context.systemDark) }) },
        { type: 'persistTheme', params: ({ context }) => ({ theme: context.setting }) },
        'notifySettingsChanged',
      ],
    },
    'theme.systemChanged': {
      actions: ['assignSystemDark', { type: 'applyTheme', params: ({ context }) => ({ resolved: resolveTheme(context.setting, context.systemDark) }) }],
    },
  },
  states: {
    initializing: {
      always: [{ guard: 'hasStoredSetting', target: 'chosenLocally' }, { target: 'followingDefault' }],
    },
    followingDefault: {
      description: 'Nothing stored on this device: the default, or the logged-in user\'s saved theme.',
      on: {
        'theme.userLoaded': {
          guard: 'hasUserTheme',
          actions: ['adoptUserTheme', { type: 'applyTheme', params: ({ context }) => ({ resolved: resolveTheme(context.setting, context.systemDark) }) }],
        },
      },
    },
    chosenLocally: {
      description: 'A theme chosen on this device wins over the account setting.',
    },
  },
});
