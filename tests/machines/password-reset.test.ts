/**
 * Password reset: generated paths for both entry points (by emailed code, by reset link),
 * plus the flows end to end against stub actors: the calls made, errors staying on the step,
 * resending the code, Back, and a rejected password retried without spending the code again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fromPromise, waitFor } from 'xstate';
import {
  passwordResetMachine,
  type ConfirmResetCodeInput,
  type ConfirmResetCodeOutput,
  type ResetPasswordInput,
} from '../../machines/password-reset/password-reset.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';
import { FieldText } from '../../contract/auth';
import { passwordResetEvents, resetCodeForm } from './path-events';

const codeForm = resetCodeForm;
const events = passwordResetEvents;
const byCode: PathModel = {
  name: 'passwordReset',
  machine: passwordResetMachine,
  input: {},
  events,
  simplePaths: 500,
  simplePathEvents: [events[0], events[2], events[6], events[7], events[8], events[10], events[12], events[13], events[14], events[15]],
};
const byLink: PathModel = { name: 'passwordReset', machine: passwordResetMachine, input: { linkToken: 'link-tok' }, events, simplePaths: 300 };

describe('password reset machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(byCode))('by code: %s', (_, path) => {
    replayPath(byCode, path);
  });
  it.each(pathCases(byLink))('by link: %s', (_, path) => {
    replayPath(byLink, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('passwordReset'));
});

function start(linkToken: string | null, outcomes: { request?: () => Promise<void>; confirm?: () => Promise<ConfirmResetCodeOutput>; reset?: () => Promise<void> } = {}) {
  const calls = { request: [] as string[], confirm: [] as ConfirmResetCodeInput[], reset: [] as ResetPasswordInput[] };
  const machine = passwordResetMachine.provide({
    actors: {
      requestResetCode: fromPromise<void, { email: string }>(({ input }) => {
        calls.request.push(input.email);
        return (outcomes.request ?? (() => Promise.resolve()))();
      }),
      confirmResetCode: fromPromise<ConfirmResetCodeOutput, ConfirmResetCodeInput>(({ input }) => {
        calls.confirm.push(input);
        return (outcomes.confirm ?? (() => Promise.resolve({ token: 'reset-tok' })))();
      }),
      resetPassword: fromPromise<void, ResetPasswordInput>(({ input }) => {
        calls.reset.push(input);
        return (outcomes.reset ?? (() => Promise.resolve()))();
      }),
    },
  });
  return { ...startUnderParent(machine, { linkToken }), calls };
}

describe('password reset by code', () => {
  it('sends the code, trades it for a token and saves the new password', async () => {
    const { actor, calls } = start(null);
    expect(actor.getSnapshot().value).toBe('enteringEmail');
    actor.send({ type: 'passwordReset.emailSubmitted', email: '  Trader7@Example.com ' });
    await waitFor(actor, (s) => s.matches('enteringCode'));
    actor.send({ type: 'passwordReset.codeSubmitted', ...codeForm });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.request).toEqual(['Trader7@Example.com']);
    expect(calls.confirm).toEqual([{ email: 'Trader7@Example.com', code: '123456' }]);
    expect(calls.reset).toEqual([{ token: 'reset-tok', newPassword: 'NewSecret#1' }]);
    expect(actor.getSnapshot().context.newPassword).toBeNull();
  });

  it('keeps errors on the step they belong to, with the fallback text when the server gives none', async () => {
    const { actor } = start(null, { request: () => Promise.reject(new Error('')) });
    actor.send({ type: 'passwordReset.emailSubmitted', email: 'bad' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual([{ field: 'email', message: FieldText.emailInvalid }]);
    actor.send({ type: 'passwordReset.emailSubmitted', email: 'a@b.co' });
    await waitFor(actor, (s) => s.matches('enteringEmail') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Failed to send recovery email');

    const wrongCode = start(null, { confirm: () => Promise.reject(new Error('Invalid reset token or expired, try to send reset link again')) });
    wrongCode.actor.send({ type: 'passwordReset.emailSubmitted', email: 'a@b.co' });
    await waitFor(wrongCode.actor, (s) => s.matches('enteringCode'));
    wrongCode.actor.send({ type: 'passwordReset.codeSubmitted', ...codeForm, passwordConfirmation: 'Mismatch#1' });
    expect(wrongCode.actor.getSnapshot().context.fieldErrors).toEqual([{ field: 'passwordConfirmation', message: 'validation.passwords_do_not_match' }]);
    wrongCode.actor.send({ type: 'passwordReset.codeSubmitted', ...codeForm });
    await waitFor(wrongCode.actor, (s) => s.matches('enteringCode') && s.context.error !== null);
    expect(wrongCode.actor.getSnapshot().context.error).toBe('Invalid reset token or expired, try to send reset link again');
    expect(wrongCode.calls.reset).toEqual([]);
  });

  it('retries a rejected password without spending the code again', async () => {
    let attempts = 0;
    const { actor, calls } = start(null, { reset: () => (++attempts === 1 ? Promise.reject(new Error('Password is too weak')) : Promise.resolve()) });
    actor.send({ type: 'passwordReset.emailSubmitted', email: 'a@b.co' });
    await waitFor(actor, (s) => s.matches('enteringCode'));
    actor.send({ type: 'passwordReset.codeSubmitted', ...codeForm });
    await waitFor(actor, (s) => s.matches('enteringCode') && s.context.error === 'Password is too weak');
    actor.send({ type: 'passwordReset.codeSubmitted', ...codeForm, newPassword: 'Stronger#22', passwordConfirmation: 'Stronger#22' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.confirm).toHaveLength(1);
    expect(calls.reset.map((c) => c.newPassword)).toEqual(['NewSecret#1', 'Stronger#22']);
  });

  it('resends the code (dropping an accepted token) and goes back to the email', async () => {
    const { actor, calls } = start(null);
    actor.send({ type: 'passwordReset.emailSubmitted', email: 'a@b.co' });
    await waitFor(actor, (s) => s.matches('enteringCode'));
    actor.send({ type: 'passwordReset.codeResendRequested' });
    expect(actor.getSnapshot().value).toBe('resendingCode');
    await waitFor(actor, (s) => s.matches('enteringCode'));
    expect(calls.request).toEqual(['a@b.co', 'a@b.co']);
    actor.send({ type: 'passwordReset.backRequested' });
    expect(actor.getSnapshot().value).toBe('enteringEmail');
    expect(actor.getSnapshot().context.email).toBe('a@b.co');
  });
});

describe('password reset by link', () => {
  it('starts at the new password and saves it with the link token', async () => {
    const { actor, calls } = start('link-tok');
    expect(actor.getSnapshot().value).toBe('choosingPassword');
    actor.send({ type: 'passwordReset.passwordSubmitted', newPassword: 'NewSecret#1', passwordConfirmation: 'NewSecret#1' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls).toEqual({ request: [], confirm: [], reset: [{ token: 'link-tok', newPassword: 'NewSecret#1' }] });
  });

  it('stays on the password step with the error when the link is refused, and can start over by email', async () => {
    const { actor } = start('expired', { reset: () => Promise.reject(new Error('Invalid reset token or expired, try to send reset link again')) });
    actor.send({ type: 'passwordReset.passwordSubmitted', newPassword: 'NewSecret#1', passwordConfirmation: 'NewSecret#1' });
    await waitFor(actor, (s) => s.matches('choosingPassword') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Invalid reset token or expired, try to send reset link again');
    actor.send({ type: 'passwordReset.backRequested' });
    expect(actor.getSnapshot().value).toBe('enteringEmail');
    expect(actor.getSnapshot().context).toMatchObject({ linkToken: null, resetToken: null, error: null });
  });
});
