/**
 * Email verification: generated paths from both starts (a link with a token, a link without
 * one), plus the flow against stub actors: the token sent, the server's message kept, the
 * fallback text, and a retry after a failure.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fromPromise, waitFor, type AnyEventObject } from 'xstate';
import { EMAIL_VERIFICATION_FALLBACK, emailVerificationMachine } from '../../machines/email-verification/email-verification.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';

const events: AnyEventObject[] = [
  { type: 'emailVerification.retried' },
  { type: 'xstate.done.actor.verifyEmail' },
  { type: 'xstate.error.actor.verifyEmail', error: { message: 'Invalid or expired verification link' } },
  { type: 'xstate.error.actor.verifyEmail', error: {} },
];

const withToken: PathModel = { name: 'emailVerification', machine: emailVerificationMachine, input: { token: 'verify-tok' }, events };
const withoutToken: PathModel = { name: 'emailVerification', machine: emailVerificationMachine, input: { token: null }, events };

describe('email verification machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(withToken))('with a token: %s', (_, path) => {
    replayPath(withToken, path);
  });
  it.each(pathCases(withoutToken))('without a token: %s', (_, path) => {
    replayPath(withoutToken, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('emailVerification'));
});

function start(token: string | null, outcomes: Array<() => Promise<void>>) {
  const sent: string[] = [];
  const machine = emailVerificationMachine.provide({
    actors: {
      verifyEmail: fromPromise<void, { token: string }>(({ input }) => {
        sent.push(input.token);
        const next = outcomes.shift();
        return next ? next() : Promise.resolve();
      }),
    },
  });
  return { ...startUnderParent(machine, { token }), sent };
}

describe('verifying an email', () => {
  it('sends the token from the link once and ends verified', async () => {
    const { actor, sent } = start('abc123', []);
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('verified');
    expect(sent).toEqual(['abc123']);
  });

  it('fails without calling the server when the link has no token', () => {
    const { actor, sent } = start('', []);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe(EMAIL_VERIFICATION_FALLBACK);
    actor.send({ type: 'emailVerification.retried' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(sent).toEqual([]);
  });

  it("shows the server's message, falls back when there is none, and retries", async () => {
    const { actor, sent } = start('tok', [() => Promise.reject(new Error('Invalid or expired verification link')), () => Promise.reject(new Error('')), () => Promise.resolve()]);
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('Invalid or expired verification link');
    actor.send({ type: 'emailVerification.retried' });
    await waitFor(actor, (s) => s.matches('failed') && s.context.error === EMAIL_VERIFICATION_FALLBACK);
    actor.send({ type: 'emailVerification.retried' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(sent).toEqual(['tok', 'tok', 'tok']);
  });
});
