/**
 * The operator console's root (issue 27 part 2), created by src/console/main.tsx for /admin only:
 * the trader app's root actor never exists on a console page and the reverse.
 *
 * Lifecycle: one actor for the page's life. At start it spawns the operator's session
 * (operator-session.machine, systemId 'operatorSession') and keeps the reader's language.
 * - `console.unauthorized` (any console call answered 401: the session expired or was revoked)
 *   tells the session `operator.expired`, which shows the login with a notice.
 * - `console.languageChanged {language}` switches the language and stores it (`persistLanguage`,
 *   provided by the services).
 * The screens' own actors (tables, records, actions) are created by the screens and report a
 * 401 through the services, which send `console.unauthorized` here.
 */
import { assertEvent, assign, sendTo, setup, spawnChild } from 'xstate';
import { operatorSessionMachine } from './operator-session.machine';

export type ConsoleLanguage = 'en' | 'ru' | 'es';

export interface ConsoleInput {
  language: ConsoleLanguage;
}

export interface ConsoleContext {
  language: ConsoleLanguage;
}

export type ConsoleEvent = { type: 'console.unauthorized' } | { type: 'console.languageChanged'; language: ConsoleLanguage };

export const consoleMachine = setup({
  types: {
    context: {} as ConsoleContext,
    events: {} as ConsoleEvent,
    input: {} as ConsoleInput,
  },
  actors: {
    operatorSession: operatorSessionMachine,
  },
  actions: {
    assignLanguage: assign(({ event }) => {
      assertEvent(event, 'console.languageChanged');
      return { language: event.language };
    }),
    /** Stores the chosen language (localStorage 'language', shared with the trader app). */
    persistLanguage: (_, _params: { language: ConsoleLanguage }) => {},
    spawnSession: spawnChild('operatorSession', { id: 'operatorSession', systemId: 'operatorSession' }),
    expireSession: sendTo('operatorSession', { type: 'operator.expired' }),
  },
}).createMachine({
  id: 'console',
  context: ({ input }) => ({ language: input.language }),
  entry: 'spawnSession',
  initial: 'running',
  states: {
    running: {
      on: {
        'console.unauthorized': { actions: 'expireSession' },
        'console.languageChanged': {
          actions: [
            'assignLanguage',
            {
              type: 'persistLanguage',
              params: ({ event }) => ({ language: event.language }),
            },
          ],
        },
      },
    },
  },
});

export type ConsoleMachine = typeof consoleMachine;
