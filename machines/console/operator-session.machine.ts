/**
 * The operator's session in the console (issue 27 part 1): its own login, never a trader's.
 *
 * Lifecycle: spawned once by the console root (systemId 'operatorSession').
 * - `checking` asks the server who is signed in (the console cookie, GET /api/console/me):
 *   an operator -> `signedIn`; no session -> `signedOut`.
 * - `signedOut.credentials` -(operator.credentialsEntered {username, password})-> `signedOut.code`
 *   (the mandatory second factor) -(operator.codeEntered {code})-> `signingIn` (one login call
 *   with all three); `operator.backRequested` goes back to the credentials. A refusal returns
 *   to the credentials with the server's words (it never says which factor failed) and clears
 *   the password and the code.
 * - `signedIn` re-checks the session every `sessionCheckInterval`; `operator.expired` (any call
 *   answered 401, told by the services) or a check finding no session goes back to the login
 *   with the notice 'console.login.expired'. `operator.logoutRequested` -> `signingOut` ->
 *   `signedOut` (a failed logout still forgets the operator locally: the cookie is short-lived
 *   and the server refuses it once revoked).
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorText } from '../types';
import type { ConsoleOperator, LoginCredentials } from './console.types';

export interface OperatorSessionContext {
  operator: ConsoleOperator | null;
  username: string;
  password: string;
  /** The refusal of the last login (server text) or a locale key. */
  error: string | null;
  /** Why the operator is back at the login (a locale key), e.g. the session expired. */
  notice: string | null;
}

export type OperatorSessionEvent =
  | { type: 'operator.credentialsEntered'; username: string; password: string }
  | { type: 'operator.codeEntered'; code: string }
  | { type: 'operator.backRequested' }
  | { type: 'operator.logoutRequested' }
  | { type: 'operator.expired' };

function missing(name: string): never {
  throw new Error(`operatorSessionMachine: the "${name}" actor has no implementation; supply it with operatorSessionMachine.provide()`);
}

export const operatorSessionMachine = setup({
  types: {
    context: {} as OperatorSessionContext,
    events: {} as OperatorSessionEvent,
  },
  actors: {
    /** The operator of the current console session, or null when there is none. */
    loadOperator: fromPromise<ConsoleOperator | null, void>(() => missing('loadOperator')),
    logIn: fromPromise<ConsoleOperator, LoginCredentials>(() => missing('logIn')),
    logOut: fromPromise<void, void>(() => missing('logOut')),
  },
  delays: {
    sessionCheckInterval: 60_000,
  },
  actions: {
    assignOperator: assign((_, operator: ConsoleOperator) => ({ operator, password: '', error: null, notice: null })),
    assignCredentials: assign(({ event }) => {
      assertEvent(event, 'operator.credentialsEntered');
      return { username: event.username.trim(), password: event.password, error: null };
    }),
    assignLoginError: assign((_, params: { error: unknown }) => ({ error: errorText(params.error) ?? 'console.login.failed', password: '' })),
    forgetOperator: assign({ operator: null, password: '', error: null }),
    noteExpired: assign({ operator: null, password: '', error: null, notice: 'console.login.expired' }),
    clearNotice: assign({ notice: null }),
    noteMissingCredentials: assign({ error: 'console.login.missing' }),
    noteBadCode: assign({ error: 'console.login.code_invalid' }),
    clearPassword: assign({ password: '', error: null }),
  },
  guards: {
    hasOperator: (_, operator: ConsoleOperator | null) => operator !== null,
    hasCredentials: ({ event }) => {
      assertEvent(event, 'operator.credentialsEntered');
      return event.username.trim() !== '' && event.password !== '';
    },
    isCode: ({ event }) => {
      assertEvent(event, 'operator.codeEntered');
      return /^\d{6}$/.test(event.code.trim());
    },
  },
}).createMachine({
  id: 'operatorSession',
  context: { operator: null, username: '', password: '', error: null, notice: null },
  initial: 'checking',
  states: {
    checking: {
      invoke: {
        id: 'loadOperator',
        src: 'loadOperator',
        onDone: [
          { guard: { type: 'hasOperator', params: ({ event }) => event.output }, target: 'signedIn', actions: { type: 'assignOperator', params: ({ event }) => event.output! } },
          { target: 'signedOut' },
        ],
        onError: { target: 'signedOut' },
      },
    },
    signedOut: {
      initial: 'credentials',
      states: {
        credentials: {
          on: {
            'operator.credentialsEntered': [
              { guard: 'hasCredentials', target: 'code', actions: ['assignCredentials', 'clearNotice'] },
              { actions: 'noteMissingCredentials' },
            ],
          },
        },
        code: {
          description: 'The mandatory second factor: a 6-digit code from the authenticator app.',
          on: {
            'operator.codeEntered': [{ guard: 'isCode', target: '#operatorSession.signingIn' }, { actions: 'noteBadCode' }],
            'operator.backRequested': { target: 'credentials', actions: 'clearPassword' },
          },
        },
      },
    },
    signingIn: {
      invoke: {
        id: 'logIn',
        src: 'logIn',
        input: ({ context, event }) => {
          assertEvent(event, 'operator.codeEntered');
          return { username: context.username, password: context.password, totp: event.code.trim() };
        },
        onDone: { target: 'signedIn', actions: { type: 'assignOperator', params: ({ event }) => event.output } },
        onError: { target: 'signedOut', actions: { type: 'assignLoginError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    signedIn: {
      initial: 'active',
      on: {
        'operator.expired': { target: 'signedOut', actions: 'noteExpired' },
        'operator.logoutRequested': { target: 'signingOut' },
      },
      states: {
        active: {
          after: { sessionCheckInterval: { target: 'verifying' } },
        },
        verifying: {
          description: 'The periodic check: a session the server no longer knows (expired, revoked, disabled) ends here.',
          invoke: {
            id: 'verifyOperator',
            src: 'loadOperator',
            onDone: [
              { guard: { type: 'hasOperator', params: ({ event }) => event.output }, target: 'active', actions: { type: 'assignOperator', params: ({ event }) => event.output! } },
              { target: '#operatorSession.signedOut', actions: 'noteExpired' },
            ],
            onError: { target: 'active', description: 'No answer is no verdict: keep the session and ask again later.' },
          },
        },
      },
    },
    signingOut: {
      invoke: {
        id: 'logOut',
        src: 'logOut',
        onDone: { target: 'signedOut', actions: 'forgetOperator' },
        onError: { target: 'signedOut', actions: 'forgetOperator' },
      },
    },
  },
});

export type OperatorSessionMachine = typeof operatorSessionMachine;
