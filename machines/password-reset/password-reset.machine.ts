/**
 * Password recovery (spec section 2, "Password recovery with a 6-digit reset code and a new
 * password"; section 7 calls forgot-password, confirm-reset-password, reset-password).
 *
 * Lifecycle: spawned per flow by the app (`flow.passwordResetStarted`, id and systemId
 * 'passwordReset'), stopped by `flow.passwordResetEnded`. Two entry points, decided in
 * `initializing`:
 * - by code: `enteringEmail` -> `sendingCode` -> `enteringCode` (code, new password and its
 *   confirmation on one screen) -> `verifyingCode` (the code buys a reset token) ->
 *   `savingPassword` -> `done`. `enteringCode` can ask for the code again (`resendingCode`) or
 *   go back to the email.
 * - by an emailed link carrying the reset token: `choosingPassword` -> `savingPassword` -> `done`.
 * A failure stays on the step the user was on with `error` (the server's text or the spec's
 * fallback). Once a code was accepted its token is kept, so a rejected password is retried
 * without spending the code again.
 */
import * as v from 'valibot';
import { and, assertEvent, assign, fromPromise, setup } from 'xstate';
import type { FieldError } from '../../contract/envelope';
import { issuesToFieldErrors } from '../../contract/validation';
import { errorMessage } from '../types';
import { NewPasswordFormSchema, ResetCodeFormSchema, ResetEmailSchema } from './password-reset.schemas';

export interface PasswordResetInput {
  linkToken?: string | null;
}

export interface PasswordResetContext {
  email: string;
  /** The reset token from an emailed link (null in the code flow). */
  linkToken: string | null;
  /** The token that authorises the new password: from the link, or bought with the code. */
  resetToken: string | null;
  /** Held only between the form and the save request. */
  newPassword: string | null;
  error: string | null;
  fieldErrors: FieldError[];
}

export type PasswordResetEvent =
  | { type: 'passwordReset.emailSubmitted'; email: string }
  | { type: 'passwordReset.codeSubmitted'; code: string; newPassword: string; passwordConfirmation: string }
  | { type: 'passwordReset.passwordSubmitted'; newPassword: string; passwordConfirmation: string }
  | { type: 'passwordReset.codeResendRequested' }
  | { type: 'passwordReset.backRequested' };

export interface RequestResetCodeInput {
  email: string;
}
export interface ConfirmResetCodeInput {
  email: string;
  code: string;
}
export interface ConfirmResetCodeOutput {
  token: string;
}
export interface ResetPasswordInput {
  token: string;
  newPassword: string;
}

export const RESET_FALLBACKS = {
  request: 'Failed to send recovery email',
  confirm: 'Password reset confirmation failed',
  reset: 'Password reset failed',
} as const;

function fieldErrorsOf(schema: v.GenericSchema, values: unknown): FieldError[] {
  const result = v.safeParse(schema, values, { abortPipeEarly: true });
  return result.success ? [] : issuesToFieldErrors(result.issues);
}

function missing(name: string): never {
  throw new Error(`passwordResetMachine: the "${name}" actor has no implementation; supply it with passwordResetMachine.provide()`);
}

