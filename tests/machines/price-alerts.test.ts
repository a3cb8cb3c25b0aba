/**
 * Price alerts (price-alerts.machine): generated paths with full coverage, then behaviour with
 * stub actors: the list loads on login and is forgotten on logout, a new alert goes first with
 * a toast, a refusal stays on the form in the server's words, a delete drops it (a 404 reloads
 * the list), a failed delete toasts, and a fired alert (the price_alert push) is marked and
 * toasted in any logged-in state.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fromPromise, waitFor, type AnyEventObject } from 'xstate';
import type { PriceAlert } from '../../contract/alerts';
import { firedToast, priceAlertsMachine, type AlertList, type CreateAlertRequest } from '../../machines/price-alerts/price-alerts.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';

const alert = (id: number, over: Partial<PriceAlert> = {}): PriceAlert => ({
  alert_id: id,
  pair_code: 'EURUSD',
  pair_human_code: 'EUR/USD',
  direction: 'above',
  price: 1.1625,
  price_text: '1.16250',
  precision: 5,
  created_at_ms: 1_760_000_000_000 + id,
  fired_at_ms: null,
  fired_price: null,
  ...over,
});
const list: AlertList = { alerts: [alert(1), alert(2)], max_pending: 20 };
const fired = alert(1, { fired_at_ms: 1_760_000_100_000, fired_price: 1.16251 });
const request: CreateAlertRequest = { pairCode: 'EURUSD', direction: 'below', price: '1.15' };

const events: AnyEventObject[] = [
  { type: 'alerts.sessionStarted' },
  { type: 'alerts.sessionEnded' },
  { type: 'alerts.retryRequested' },
  { type: 'alerts.createRequested', request },
  { type: 'alerts.deleteRequested', alertId: 2 },
  { type: 'alerts.fired', alert: fired },
  { type: 'alerts.formReset' },
  { type: 'xstate.done.actor.loadAlerts', output: list },
  { type: 'xstate.error.actor.loadAlerts', error: { message: 'Unauthorized' } },
  { type: 'xstate.done.actor.createAlert', output: alert(3, { direction: 'below', price: 1.15, price_text: '1.15000' }) },
  { type: 'xstate.error.actor.createAlert', error: { message: 'At most 20 waiting alerts' } },
  { type: 'xstate.done.actor.deleteAlert', output: 2 },
  { type: 'xstate.error.actor.deleteAlert', error: { status: 404, message: 'Alert not found' } },
  { type: 'xstate.error.actor.deleteAlert', error: { status: 500, message: '' } },
];
const model: PathModel = {
  name: 'priceAlerts',
  machine: priceAlertsMachine,
  events,
  simplePathEvents: [events[0], events[3], events[4], events[7], events[9], events[11]],
  simplePaths: 100,
};

describe('priceAlerts machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('priceAlerts'));
});

function start(outcomes: { create?: () => Promise<PriceAlert>; remove?: () => Promise<number> } = {}) {
  const calls = { load: 0, create: [] as CreateAlertRequest[], remove: [] as number[] };
  const machine = priceAlertsMachine.provide({
    actors: {
      loadAlerts: fromPromise<AlertList, void>(async () => {
        calls.load += 1;
        return list;
      }),
      createAlert: fromPromise<PriceAlert, CreateAlertRequest>(async ({ input }) => {
        calls.create.push(input);
        return (outcomes.create ?? (async () => alert(3)))();
      }),
      deleteAlert: fromPromise<number, { alertId: number }>(async ({ input }) => {
        calls.remove.push(input.alertId);
        return (outcomes.remove ?? (async () => input.alertId))();
      }),
    },
  });
  return { ...startUnderParent(machine), calls };
}

describe('priceAlerts', () => {
  it('loads on login, creates first in the list with a toast, deletes, forgets on logout', async () => {
    const { actor, calls, parentEvents } = start();
    actor.send({ type: 'alerts.sessionStarted' });
    await waitFor(actor, (s) => s.matches({ loggedIn: { ready: 'idle' } }));
    actor.send({ type: 'alerts.createRequested', request });
    await waitFor(actor, (s) => s.context.alerts.length === 3);
    expect(calls.create).toEqual([request]);
    expect(actor.getSnapshot().context.alerts.map((a) => a.alert_id)).toEqual([3, 1, 2]);
    expect(parentEvents).toEqual([{ type: 'toast.requested', toast: { type: 'success', messageKey: 'alerts.created' } }]);
    actor.send({ type: 'alerts.deleteRequested', alertId: 1 });
    await waitFor(actor, (s) => s.context.alerts.length === 2);
    expect(actor.getSnapshot().context.alerts.map((a) => a.alert_id)).toEqual([3, 2]);
    actor.send({ type: 'alerts.sessionEnded' });
    expect(actor.getSnapshot().context.alerts).toEqual([]);
    expect(actor.getSnapshot().value).toBe('loggedOut');
  });

  it("keeps a refusal on the form in the server's words, cleared by a reset", async () => {
    const { actor } = start({ create: () => Promise.reject(new Error('An "above" alert must be higher than the current price')) });
    actor.send({ type: 'alerts.sessionStarted' });
    await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
    actor.send({ type: 'alerts.createRequested', request });
    await waitFor(actor, (s) => s.context.formError !== null);
    expect(actor.getSnapshot().context.formError).toBe('An "above" alert must be higher than the current price');
    actor.send({ type: 'alerts.formReset' });
    expect(actor.getSnapshot().context.formError).toBeNull();
  });

  it('a 404 on delete reloads the list; another failure toasts', async () => {
    const gone = Object.assign(new Error('Alert not found'), { status: 404 });
    const { actor, calls, parentEvents } = start({ remove: () => Promise.reject(gone) });
    actor.send({ type: 'alerts.sessionStarted' });
    await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
    actor.send({ type: 'alerts.deleteRequested', alertId: 2 });
    await waitFor(actor, () => calls.load === 2);
    await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
    expect(parentEvents).toEqual([]);

    const other = start({ remove: () => Promise.reject(new Error('')) });
    other.actor.send({ type: 'alerts.sessionStarted' });
    await waitFor(other.actor, (s) => s.matches({ loggedIn: 'ready' }));
    other.actor.send({ type: 'alerts.deleteRequested', alertId: 2 });
    await waitFor(other.actor, () => other.parentEvents.length === 1);
    expect(other.parentEvents).toEqual([{ type: 'toast.requested', toast: { type: 'error', messageKey: 'alerts.delete_failed' } }]);
  });

  it('marks a fired alert and toasts it, also while loading', async () => {
    const { actor, parentEvents } = start();
    actor.send({ type: 'alerts.sessionStarted' });
    actor.send({ type: 'alerts.fired', alert: fired });
    expect(parentEvents).toEqual([{ type: 'toast.requested', toast: firedToast(fired) }]);
    await waitFor(actor, (s) => s.matches({ loggedIn: 'ready' }));
    actor.send({ type: 'alerts.fired', alert: fired });
    expect(actor.getSnapshot().context.alerts.map((a) => [a.alert_id, a.fired_at_ms])).toEqual([
      [2, null],
      [1, fired.fired_at_ms],
    ]);
    expect(firedToast(fired)).toEqual({ type: 'warning', messageKey: 'alerts.fired_above', params: { pair: { pair_code: 'EURUSD', pair_human_code: 'EUR/USD' }, level: { price: 1.1625, precision: 5 }, price: { price: 1.16251, precision: 5 } }, duration: 10_000 });
  });

  it('an alert whose firing arrives before the answer that lists it stays fired', async () => {
    // The create's answer comes after the push (the alert fired on the next tick).
    let answer!: (a: PriceAlert) => void;
    const { actor } = start({ create: () => new Promise<PriceAlert>((resolve) => (answer = resolve)) });
    actor.send({ type: 'alerts.sessionStarted' });
    await waitFor(actor, (s) => s.matches({ loggedIn: { ready: 'idle' } }));
    actor.send({ type: 'alerts.createRequested', request });
    await waitFor(actor, () => answer !== undefined);
    const firedNew = alert(3, { direction: 'below', fired_at_ms: 1_760_000_200_000, fired_price: 1.14999 });
    actor.send({ type: 'alerts.fired', alert: firedNew });
    answer(alert(3, { direction: 'below' }));
    await waitFor(actor, (s) => s.matches({ loggedIn: { ready: 'idle' } }));
    expect(actor.getSnapshot().context.alerts.map((a) => [a.alert_id, a.fired_at_ms])).toEqual([
      [1, null],
      [2, null],
      [3, firedNew.fired_at_ms],
    ]);

    // A list read from before the firing does not undo it either.
    actor.send({ type: 'alerts.fired', alert: fired });
    actor.send({ type: 'alerts.retryRequested' });
    await waitFor(actor, (s) => s.matches({ loggedIn: { ready: 'idle' } }));
    expect(actor.getSnapshot().context.alerts.map((a) => [a.alert_id, a.fired_at_ms])).toEqual([
      [2, null],
      [1, fired.fired_at_ms],
    ]);
  });
});
