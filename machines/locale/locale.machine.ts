/**
 * The interface language (spec section 9: en, ru, es; order of choice: the stored language,
 * then the user's setting, else en).
 *
 * Lifecycle: long-lived, spawned by the app with the language stored on this device (if any).
 * `initializing` decides at once: a stored language means `chosenLocally`, otherwise
 * `followingDefault` (English), where the logged-in user's language (`locale.userLoaded`) may
 * still apply. A user choice (`locale.chosen`) is applied, stored on the device and sent to the
 * parent as `settings.changed` so the session saves it to the account. Every change runs
 * `applyLanguage` {language} (the real implementation sets <html lang>); the view re-renders
 * its texts from `context.language`.
 */
import { assertEvent, assign, sendParent, setup } from 'xstate';
import type { Language } from '../../contract/user';
import type { SettingsPatch } from '../types';

export interface LocaleInput {
  stored: Language | null;
}

export interface LocaleContext {
  language: Language;
  /** What this device has stored (null: nothing yet). */
  storedLanguage: Language | null;
}

export type LocaleEvent = { type: 'locale.chosen'; language: Language } | { type: 'locale.userLoaded'; language: Language | null };

export type LocaleParentEvent = { type: 'settings.changed'; patch: SettingsPatch };

export const DEFAULT_LANGUAGE: Language = 'en';

export const localeMachine = setup({
  types: {
    context: {} as LocaleContext,
    events: {} as LocaleEvent,
    input: {} as LocaleInput,
  },
  actions: {
    /** Sets <html lang> (real implementation in services). */
    applyLanguage: (_, _params: { language: Language }) => {},
    /** Stores the language on the device (real implementation in services). */
    persistLanguage: (_, _params: { language: Language }) => {},
    choose: assign(({ event }) => {
      assertEvent(event, 'locale.chosen');
      return { language: event.language, storedLanguage: event.language };
    }),
    adoptUserLanguage: assign(({ context, event }) => {
      assertEvent(event, 'locale.userLoaded');
      return { language: event.language ?? context.language };
    }),
    notifySettingsChanged: sendParent(({ context }): LocaleParentEvent => ({ type: 'settings.changed', patch: { language: context.language } })),
  },
  guards: {
    hasStoredLanguage: ({ context }) => context.storedLanguage !== null,
    hasUserLanguage: ({ event }) => {
      assertEvent(event, 'locale.userLoaded');
      return event.language !== null;
    },
  },
}).createMachine({
  id: 'locale',
  context: ({ input }) => ({
    language: input.stored ?? DEFAULT_LANGUAGE,
    storedLanguage: input.stored,
  }),
  entry: { type: 'applyLanguage', params: ({ context }) => ({ language: context.language }) },
  initial: 'initializing',
  on: {
    'locale.chosen': {
      target: '.chosenLocally',
      actions: [
        'choose',
        { type: 'applyLanguage', params: ({ context }) => ({ language: context.language }) },
        { type: 'persistLanguage', params: ({ context }) => ({ language: context.language }) },
        'notifySettingsChanged',
      ],
    },
  },
  states: {
    initializing: {
      always: [{ guard: 'hasStoredLanguage', target: 'chosenLocally' }, { target: 'followingDefault' }],
    },
    followingDefault: {
      description: 'Nothing stored on this device: English, or the logged-in user\'s language.',
      on: {
        'locale.userLoaded': {
          guard: 'hasUserLanguage',
          actions: ['adoptUserLanguage', { type: 'applyLanguage', params: ({ context }) => ({ language: context.language }) }],
        },
      },
    },
    chosenLocally: {
      description: 'A language chosen on this device wins over the account setting.',
    },
  },
});
