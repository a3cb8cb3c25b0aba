/**
 * Telegram linking (telegram.machine): generated paths with full coverage (the poll timer
 * included), then behaviour with stub actors: start from linked / waiting / unlinked, create a
 * link and poll until the bot links it, an expired code, unlink after confirming, and the
 * fallback "Telegram connection and disconnection failed".
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fromPromise, waitFor, type AnyEventObject } from 'xstate';
import type { TelegramLinkCode, TelegramStatus } from '../../contract/profile';
import { TELEGRAM_POLL_MS, telegramMachine } from '../../machines/telegram/telegram.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';

const account = { id: 12345, username: 'alice', first_name: 'Alice', last_name: null, language: 'en', linked_at: 1_760_000_000 };
const link: TelegramLinkCode = { code: 'Ab3dEf6hIj9kLm2n', deep_link: 'https://t.me/TradeTerminalBot?start=Ab3dEf6hIj9kLm2n', expires_at: 1_760_000_600 };
const linked: TelegramStatus = { linked: true, telegram: account, pending_code: null, deep_link: null, expires_at: null };
const waiting: TelegramStatus = { linked: false, telegram: null, pending_code: link.code, deep_link: link.deep_link, expires_at: link.expires_at };
const unlinked: TelegramStatus = { linked: false, telegram: null, pending_code: null, deep_link: null, expires_at: null };

const events: AnyEventObject[] = [
  { type: 'telegram.retryRequested' },
  { type: 'telegram.linkRequested' },
  { type: 'telegram.linkCancelled' },
  { type: 'telegram.checkRequested' },
  { type: 'telegram.unlinkRequested' },
  { type: 'telegram.unlinkConfirmed' },
  { type: 'telegram.unlinkCancelled' },
  { type: 'xstate.done.actor.loadTelegramStatus', output: linked },
  { type: 'xstate.done.actor.loadTelegramStatus', output: waiting },
  { type: 'xstate.done.actor.loadTelegramStatus', output: unlinked },
  { type: 'xstate.error.actor.loadTelegramStatus', error: {} },
  { type: 'xstate.done.actor.createTelegramLink', output: link },
  { type: 'xstate.error.actor.createTelegramLink', error: { message: 'Too many requests, please try again later' } },
  { type: 'xstate.done.actor.checkTelegramStatus', output: linked },
  { type: 'xstate.done.actor.checkTelegramStatus', output: waiting },
  { type: 'xstate.done.actor.checkTelegramStatus', output: unlinked },
  { type: 'xstate.error.actor.checkTelegramStatus', error: {} },
  { type: 'xstate.done.actor.unlinkTelegram', output: unlinked },
  { type: 'xstate.error.actor.unlinkTelegram', error: {} },
];
const model: PathModel = {
  name: 'telegram',
  machine: telegramMachine,
  events,
  simplePathEvents: [events[1], events[3], events[4], events[5], events[7], events[9], events[11], events[13], events[15], events[17]],
  simplePaths: 200,
};

describe('telegram machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('telegram'));
});

function start(statuses: TelegramStatus[], outcomes: { create?: () => Promise<TelegramLinkCode>; unlink?: () => Promise<TelegramStatus> } = {}) {
  const calls = { status: 0, create: 0, unlink: 0 };
  const machine = telegramMachine.provide({
    actors: {
      loadTelegramStatus: fromPromise<TelegramStatus, void>(() => {
        const status = statuses[Math.min(calls.status, statuses.length - 1)];
        calls.status += 1;
        return Promise.resolve(status);
      }),
      createTelegramLink: fromPromise<TelegramLinkCode, void>(() => {
        calls.create += 1;
        return (outcomes.create ?? (() => Promise.resolve(link)))();
      }),
      unlinkTelegram: fromPromise<TelegramStatus, void>(() => {
        calls.unlink += 1;
        return (outcomes.unlink ?? (() => Promise.resolve(unlinked)))();
      }),
    },
  });
  return { ...startUnderParent(machine), calls };
}

describe('telegram', () => {
  it('starts where the server is: linked, waiting for the bot, or not linked', async () => {
    for (const [status, state] of [
      [linked, 'linked'],
      [waiting, { awaitingBot: 'waiting' }],
      [unlinked, 'unlinked'],
    ] as const) {
      const { actor } = start([status]);
      await waitFor(actor, (s) => !s.matches('loading'));
      expect(actor.getSnapshot().value).toEqual(state);
    }
  });

  it('creates a link, polls every few seconds and moves to linked when the bot links it', async () => {
    vi.useFakeTimers();
    try {
      const { actor, calls, parentEvents } = start([unlinked, waiting, linked]);
      await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('unlinked'));
      actor.send({ type: 'telegram.linkRequested' });
      await vi.waitFor(() => expect(actor.getSnapshot().value).toEqual({ awaitingBot: 'waiting' }));
      expect(actor.getSnapshot().context.link).toEqual(link);
      await vi.advanceTimersByTimeAsync(TELEGRAM_POLL_MS);
      await vi.waitFor(() => expect(calls.status).toBe(2));
      expect(actor.getSnapshot().value).toEqual({ awaitingBot: 'waiting' });
      await vi.advanceTimersByTimeAsync(TELEGRAM_POLL_MS);
      await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('linked'));
      expect(actor.getSnapshot().context.status?.telegram?.username).toBe('alice');
      expect(parentEvents).toEqual([{ type: 'toast.requested', toast: { type: 'success', messageKey: 'profile.telegram.linked_toast' } }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says the code expired when the server no longer waits for it', async () => {
    const { actor } = start([waiting, unlinked]);
    await waitFor(actor, (s) => s.matches('awaitingBot'));
    actor.send({ type: 'telegram.checkRequested' });
    await waitFor(actor, (s) => s.matches('unlinked'));
    expect(actor.getSnapshot().context).toMatchObject({ link: null, error: 'profile.telegram.code_expired' });
  });

  it('unlinks only after confirming; a failure keeps the dialog with the fallback text', async () => {
    let attempt = 0;
    const { actor, calls, parentEvents } = start([linked], {
      unlink: () => (++attempt === 1 ? Promise.reject(new Error('')) : Promise.resolve(unlinked)),
    });
    await waitFor(actor, (s) => s.matches('linked'));
    actor.send({ type: 'telegram.unlinkRequested' });
    actor.send({ type: 'telegram.unlinkCancelled' });
    expect(actor.getSnapshot().value).toBe('linked');
    actor.send({ type: 'telegram.unlinkRequested' });
    actor.send({ type: 'telegram.unlinkConfirmed' });
    await waitFor(actor, (s) => s.matches('confirmingUnlink') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('profile.errors.telegram_failed');
    actor.send({ type: 'telegram.unlinkConfirmed' });
    await waitFor(actor, (s) => s.matches('unlinked'));
    expect(calls.unlink).toBe(2);
    expect(parentEvents).toEqual([{ type: 'toast.requested', toast: { type: 'success', messageKey: 'profile.telegram.unlinked_toast' } }]);
  });

  it('shows the server text when a link cannot be created', async () => {
    const { actor } = start([unlinked], { create: () => Promise.reject(new Error('Too many requests, please try again later')) });
    await waitFor(actor, (s) => s.matches('unlinked'));
    actor.send({ type: 'telegram.linkRequested' });
    await waitFor(actor, (s) => s.matches('unlinked') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Too many requests, please try again later');
  });
});
