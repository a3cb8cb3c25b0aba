/**
 * The security section of the profile screen: the password change and two-factor
 * authentication, as two parallel regions.
 *
 * Lifecycle: spawned with the profile screen (by the profilePage flow, systemId 'security'),
 * stopped when it closes. Input: whether two-factor is on (the session's user says so).
 * - `password`: `idle` -(security.passwordChangeSubmitted, form valid)-> `changing` (POST
 *   /api/v2/user/change-password) -> `changed` (a toast: other sessions were signed out; the view
 *   clears its form) or back to `idle` with the server's text / "Failed to change password" and
 *   its field details. The passwords travel only in the event and the request, never in context.
 * - `twoFactor`: `disabled` -(enableRequested)-> `starting` (POST 2fa/enable: a new secret) ->
 *   `awaitingCode` (the view shows the QR code and the secret) -(codeSubmitted)-> `verifying`
 *   (POST 2fa/verify) -> `showingCodes` (the ten recovery codes the answer carries, shown once in
 *   a dialog) -(recoveryCodesSaved: "I saved them")-> `enabled`; a wrong code stays in
 *   `awaitingCode` with the error. Started with two-factor on, `countingCodes` (GET
 *   2fa/recovery-codes) learns how many recovery codes are left first (a failure leaves the
 *   count unknown). `enabled` -(recoveryCodesRegenerateRequested)-> `confirmingRegenerate`
 *   (asks for a current TOTP code) -(recoveryCodesRegenerateSubmitted)-> `regenerating` (POST
 *   2fa/recovery-codes: the old set dies) -> `showingCodes`. `enabled` -(disableRequested)->
 *   `confirmingDisable` (asks for a current code) -(disableSubmitted)-> `disabling` (DELETE
 *   2fa/disable) -> `disabled`. Switching on or off asks the session to re-fetch the user (its
 *   two_factor_enabled) and toasts. Every state with two-factor on carries the tag `on`.
 */
import * as v from 'valibot';
import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import type { FieldError } from '../../contract/envelope';
import type { TwoFactorSetup } from '../../contract/profile';
import type { ToastRequest } from '../types';
import { failureText, fieldErrorsOf, PROFILE_FALLBACKS, serverFieldErrors } from '../profile/feedback';
import { PasswordChangeFormSchema, TwoFactorCodeFormSchema } from './security.schemas';

export interface SecurityInput {
  twoFactorEnabled: boolean;
}

export interface SecurityContext {
  /** Two-factor state at spawn time; afterwards the state value is the truth. */
  startedEnabled: boolean;
  passwordError: string | null;
  passwordFieldErrors: FieldError[];
  /** The pending enrolment: secret, otpauth URL and QR code (only in awaitingCode/verifying). */
  setup: TwoFactorSetup | null;
  twoFactorError: string | null;
  /** The code field's problem (a locale key). */
  codeError: string | null;
  /** A fresh set of recovery codes, only while `showingCodes` (they are never fetched again). */
  recoveryCodes: string[] | null;
  /** Unused recovery codes left; null while unknown. */
  recoveryRemaining: number | null;
}

export type SecurityEvent =
  | { type: 'security.passwordChangeSubmitted'; oldPassword: string; newPassword: string; confirmPassword: string }
  | { type: 'security.twoFactorEnableRequested' }
  | { type: 'security.twoFactorSetupCancelled' }
  | { type: 'security.twoFactorCodeSubmitted'; code: string }
  | { type: 'security.twoFactorDisableRequested' }
  | { type: 'security.twoFactorDisableCancelled' }
  | { type: 'security.twoFactorDisableSubmitted'; code: string }
  | { type: 'security.recoveryCodesSaved' }
  | { type: 'security.recoveryCodesRegenerateRequested' }
  | { type: 'security.recoveryCodesRegenerateCancelled' }
  | { type: 'security.recoveryCodesRegenerateSubmitted'; code: string };

export type SecurityParentEvent = { type: 'toast.requested'; toast: ToastRequest } | { type: 'session.userRefreshRequested' };

export interface ChangePasswordInput {
  old_password: string;
  new_password: string;
  confirm_password: string;
}
export interface TwoFactorCodeInput {
  code: string;
}

function missing(name: string): never {
  throw new Error(`securityMachine: the "${name}" actor has no implementation; supply it with securityMachine.provide()`);
}

/** The text of a failed regeneration that brings none of its own (a locale key). */
const REGENERATE_FALLBACK = 'profile.errors.regenerate_codes_failed';

const normaliseCode = (code: string) => code.replace(/\s+/g, '');

