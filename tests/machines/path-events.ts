/**
 * Event lists the path tests and the mutation check share (one copy each): the values and
 * answers that drive the registration and password-reset machines through every state.
 */
import type { AnyEventObject } from 'xstate';
import { makeUser } from './fixtures';

export const registrationValues = {
  basic: { username: 'trader7', email: 'trader7@example.com', password: 'Secret#123', password_confirmation: 'Secret#123' },
  personal: { first_name: 'Ann', last_name: 'Lee', phone: '+1 (555) 010-2030' },
  settings: { currency: 'EUR', terms_accepted: true },
};

const { basic, personal, settings } = registrationValues;
export const registrationEvents: AnyEventObject[] = [
  { type: 'registration.stepSubmitted', values: basic },
  { type: 'registration.stepSubmitted', values: { ...basic, password_confirmation: 'Other#123' } },
  { type: 'registration.stepSubmitted', values: personal },
  { type: 'registration.stepSubmitted', values: { ...personal, phone: '12' } },
  { type: 'registration.stepSubmitted', values: settings },
  { type: 'registration.stepSubmitted', values: { ...settings, terms_accepted: false } },
  { type: 'registration.backRequested' },
  { type: 'xstate.done.actor.register', output: { token: 'tok-reg', refreshToken: 'ref-reg', user: makeUser() } },
  { type: 'xstate.error.actor.register', error: { message: 'Username is already taken' } },
  { type: 'xstate.error.actor.register', error: { message: 'Registration failed' } },
];

export const resetCodeForm = { code: '123456', newPassword: 'NewSecret#1', passwordConfirmation: 'NewSecret#1' };
export const passwordResetEvents: AnyEventObject[] = [
  { type: 'passwordReset.emailSubmitted', email: 'trader7@example.com' },
  { type: 'passwordReset.emailSubmitted', email: 'not-an-email' },
  { type: 'passwordReset.codeSubmitted', ...resetCodeForm },
  { type: 'passwordReset.codeSubmitted', ...resetCodeForm, code: '12ab' },
  { type: 'passwordReset.passwordSubmitted', newPassword: 'NewSecret#1', passwordConfirmation: 'NewSecret#1' },
  { type: 'passwordReset.passwordSubmitted', newPassword: 'NewSecret#1', passwordConfirmation: 'Different#1' },
  { type: 'passwordReset.codeResendRequested' },
  { type: 'passwordReset.backRequested' },
  { type: 'xstate.done.actor.requestResetCode' },
  { type: 'xstate.error.actor.requestResetCode', error: { message: 'Failed to send recovery email' } },
  { type: 'xstate.done.actor.resendResetCode' },
  { type: 'xstate.error.actor.resendResetCode', error: { message: 'Too many requests, please try again later' } },
  { type: 'xstate.done.actor.confirmResetCode', output: { token: 'reset-tok' } },
  { type: 'xstate.error.actor.confirmResetCode', error: { message: 'Invalid reset token or expired, try to send reset link again' } },
  { type: 'xstate.done.actor.resetPassword' },
  { type: 'xstate.error.actor.resetPassword', error: {} },
];
