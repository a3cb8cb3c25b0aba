/**
 * Logic for page-local flows, provided with their real implementations: a view creates the
 * actor with useActorRef(logic) and never touches the network itself.
 */
import { fromPromise } from 'xstate';
import { emailVerificationMachine } from '../../machines/email-verification/email-verification.machine';
import type { Api } from './api';

export function emailVerificationLogic(api: Api) {
  return emailVerificationMachine.provide({
    actors: {
      verifyEmail: fromPromise<void, { token: string }>(({ input }) => api.verifyEmail(input.token)),
    },
  });
}