export const securityMachine = setup({
  types: {
    context: {} as SecurityContext,
    events: {} as SecurityEvent,
    input: {} as SecurityInput,
  },
  actors: {
    changePassword: fromPromise<void, ChangePasswordInput>(() => missing('changePassword')),
    startTwoFactor: fromPromise<TwoFactorSetup, void>(() => missing('startTwoFactor')),
    /** Answers the new recovery codes. */
    confirmTwoFactor: fromPromise<string[], TwoFactorCodeInput>(() => missing('confirmTwoFactor')),
    disableTwoFactor: fromPromise<void, TwoFactorCodeInput>(() => missing('disableTwoFactor')),
    /** Answers how many unused recovery codes are left. */
    countRecoveryCodes: fromPromise<number, void>(() => missing('countRecoveryCodes')),
    /** Answers the fresh set. */
    regenerateRecoveryCodes: fromPromise<string[], TwoFactorCodeInput>(() => missing('regenerateRecoveryCodes')),
  },
  guards: {
    isTwoFactorOn: ({ context }) => context.startedEnabled,
    isPasswordFormValid: ({ event }) => {
      assertEvent(event, 'security.passwordChangeSubmitted');
      return v.is(PasswordChangeFormSchema, event);
    },
    isCodeValid: ({ event }) => {
      assertEvent(event, ['security.twoFactorCodeSubmitted', 'security.twoFactorDisableSubmitted', 'security.recoveryCodesRegenerateSubmitted']);
      return v.is(TwoFactorCodeFormSchema, { code: event.code });
    },
  },
  actions: {
    startPasswordChange: assign({ passwordError: null, passwordFieldErrors: [] }),
    rejectPasswordForm: assign(({ event }) => {
      assertEvent(event, 'security.passwordChangeSubmitted');
      return { passwordError: null, passwordFieldErrors: fieldErrorsOf(PasswordChangeFormSchema, event) };
    }),
    assignPasswordError: assign((_, params: { error: unknown }) => ({
      passwordError: failureText(params.error, PROFILE_FALLBACKS.changePassword),
      passwordFieldErrors: serverFieldErrors(params.error),
    })),
    assignSetup: assign((_, setup: TwoFactorSetup) => ({ setup, twoFactorError: null, codeError: null })),
    clearSetup: assign({ setup: null, twoFactorError: null, codeError: null }),
    clearTwoFactorError: assign({ twoFactorError: null, codeError: null }),
    rejectCode: assign({ codeError: 'profile.validation.code_invalid', twoFactorError: null }),
    assignTwoFactorError: assign((_, params: { error: unknown; fallback: string }) => ({
      twoFactorError: failureText(params.error, params.fallback),
      codeError: null,
    })),
    assignRecoveryCodes: assign((_, codes: string[]) => ({ recoveryCodes: codes, recoveryRemaining: codes.length, twoFactorError: null, codeError: null })),
    clearRecoveryCodes: assign({ recoveryCodes: null }),
    assignRemaining: assign((_, remaining: number | null) => ({ recoveryRemaining: remaining })),
    toast: sendParent((_, params: { toast: ToastRequest }): SecurityParentEvent => ({ type: 'toast.requested', toast: params.toast })),
    refreshUser: sendParent((): SecurityParentEvent => ({ type: 'session.userRefreshRequested' })),
  },
}).createMachine({
  id: 'security',
  context: ({ input }) => ({
    startedEnabled: input.twoFactorEnabled,
    passwordError: null,
    passwordFieldErrors: [],
    setup: null,
    twoFactorError: null,
    codeError: null,
    recoveryCodes: null,
    recoveryRemaining: null,
  }),
  type: 'parallel',
  states: {
    password: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'security.passwordChangeSubmitted': [
              { guard: 'isPasswordFormValid', target: 'changing', actions: 'startPasswordChange' },
              { actions: 'rejectPasswordForm' },
            ],
          },
        },
        changing: {
          invoke: {
            id: 'changePassword',
            src: 'changePassword',
            input: ({ event }) => {
              assertEvent(event, 'security.passwordChangeSubmitted');
              return { old_password: event.oldPassword, new_password: event.newPassword, confirm_password: event.confirmPassword };
            },
            onDone: {
              target: 'changed',
              actions: { type: 'toast', params: { toast: { type: 'success', messageKey: 'profile.security.password_changed' } } },
            },
            onError: { target: 'idle', actions: { type: 'assignPasswordError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        changed: {
          description: 'Like idle; the view starts a fresh form. Another change may follow.',
          on: {
            'security.passwordChangeSubmitted': [
              { guard: 'isPasswordFormValid', target: 'changing', actions: 'startPasswordChange' },
              { target: 'idle', actions: 'rejectPasswordForm' },
            ],
          },
        },
      },
    },
    twoFactor: {
      initial: 'checking',
      states: {
        checking: {
          always: [{ guard: 'isTwoFactorOn', target: 'countingCodes' }, { target: 'disabled' }],
        },
        countingCodes: {
          tags: ['on'],
          invoke: {
            id: 'countRecoveryCodes',
            src: 'countRecoveryCodes',
            onDone: { target: 'enabled', actions: { type: 'assignRemaining', params: ({ event }) => event.output } },
            onError: { target: 'enabled', description: 'The count stays unknown; two-factor is on all the same.' },
          },
        },
        disabled: {
          on: { 'security.twoFactorEnableRequested': { target: 'starting', actions: 'clearTwoFactorError' } },
        },
        starting: {
          invoke: {
            id: 'startTwoFactor',
            src: 'startTwoFactor',
            onDone: { target: 'awaitingCode', actions: { type: 'assignSetup', params: ({ event }) => event.output } },
            onError: {
              target: 'disabled',
              actions: { type: 'assignTwoFactorError', params: ({ event }) => ({ error: event.error, fallback: PROFILE_FALLBACKS.enableTwoFactor }) },
            },
          },
        },
        awaitingCode: {
          description: 'The view shows the QR code and the secret and asks for the first code.',
          on: {
            'security.twoFactorCodeSubmitted': [{ guard: 'isCodeValid', target: 'verifying', actions: 'clearTwoFactorError' }, { actions: 'rejectCode' }],
            'security.twoFactorSetupCancelled': { target: 'disabled', actions: 'clearSetup' },
            'security.twoFactorEnableRequested': {
              target: 'starting',
              description: 'An expired setup: start again with a new secret.',
              actions: 'clearSetup',
            },
          },
        },
        verifying: {
          invoke: {
            id: 'confirmTwoFactor',
            src: 'confirmTwoFactor',
            input: ({ event }) => {
              assertEvent(event, 'security.twoFactorCodeSubmitted');
              return { code: normaliseCode(event.code) };
            },
            onDone: {
              target: 'showingCodes',
              actions: [
                'clearSetup',
                { type: 'assignRecoveryCodes', params: ({ event }) => event.output },
                'refreshUser',
                { type: 'toast', params: { toast: { type: 'success', messageKey: 'profile.security.two_factor_enabled' } } },
              ],
            },
            onError: {
              target: 'awaitingCode',
              actions: { type: 'assignTwoFactorError', params: ({ event }) => ({ error: event.error, fallback: PROFILE_FALLBACKS.verifyTwoFactor }) },
            },
          },
        },
        showingCodes: {
          tags: ['on'],
          description: 'The recovery codes in a dialog, shown once: copy or download them, then "I saved them".',
          on: { 'security.recoveryCodesSaved': { target: 'enabled', actions: 'clearRecoveryCodes' } },
        },
        enabled: {
          tags: ['on'],
          on: {
            'security.twoFactorDisableRequested': { target: 'confirmingDisable', actions: 'clearTwoFactorError' },
            'security.recoveryCodesRegenerateRequested': { target: 'confirmingRegenerate', actions: 'clearTwoFactorError' },
          },
        },
        confirmingRegenerate: {
          tags: ['on'],
          description: 'A new set needs a current code from the authenticator app.',
          on: {
            'security.recoveryCodesRegenerateSubmitted': [{ guard: 'isCodeValid', target: 'regenerating', actions: 'clearTwoFactorError' }, { actions: 'rejectCode' }],
            'security.recoveryCodesRegenerateCancelled': { target: 'enabled', actions: 'clearTwoFactorError' },
          },
        },
        regenerating: {
          tags: ['on'],
          invoke: {
            id: 'regenerateRecoveryCodes',
            src: 'regenerateRecoveryCodes',
            input: ({ event }) => {
              assertEvent(event, 'security.recoveryCodesRegenerateSubmitted');
              return { code: normaliseCode(event.code) };
            },
            onDone: { target: 'showingCodes', actions: { type: 'assignRecoveryCodes', params: ({ event }) => event.output } },
            onError: {
              target: 'confirmingRegenerate',
              actions: { type: 'assignTwoFactorError', params: ({ event }) => ({ error: event.error, fallback: REGENERATE_FALLBACK }) },
            },
          },
        },
        confirmingDisable: {
          tags: ['on'],
          description: 'Turning it off needs a current code from the authenticator app.',
          on: {
            'security.twoFactorDisableSubmitted': [{ guard: 'isCodeValid', target: 'disabling', actions: 'clearTwoFactorError' }, { actions: 'rejectCode' }],
            'security.twoFactorDisableCancelled': { target: 'enabled', actions: 'clearTwoFactorError' },
          },
        },
        disabling: {
          tags: ['on'],
          invoke: {
            id: 'disableTwoFactor',
            src: 'disableTwoFactor',
            input: ({ event }) => {
              assertEvent(event, 'security.twoFactorDisableSubmitted');
              return { code: normaliseCode(event.code) };
            },
            onDone: {
              target: 'disabled',
              actions: [{ type: 'assignRemaining', params: null }, 'refreshUser', { type: 'toast', params: { toast: { type: 'success', messageKey: 'profile.security.two_factor_disabled' } } }],
            },
            onError: {
              target: 'confirmingDisable',
              actions: { type: 'assignTwoFactorError', params: ({ event }) => ({ error: event.error, fallback: PROFILE_FALLBACKS.disableTwoFactor }) },
            },
          },
        },
      },
    },
  },
});
