/**
 * Toasts: generated paths over the toast stack, plus the timing rules (default durations by
 * type, no auto-dismiss for a duration of 0 or less, a manual dismiss cancels the timer).
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { toastsMachine, MAX_TOASTS } from '../../machines/toasts/toasts.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, type PathModel } from './harness';

type Snapshot = { context: { nextId: number; toasts: Array<{ id: number; settlement?: { count: number } }> } };
const settlementEvent = { type: 'toast.requested', toast: { type: 'success', messageKey: 'orders.settled_won', settlement: { currency: 'USD', netMinor: 920 } } };
const dismissals = (snapshot: Snapshot) => [...snapshot.context.toasts.map((t) => ({ type: 'toast.dismissed', id: t.id })), { type: 'toast.dismissed', id: 999 }];

const model: PathModel = {
  name: 'toasts',
  machine: toastsMachine,
  // Bounded: three toasts in all (the id counter would otherwise grow without end), and a
  // settlement joins a showing one (the counter stays) at most once.
  events: (snapshot: Snapshot) => [
    ...(snapshot.context.nextId <= 3
      ? [
          { type: 'toast.requested', toast: { type: 'success', messageKey: 'balance.demo_reseted' } },
          { type: 'toast.requested', toast: { type: 'error', message: 'Server says no', duration: 0 } },
        ]
      : []),
    ...(snapshot.context.nextId <= 3 && snapshot.context.toasts.every((t) => (t.settlement?.count ?? 0) < 2) ? [settlementEvent] : []),
    ...dismissals(snapshot),
  ],
  // Simple paths: one plain toast and the settlements.
  simplePathEvents: (snapshot: Snapshot) => [
    ...(snapshot.context.nextId <= 2 ? [{ type: 'toast.requested', toast: { type: 'info', messageKey: 'balance.demo_reseted' } }] : []),
    ...(snapshot.context.nextId <= 3 && snapshot.context.toasts.every((t) => (t.settlement?.count ?? 0) < 2) ? [settlementEvent] : []),
    ...dismissals(snapshot),
  ],
};

describe('toasts machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('toasts'));
});

describe('toasts timing', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const start = () => createActor(toastsMachine).start();
  const ids = (actor: ReturnType<typeof start>) => actor.getSnapshot().context.toasts.map((t) => t.id);

  it('dismisses success and info after 3 s and errors after 5 s by default', () => {
    const actor = start();
    actor.send({ type: 'toast.requested', toast: { type: 'success', messageKey: 'a' } });
    actor.send({ type: 'toast.requested', toast: { type: 'error', messageKey: 'b' } });
    actor.send({ type: 'toast.requested', toast: { type: 'info', messageKey: 'c' } });
    expect(actor.getSnapshot().context.toasts.map((t) => t.duration)).toEqual([3000, 5000, 3000]);
    vi.advanceTimersByTime(2999);
    expect(ids(actor)).toEqual([1, 2, 3]);
    vi.advanceTimersByTime(1);
    expect(ids(actor)).toEqual([2]);
    vi.advanceTimersByTime(1999);
    expect(ids(actor)).toEqual([2]);
    vi.advanceTimersByTime(1);
    expect(ids(actor)).toEqual([]);
    expect(actor.getSnapshot().value).toBe('empty');
  });

  it('uses the duration given and never auto-dismisses with 0 or less', () => {
    const actor = start();
    actor.send({ type: 'toast.requested', toast: { type: 'warning', message: 'x', duration: 1200 } });
    actor.send({ type: 'toast.requested', toast: { type: 'success', message: 'y', duration: 0 } });
    actor.send({ type: 'toast.requested', toast: { type: 'error', message: 'z', duration: -5 } });
    vi.advanceTimersByTime(1200);
    expect(ids(actor)).toEqual([2, 3]);
    vi.advanceTimersByTime(60 * 60 * 1000);
    expect(ids(actor)).toEqual([2, 3]);
    actor.send({ type: 'toast.dismissed', id: 2 });
    actor.send({ type: 'toast.dismissed', id: 3 });
    expect(actor.getSnapshot().value).toBe('empty');
  });

  it('collapses settlements that arrive together into one toast with their count and net result', () => {
    const actor = start();
    const settle = (netMinor: number, currency = 'USD') =>
      actor.send({ type: 'toast.requested', toast: { type: netMinor > 0 ? 'success' : 'info', messageKey: 'orders.settled_won', settlement: { currency, netMinor } } });
    settle(920);
    actor.send({ type: 'toast.requested', toast: { type: 'info', messageKey: 'other' } });
    vi.advanceTimersByTime(2000);
    settle(-1000);
    settle(1320);
    settle(-500, 'EUR');
    const toasts = actor.getSnapshot().context.toasts;
    expect(toasts.map((t) => t.id)).toEqual([2, 1, 3]);
    expect(toasts[1]).toMatchObject({
      type: 'success',
      messageKey: 'orders.settled_many',
      params: { count: 3, sign: '+', amount: { money: 12.4, currency: 'USD' } },
      settlement: { currency: 'USD', netMinor: 1240, count: 3 },
    });
    expect(toasts[2]).toMatchObject({ messageKey: 'orders.settled_won', settlement: { currency: 'EUR', netMinor: -500, count: 1 } });
    // The joined toast's timer started again with the last settlement: 3 s from then.
    vi.advanceTimersByTime(1000);
    expect(ids(actor)).toEqual([1, 3]);
    vi.advanceTimersByTime(2000);
    expect(ids(actor)).toEqual([]);
    // A loss overall is no success, and once the toast is gone a settlement starts a new one.
    settle(-1000);
    settle(300);
    expect(actor.getSnapshot().context.toasts[0]).toMatchObject({ type: 'info', params: { count: 2, sign: '', amount: { money: -7, currency: 'USD' } } });
    vi.advanceTimersByTime(3000);
    settle(300);
    expect(actor.getSnapshot().context.toasts[0]).toMatchObject({ messageKey: 'orders.settled_won', settlement: { count: 1 } });
  });

  it('cancels the timer of a toast dismissed by hand', () => {
    const actor = start();
    actor.send({ type: 'toast.requested', toast: { type: 'info', message: 'first' } });
    actor.send({ type: 'toast.dismissed', id: 1 });
    expect(actor.getSnapshot().value).toBe('empty');
    const scheduled = Object.keys(actor.system.getSnapshot()._scheduledEvents);
    expect(scheduled).toEqual([]);
  });

  it('gives ids from a counter and keeps at most MAX_TOASTS, dropping the oldest', () => {
    const actor = start();
    for (let i = 0; i < MAX_TOASTS + 2; i++) actor.send({ type: 'toast.requested', toast: { type: 'info', message: String(i), duration: 0 } });
    expect(ids(actor)).toEqual([3, 4, 5, 6, 7]);
    expect(actor.getSnapshot().context.toasts[0]).toEqual({ id: 3, type: 'info', message: '2', duration: 0 });
  });
});
