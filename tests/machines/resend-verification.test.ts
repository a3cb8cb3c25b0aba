/**
 * Resending the verification email from the profile: generated paths, the request it makes,
 * the toasts, and a second request from `sent`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fromPromise, waitFor, type AnyEventObject } from 'xstate';
import { RESEND_FALLBACK_KEY, resendVerificationMachine, type ResendVerificationInput } from '../../machines/email-verification/resend-verification.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';

const events: AnyEventObject[] = [
  { type: 'verification.resendRequested', email: 'ann@example.com' },
  { type: 'xstate.done.actor.resendVerification' },
  { type: 'xstate.error.actor.resendVerification', error: { message: 'Too many requests' } },
  { type: 'xstate.error.actor.resendVerification', error: {} },
];
const model: PathModel = { name: 'verification', machine: resendVerificationMachine, events };

describe('resend verification machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('verification'));
});

describe('resending the verification email', () => {
  it('sends the address once per click, confirms, and may send again', async () => {
    const calls: ResendVerificationInput[] = [];
    const machine = resendVerificationMachine.provide({
      actors: { resendVerification: fromPromise<void, ResendVerificationInput>(async ({ input }) => void calls.push(input)) },
    });
    const { actor, parentEvents } = startUnderParent(machine);
    actor.send({ type: 'verification.resendRequested', email: 'ann@example.com' });
    actor.send({ type: 'verification.resendRequested', email: 'ann@example.com' });
    await waitFor(actor, (s) => s.matches('sent'));
    expect(calls).toEqual([{ email: 'ann@example.com' }]);
    expect(parentEvents).toEqual([
      { type: 'toast.requested', toast: { type: 'success', messageKey: 'profile.personal.verification_sent', params: { email: 'ann@example.com' } } },
    ]);
    actor.send({ type: 'verification.resendRequested', email: 'ann@example.com' });
    await waitFor(actor, (s) => s.matches('sent') && calls.length === 2);
  });

  it('toasts the server text, or "Failed to resend verification email"', async () => {
    for (const [error, toast] of [
      [new Error('Too many requests'), { type: 'error', message: 'Too many requests' }],
      [new Error(''), { type: 'error', messageKey: RESEND_FALLBACK_KEY }],
    ] as const) {
      const machine = resendVerificationMachine.provide({ actors: { resendVerification: fromPromise<void, ResendVerificationInput>(() => Promise.reject(error)) } });
      const { actor, parentEvents } = startUnderParent(machine);
      actor.send({ type: 'verification.resendRequested', email: 'ann@example.com' });
      await waitFor(actor, (s) => s.matches('idle') && parentEvents.length > 0);
      expect(parentEvents).toEqual([{ type: 'toast.requested', toast }]);
    }
  });
});