export const passwordResetMachine = setup({
  types: {
    context: {} as PasswordResetContext,
    events: {} as PasswordResetEvent,
    input: {} as PasswordResetInput,
  },
  actors: {
    requestResetCode: fromPromise<void, RequestResetCodeInput>(() => missing('requestResetCode')),
    confirmResetCode: fromPromise<ConfirmResetCodeOutput, ConfirmResetCodeInput>(() => missing('confirmResetCode')),
    resetPassword: fromPromise<void, ResetPasswordInput>(() => missing('resetPassword')),
  },
  guards: {
    hasLinkToken: ({ context }) => context.linkToken !== null,
    hasResetToken: ({ context }) => context.resetToken !== null,
    isEmailValid: ({ event }) => {
      assertEvent(event, 'passwordReset.emailSubmitted');
      return v.is(ResetEmailSchema, { email: event.email });
    },
    isCodeFormValid: ({ event }) => {
      assertEvent(event, 'passwordReset.codeSubmitted');
      return v.is(ResetCodeFormSchema, event);
    },
    isPasswordFormValid: ({ event }) => {
      assertEvent(event, 'passwordReset.passwordSubmitted');
      return v.is(NewPasswordFormSchema, event);
    },
  },
  actions: {
    assignEmail: assign(({ event }) => {
      assertEvent(event, 'passwordReset.emailSubmitted');
      return { email: v.parse(ResetEmailSchema, { email: event.email }).email, error: null, fieldErrors: [] };
    }),
    rejectEmail: assign(({ event }) => {
      assertEvent(event, 'passwordReset.emailSubmitted');
      return { fieldErrors: fieldErrorsOf(ResetEmailSchema, { email: event.email }) };
    }),
    assignNewPassword: assign(({ event }) => {
      assertEvent(event, ['passwordReset.codeSubmitted', 'passwordReset.passwordSubmitted']);
      return { newPassword: event.newPassword, error: null, fieldErrors: [] };
    }),
    rejectCodeForm: assign(({ event }) => {
      assertEvent(event, 'passwordReset.codeSubmitted');
      return { fieldErrors: fieldErrorsOf(ResetCodeFormSchema, event) };
    }),
    rejectPasswordForm: assign(({ event }) => {
      assertEvent(event, 'passwordReset.passwordSubmitted');
      return { fieldErrors: fieldErrorsOf(NewPasswordFormSchema, event) };
    }),
    assignResetToken: assign((_, output: ConfirmResetCodeOutput) => ({ resetToken: output.token })),
    assignError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null, fieldErrors: [] }),
    forgetPassword: assign({ newPassword: null }),
    forgetResetToken: assign({ resetToken: null }),
    restartWithEmail: assign({ linkToken: null, resetToken: null, newPassword: null, error: null, fieldErrors: [] }),
  },
}).createMachine({
  id: 'passwordReset',
  context: ({ input }) => ({
    email: '',
    linkToken: input.linkToken ?? null,
    resetToken: input.linkToken ?? null,
    newPassword: null,
    error: null,
    fieldErrors: [],
  }),
  initial: 'initializing',
  states: {
    initializing: {
      always: [{ guard: 'hasLinkToken', target: 'choosingPassword' }, { target: 'enteringEmail' }],
    },
    enteringEmail: {
      on: {
        'passwordReset.emailSubmitted': [
          { guard: 'isEmailValid', target: 'sendingCode', actions: 'assignEmail' },
          { actions: 'rejectEmail' },
        ],
      },
    },
    sendingCode: {
      invoke: {
        id: 'requestResetCode',
        src: 'requestResetCode',
        input: ({ context }) => ({ email: context.email }),
        onDone: { target: 'enteringCode' },
        onError: {
          target: 'enteringEmail',
          actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, RESET_FALLBACKS.request) }) },
        },
      },
    },
    enteringCode: {
      on: {
        'passwordReset.codeSubmitted': [
          {
            guard: and(['isCodeFormValid', 'hasResetToken']),
            target: 'savingPassword',
            description: 'The code was already accepted: only the password is saved again.',
            actions: 'assignNewPassword',
          },
          { guard: 'isCodeFormValid', target: 'verifyingCode', actions: 'assignNewPassword' },
          { actions: 'rejectCodeForm' },
        ],
        'passwordReset.codeResendRequested': {
          target: 'resendingCode',
          description: 'A new code means a new token: the old one is dropped.',
          actions: ['clearError', 'forgetResetToken'],
        },
        'passwordReset.backRequested': { target: 'enteringEmail', actions: 'restartWithEmail' },
      },
    },
    resendingCode: {
      invoke: {
        id: 'resendResetCode',
        src: 'requestResetCode',
        input: ({ context }) => ({ email: context.email }),
        onDone: { target: 'enteringCode' },
        onError: {
          target: 'enteringCode',
          actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, RESET_FALLBACKS.request) }) },
        },
      },
    },
    verifyingCode: {
      invoke: {
        id: 'confirmResetCode',
        src: 'confirmResetCode',
        input: ({ context, event }) => {
          assertEvent(event, 'passwordReset.codeSubmitted');
          return { email: context.email, code: event.code.trim() };
        },
        onDone: {
          target: 'savingPassword',
          actions: { type: 'assignResetToken', params: ({ event }) => event.output },
        },
        onError: {
          target: 'enteringCode',
          actions: [
            'forgetPassword',
            { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, RESET_FALLBACKS.confirm) }) },
          ],
        },
      },
    },
    choosingPassword: {
      on: {
        'passwordReset.passwordSubmitted': [
          { guard: 'isPasswordFormValid', target: 'savingPassword', actions: 'assignNewPassword' },
          { actions: 'rejectPasswordForm' },
        ],
        'passwordReset.backRequested': {
          target: 'enteringEmail',
          description: 'An expired link: start over with an emailed code.',
          actions: 'restartWithEmail',
        },
      },
    },
    savingPassword: {
      invoke: {
        id: 'resetPassword',
        src: 'resetPassword',
        input: ({ context }) => ({ token: context.resetToken ?? '', newPassword: context.newPassword ?? '' }),
        onDone: { target: 'done', actions: 'forgetPassword' },
        onError: [
          {
            guard: 'hasLinkToken',
            target: 'choosingPassword',
            actions: [
              'forgetPassword',
              { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, RESET_FALLBACKS.reset) }) },
            ],
          },
          {
            target: 'enteringCode',
            actions: [
              'forgetPassword',
              { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, RESET_FALLBACKS.reset) }) },
            ],
          },
        ],
      },
    },
    done: {
      type: 'final',
      description: 'The new password is saved; the view offers the login.',
    },
  },
});
