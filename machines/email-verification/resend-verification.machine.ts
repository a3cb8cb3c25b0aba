/**
 * Resending the verification email from the profile (spec section 7,
 * POST /api/platform/auth/resend-verification), offered while the email is not verified.
 *
 * Lifecycle: spawned with the profile screen (by the profilePage flow, systemId
 * 'verification'). `idle` --`verification.resendRequested {email}`--> `sending`, which invokes
 * `resendVerification`; success goes to `sent` (the view says where it went, a success toast
 * confirms), a failure back to `idle` with an error toast (the server's text, or "Failed to
 * resend verification email"). From `sent` the person may ask again.
 */
import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import type { ToastRequest } from '../types';
import { failureText, toastOf } from '../profile/feedback';

export interface ResendVerificationInput {
  email: string;
}

export interface ResendVerificationContext {
  /** Where the last email went (shown once sent). */
  email: string | null;
}

export type ResendVerificationEvent = { type: 'verification.resendRequested'; email: string };

export type ResendVerificationParentEvent = { type: 'toast.requested'; toast: ToastRequest };

/** The spec's fallback (section 8), as its locale key (src/i18n/server-texts.ts, catalogue `fallback`). */
export const RESEND_FALLBACK_KEY = 'server_texts.fallback.resend_verification';

export const resendVerificationMachine = setup({
  types: {
    context: {} as ResendVerificationContext,
    events: {} as ResendVerificationEvent,
  },
  actors: {
    resendVerification: fromPromise<void, ResendVerificationInput>(() => {
      throw new Error('resendVerificationMachine: the "resendVerification" actor has no implementation; supply it with resendVerificationMachine.provide()');
    }),
  },
  actions: {
    assignEmail: assign(({ event }) => {
      assertEvent(event, 'verification.resendRequested');
      return { email: event.email };
    }),
    toastSent: sendParent(({ context }): ResendVerificationParentEvent => ({
      type: 'toast.requested',
      toast: { type: 'success', messageKey: 'profile.personal.verification_sent', params: { email: context.email ?? '' } },
    })),
    toastFailed: sendParent((_, params: { error: unknown }): ResendVerificationParentEvent => ({
      type: 'toast.requested',
      toast: toastOf('error', failureText(params.error, RESEND_FALLBACK_KEY)),
    })),
  },
}).createMachine({
  id: 'verification',
  context: { email: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'verification.resendRequested': { target: 'sending', actions: 'assignEmail' } },
    },
    sending: {
      description: 'One request at a time: the button shows a spinner.',
      invoke: {
        id: 'resendVerification',
        src: 'resendVerification',
        input: ({ context }) => ({ email: context.email ?? '' }),
        onDone: { target: 'sent', actions: 'toastSent' },
        onError: { target: 'idle', actions: { type: 'toastFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    sent: {
      description: 'The view says the email is on its way; asking again sends another.',
      on: { 'verification.resendRequested': { target: 'sending', actions: 'assignEmail' } },
    },
  },
});
