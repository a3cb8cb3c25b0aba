/**
 * The security section (security.machine): generated paths from both starting points
 * (two-factor off and on) with full coverage, then behaviour with stub actors: the password
 * change (form rules, what is sent, server text, success toast), two-factor enrolment (setup
 * shown, a wrong code keeps the setup, a right one switches on and refreshes the user) and
 * disabling with a code.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { fromPromise, waitFor, type AnyEventObject } from 'xstate';
import type { TwoFactorSetup } from '../../contract/profile';
import { FieldText, PasswordSchema } from '../../contract/auth';
import { securityMachine, type ChangePasswordInput, type TwoFactorCodeInput } from '../../machines/security/security.machine';
import { PasswordChangeFormSchema } from '../../machines/security/security.schemas';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';

const setupData: TwoFactorSetup = {
  secret: 'JBSWY3DPEHPK3PXP',
  otpauth_url: 'otpauth://totp/TradeTerminal:trader7?secret=JBSWY3DPEHPK3PXP&issuer=TradeTerminal',
  qr_code: 'data:image/png;base64,iVBORw0KGgo=',
  expires_at: 1_900_000_000,
};
const passwords = { oldPassword: 'Trade#Pass2026', newPassword: 'Fresh#Pass27', confirmPassword: 'Fresh#Pass27' };
const recoveryCodes = ['k7m2px9qaz', 'abcdefghjk', 'mnpqrstuvw', 'xyz2345678', '9abcdefghj', 'kmnpqrstuv', 'wxyz234567', '89abcdefgh', 'jkmnpqrstu', 'vwxyz23456'];

const events: AnyEventObject[] = [
  { type: 'security.passwordChangeSubmitted', ...passwords },
  { type: 'security.passwordChangeSubmitted', ...passwords, confirmPassword: 'other-pass' },
  { type: 'security.twoFactorEnableRequested' },
  { type: 'security.twoFactorSetupCancelled' },
  { type: 'security.twoFactorCodeSubmitted', code: '123 456' },
  { type: 'security.twoFactorCodeSubmitted', code: '12ab' },
  { type: 'security.twoFactorDisableRequested' },
  { type: 'security.twoFactorDisableCancelled' },
  { type: 'security.twoFactorDisableSubmitted', code: '654321' },
  { type: 'security.twoFactorDisableSubmitted', code: '65' },
  { type: 'xstate.done.actor.changePassword' },
  { type: 'xstate.error.actor.changePassword', error: { message: 'Current password is incorrect', details: [{ field: 'old_password', message: 'Current password is incorrect' }] } },
  { type: 'xstate.done.actor.startTwoFactor', output: setupData },
  { type: 'xstate.error.actor.startTwoFactor', error: {} },
  { type: 'xstate.done.actor.confirmTwoFactor', output: recoveryCodes },
  { type: 'xstate.error.actor.confirmTwoFactor', error: { message: 'Invalid code' } },
  { type: 'xstate.done.actor.disableTwoFactor' },
  { type: 'xstate.error.actor.disableTwoFactor', error: {} },
  { type: 'security.recoveryCodesSaved' },
  { type: 'security.recoveryCodesRegenerateRequested' },
  { type: 'security.recoveryCodesRegenerateCancelled' },
  { type: 'security.recoveryCodesRegenerateSubmitted', code: '765 432' },
  { type: 'security.recoveryCodesRegenerateSubmitted', code: '7' },
  { type: 'xstate.done.actor.regenerateRecoveryCodes', output: recoveryCodes },
  { type: 'xstate.error.actor.regenerateRecoveryCodes', error: { message: 'Invalid code' } },
  { type: 'xstate.done.actor.countRecoveryCodes', output: 7 },
  { type: 'xstate.error.actor.countRecoveryCodes', error: {} },
];
// Simple paths: from "off" the password change and the enrolment up to the codes saved; from "on" the count, a regeneration and disabling.
const offPathEvents = [events[0], events[2], events[4], events[6], events[8], events[10], events[12], events[14], events[16], events[18]];
const onPathEvents = [events[6], events[8], events[16], events[18], events[19], events[21], events[23], events[25]];
const off: PathModel = { name: 'security', machine: securityMachine, input: { twoFactorEnabled: false }, events, simplePathEvents: offPathEvents, simplePaths: 200 };
const on: PathModel = { name: 'security', machine: securityMachine, input: { twoFactorEnabled: true }, events, simplePathEvents: onPathEvents, simplePaths: 200 };

describe('security machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(off))('two-factor off: %s', (_, path) => {
    replayPath(off, path);
  });
  it.each(pathCases(on))('two-factor on: %s', (_, path) => {
    replayPath(on, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('security'));
});

function start(
  twoFactorEnabled: boolean,
  outcomes: {
    change?: (input: ChangePasswordInput) => Promise<void>;
    confirm?: (input: TwoFactorCodeInput) => Promise<string[]>;
    disable?: (input: TwoFactorCodeInput) => Promise<void>;
    count?: () => Promise<number>;
    regenerate?: (input: TwoFactorCodeInput) => Promise<string[]>;
  } = {},
) {
  const calls = { change: [] as ChangePasswordInput[], start: 0, confirm: [] as string[], disable: [] as string[], regenerate: [] as string[], count: 0 };
  const machine = securityMachine.provide({
    actors: {
      changePassword: fromPromise<void, ChangePasswordInput>(({ input }) => {
        calls.change.push(input);
        return (outcomes.change ?? (() => Promise.resolve()))(input);
      }),
      startTwoFactor: fromPromise<TwoFactorSetup, void>(() => {
        calls.start += 1;
        return Promise.resolve(setupData);
      }),
      confirmTwoFactor: fromPromise<string[], TwoFactorCodeInput>(({ input }) => {
        calls.confirm.push(input.code);
        return (outcomes.confirm ?? (() => Promise.resolve(recoveryCodes)))(input);
      }),
      countRecoveryCodes: fromPromise<number, void>(() => {
        calls.count += 1;
        return (outcomes.count ?? (() => Promise.resolve(10)))();
      }),
      regenerateRecoveryCodes: fromPromise<string[], TwoFactorCodeInput>(({ input }) => {
        calls.regenerate.push(input.code);
        return (outcomes.regenerate ?? (() => Promise.resolve(recoveryCodes)))(input);
      }),
      disableTwoFactor: fromPromise<void, TwoFactorCodeInput>(({ input }) => {
        calls.disable.push(input.code);
        return (outcomes.disable ?? (() => Promise.resolve()))(input);
      }),
    },
  });
  return { ...startUnderParent(machine, { twoFactorEnabled }), calls };
}

describe('password change', () => {
  it('checks the form as spec section 5 says before sending anything', () => {
    const problems = (values: object) => {
      const result = v.safeParse(PasswordChangeFormSchema, { ...passwords, ...values }, { abortPipeEarly: true });
      return result.success ? [] : result.issues.map((i) => `${v.getDotPath(i)}: ${i.message}`);
    };
    expect(problems({})).toEqual([]);
    expect(problems({ oldPassword: '' })).toEqual(['oldPassword: profile.validation.old_password_required']);
    // The registration and reset rule (issue 26): 8+ characters of four kinds, no spaces; the same texts.
    expect(problems({ newPassword: 'abcdef', confirmPassword: 'abcdef' })).toEqual([`newPassword: ${FieldText.passwordMinLength}`]);
    expect(problems({ newPassword: 'abcdefgh', confirmPassword: 'abcdefgh' })).toEqual([`newPassword: ${FieldText.passwordUppercase}`]);
    expect(problems({ newPassword: 'ABCDEFG#1', confirmPassword: 'ABCDEFG#1' })).toEqual([`newPassword: ${FieldText.passwordLowercase}`]);
    expect(problems({ newPassword: 'Abcdefg#h', confirmPassword: 'Abcdefg#h' })).toEqual([`newPassword: ${FieldText.passwordDigit}`]);
    expect(problems({ newPassword: 'Abcdefg12', confirmPassword: 'Abcdefg12' })).toEqual([`newPassword: ${FieldText.passwordSpecial}`]);
    expect(problems({ newPassword: '        ', confirmPassword: '        ' })).toEqual([`newPassword: ${FieldText.passwordNoSpaces}`]);
    expect(problems({ newPassword: 'Abcdef#1', confirmPassword: 'Abcdef#1' })).toEqual([]);
    // Exactly what registration and reset say about the same passwords.
    for (const weak of ['abcdef', 'abcdefgh', 'Abcdefg12', 'Abc def#12']) {
      const form = v.safeParse(PasswordChangeFormSchema, { ...passwords, newPassword: weak, confirmPassword: weak }, { abortPipeEarly: true });
      const reg = v.safeParse(PasswordSchema, weak, { abortPipeEarly: true });
      expect(form.success ? null : form.issues[0].message).toBe(reg.success ? null : reg.issues[0].message);
    }
    expect(problems({ confirmPassword: '' })).toEqual(['confirmPassword: validation.password_confirmation_required']);
    expect(problems({ confirmPassword: 'Fresh#PasS27' })).toEqual(['confirmPassword: validation.passwords_do_not_match']);
    expect(problems({ newPassword: passwords.oldPassword, confirmPassword: passwords.oldPassword })).toEqual(['newPassword: profile.validation.new_password_same']);
  });

  it('sends old, new and confirm; a refusal keeps the server text and its details', async () => {
    const { actor, calls, parentEvents } = start(false, {
      change: () => Promise.reject(Object.assign(new Error('Current password is incorrect'), { details: [{ field: 'old_password', message: 'Current password is incorrect' }] })),
    });
    actor.send({ type: 'security.passwordChangeSubmitted', ...passwords, confirmPassword: 'nope' });
    expect(calls.change).toEqual([]);
    expect(actor.getSnapshot().context.passwordFieldErrors).toEqual([{ field: 'confirmPassword', message: 'validation.passwords_do_not_match' }]);
    actor.send({ type: 'security.passwordChangeSubmitted', ...passwords });
    expect(actor.getSnapshot().value).toMatchObject({ password: 'changing' });
    await waitFor(actor, (s) => s.matches({ password: 'idle' }));
    expect(calls.change).toEqual([{ old_password: 'Trade#Pass2026', new_password: 'Fresh#Pass27', confirm_password: 'Fresh#Pass27' }]);
    expect(actor.getSnapshot().context).toMatchObject({
      passwordError: 'Current password is incorrect',
      passwordFieldErrors: [{ field: 'old_password', message: 'Current password is incorrect' }],
    });
    expect(parentEvents).toEqual([]);
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain('Fresh#Pass27');
  });

  it('toasts a changed password, and a failure without text falls back to "Failed to change password"', async () => {
    let attempt = 0;
    const { actor, parentEvents } = start(false, { change: () => (++attempt === 1 ? Promise.resolve() : Promise.reject(new Error(''))) });
    actor.send({ type: 'security.passwordChangeSubmitted', ...passwords });
    await waitFor(actor, (s) => s.matches({ password: 'changed' }));
    expect(parentEvents).toEqual([{ type: 'toast.requested', toast: { type: 'success', messageKey: 'profile.security.password_changed' } }]);
    actor.send({ type: 'security.passwordChangeSubmitted', ...passwords });
    await waitFor(actor, (s) => s.matches({ password: 'idle' }));
    expect(actor.getSnapshot().context.passwordError).toBe('profile.errors.change_password_failed');
  });
});

describe('two-factor', () => {
  it('enrols: shows the setup, keeps it after a wrong code, switches on with a right one', async () => {
    let attempt = 0;
    const { actor, calls, parentEvents } = start(false, { confirm: () => (++attempt === 1 ? Promise.reject(new Error('Invalid code')) : Promise.resolve(recoveryCodes)) });
    expect(actor.getSnapshot().value).toMatchObject({ twoFactor: 'disabled' });
    actor.send({ type: 'security.twoFactorEnableRequested' });
    await waitFor(actor, (s) => s.matches({ twoFactor: 'awaitingCode' }));
    expect(actor.getSnapshot().context.setup).toEqual(setupData);

    actor.send({ type: 'security.twoFactorCodeSubmitted', code: '12345' });
    expect(actor.getSnapshot().context.codeError).toBe('profile.validation.code_invalid');
    actor.send({ type: 'security.twoFactorCodeSubmitted', code: '111 111' });
    await waitFor(actor, (s) => s.matches({ twoFactor: 'awaitingCode' }) && s.context.twoFactorError !== null);
    expect(actor.getSnapshot().context).toMatchObject({ twoFactorError: 'Invalid code', setup: setupData });

    actor.send({ type: 'security.twoFactorCodeSubmitted', code: '222222' });
    await waitFor(actor, (s) => s.matches({ twoFactor: 'showingCodes' }));
    expect(calls.confirm).toEqual(['111111', '222222']);
    expect(actor.getSnapshot().context).toMatchObject({ setup: null, recoveryCodes: recoveryCodes, recoveryRemaining: 10 });
    expect(actor.getSnapshot().hasTag('on')).toBe(true);
    // The codes are shown once: "I saved them" forgets them.
    actor.send({ type: 'security.recoveryCodesSaved' });
    expect(actor.getSnapshot().value).toMatchObject({ twoFactor: 'enabled' });
    expect(actor.getSnapshot().context.recoveryCodes).toBeNull();
    expect(calls.count).toBe(0);
    expect(parentEvents).toEqual([
      { type: 'session.userRefreshRequested' },
      { type: 'toast.requested', toast: { type: 'success', messageKey: 'profile.security.two_factor_enabled' } },
    ]);
  });

  it('turns off with a current code; a failure keeps the code step open', async () => {
    let attempt = 0;
    const { actor, calls, parentEvents } = start(true, { disable: () => (++attempt === 1 ? Promise.reject(new Error('')) : Promise.resolve()) });
    await waitFor(actor, (s) => s.matches({ twoFactor: 'enabled' }));
    expect(actor.getSnapshot().context.recoveryRemaining).toBe(10);
    actor.send({ type: 'security.twoFactorDisableRequested' });
    actor.send({ type: 'security.twoFactorDisableSubmitted', code: '333333' });
    await waitFor(actor, (s) => s.matches({ twoFactor: 'confirmingDisable' }) && s.context.twoFactorError !== null);
    expect(actor.getSnapshot().context.twoFactorError).toBe('profile.errors.disable_2fa_failed');
    actor.send({ type: 'security.twoFactorDisableSubmitted', code: '444 444' });
    await waitFor(actor, (s) => s.matches({ twoFactor: 'disabled' }));
    expect(calls.disable).toEqual(['333333', '444444']);
    expect(actor.getSnapshot().context.recoveryRemaining).toBeNull();
    expect(parentEvents.map((e) => e.type)).toEqual(['session.userRefreshRequested', 'toast.requested']);
  });

  it('cancelling the setup forgets the secret; starting again asks for a new one', async () => {
    const { actor, calls } = start(false);
    actor.send({ type: 'security.twoFactorEnableRequested' });
    await waitFor(actor, (s) => s.matches({ twoFactor: 'awaitingCode' }));
    actor.send({ type: 'security.twoFactorEnableRequested' });
    await waitFor(actor, (s) => s.matches({ twoFactor: 'awaitingCode' }));
    expect(calls.start).toBe(2);
    actor.send({ type: 'security.twoFactorSetupCancelled' });
    expect(actor.getSnapshot().value).toMatchObject({ twoFactor: 'disabled' });
    expect(actor.getSnapshot().context.setup).toBeNull();
  });

  it('started on: counts the recovery codes left; a failed count leaves it unknown', async () => {
    const counted = start(true, { count: () => Promise.resolve(3) });
    expect(counted.actor.getSnapshot().value).toMatchObject({ twoFactor: 'countingCodes' });
    expect(counted.actor.getSnapshot().hasTag('on')).toBe(true);
    await waitFor(counted.actor, (s) => s.matches({ twoFactor: 'enabled' }));
    expect(counted.actor.getSnapshot().context.recoveryRemaining).toBe(3);

    const failed = start(true, { count: () => Promise.reject(new Error('offline')) });
    await waitFor(failed.actor, (s) => s.matches({ twoFactor: 'enabled' }));
    expect(failed.actor.getSnapshot().context.recoveryRemaining).toBeNull();
  });

  it('a fresh set of recovery codes needs a valid code; a refusal keeps the dialog; the new set is shown once', async () => {
    let attempt = 0;
    const fresh = recoveryCodes.map((c) => c.split('').reverse().join(''));
    const { actor, calls, parentEvents } = start(true, {
      count: () => Promise.resolve(2),
      regenerate: () => (++attempt === 1 ? Promise.reject(new Error('Invalid code')) : Promise.resolve(fresh)),
    });
    await waitFor(actor, (s) => s.matches({ twoFactor: 'enabled' }));
    actor.send({ type: 'security.recoveryCodesRegenerateRequested' });
    expect(actor.getSnapshot().value).toMatchObject({ twoFactor: 'confirmingRegenerate' });
    actor.send({ type: 'security.recoveryCodesRegenerateSubmitted', code: '12' });
    expect(actor.getSnapshot().context.codeError).toBe('profile.validation.code_invalid');
    expect(calls.regenerate).toEqual([]);
    actor.send({ type: 'security.recoveryCodesRegenerateSubmitted', code: '111 111' });
    await waitFor(actor, (s) => s.matches({ twoFactor: 'confirmingRegenerate' }) && s.context.twoFactorError !== null);
    expect(actor.getSnapshot().context.twoFactorError).toBe('Invalid code');
    actor.send({ type: 'security.recoveryCodesRegenerateSubmitted', code: '222222' });
    await waitFor(actor, (s) => s.matches({ twoFactor: 'showingCodes' }));
    expect(calls.regenerate).toEqual(['111111', '222222']);
    expect(actor.getSnapshot().context).toMatchObject({ recoveryCodes: fresh, recoveryRemaining: 10, twoFactorError: null });
    actor.send({ type: 'security.recoveryCodesSaved' });
    expect(actor.getSnapshot().context.recoveryCodes).toBeNull();
    expect(parentEvents).toEqual([]);

    actor.send({ type: 'security.recoveryCodesRegenerateRequested' });
    actor.send({ type: 'security.recoveryCodesRegenerateCancelled' });
    expect(actor.getSnapshot().value).toMatchObject({ twoFactor: 'enabled' });
  });
});
