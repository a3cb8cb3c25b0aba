/**
 * Email verification from the emailed link (/verify-email?token=...).
 *
 * Lifecycle: starts in `verifying` when it has a token (invokes `verifyEmail`), otherwise in
 * `failed`; ends in `verified` or `failed`. `emailVerification.retried` tries a failed token
 * again (a network failure is worth a retry; an expired token will fail again and say so).
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../types';

export interface EmailVerificationInput {
  token: string | null;
}

export interface EmailVerificationContext {
  token: string | null;
  error: string | null;
}

export type EmailVerificationEvent = { type: 'emailVerification.retried' };

export const EMAIL_VERIFICATION_FALLBACK = 'Email verification failed';

export const emailVerificationMachine = setup({
  types: {
    context: {} as EmailVerificationContext,
    events: {} as EmailVerificationEvent,
    input: {} as EmailVerificationInput,
  },
  actors: {
    verifyEmail: fromPromise<void, { token: string }>(async () => {
      throw new Error('verifyEmail must be provided');
    }),
  },
  guards: {
    hasToken: ({ context }) => typeof context.token === 'string' && context.token.length > 0,
  },
}).createMachine({
  id: 'emailVerification',
  context: ({ input }) => ({ token: input.token, error: null }),
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: 'hasToken', target: 'verifying' }, { target: 'failed', actions: assign({ error: EMAIL_VERIFICATION_FALLBACK }) }],
    },
    verifying: {
      invoke: {
        id: 'verifyEmail',
        src: 'verifyEmail',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: { target: 'verified', actions: assign({ error: null }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorMessage(event.error, EMAIL_VERIFICATION_FALLBACK) }),
        },
      },
    },
    verified: { type: 'final' },
    failed: {
      on: {
        'emailVerification.retried': { guard: 'hasToken', target: 'verifying' },
      },
    },
  },
});
