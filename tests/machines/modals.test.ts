/**
 * Modals: generated paths over the modal stack, plus the rules of spec section 4 (same id
 * replaces and comes on top, close by id, close all).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { modalsMachine, selectModal, selectTopModal } from '../../machines/modals/modals.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, type PathModel } from './harness';

const model: PathModel = {
  name: 'modals',
  machine: modalsMachine,
  events: [
    { type: 'modal.openRequested', id: 'deposit', data: { step: 'method' } },
    { type: 'modal.openRequested', id: 'deposit', data: { step: 'amount' } },
    { type: 'modal.openRequested', id: 'withdraw' },
    { type: 'modal.closeRequested', id: 'deposit' },
    { type: 'modal.closeRequested', id: 'withdraw' },
    { type: 'modal.allClosed' },
  ],
};

describe('modals machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('modals'));
});

describe('modals rules', () => {
  it('replaces a modal with the same id and puts it on top', () => {
    const actor = createActor(modalsMachine).start();
    actor.send({ type: 'modal.openRequested', id: 'deposit', data: { step: 1 } });
    actor.send({ type: 'modal.openRequested', id: 'orders' });
    actor.send({ type: 'modal.openRequested', id: 'deposit', data: { step: 2 } });
    const { context } = actor.getSnapshot();
    expect(context.open).toEqual([{ id: 'orders' }, { id: 'deposit', data: { step: 2 } }]);
    expect(selectTopModal(context)).toEqual({ id: 'deposit', data: { step: 2 } });
    expect(selectModal(context, 'orders')).toEqual({ id: 'orders' });
    expect(selectModal(context, 'withdraw')).toBeNull();
  });

  it('closes by id, stays open while others remain, and closes all at once', () => {
    const actor = createActor(modalsMachine).start();
    actor.send({ type: 'modal.openRequested', id: 'a' });
    actor.send({ type: 'modal.openRequested', id: 'b' });
    actor.send({ type: 'modal.closeRequested', id: 'a' });
    expect(actor.getSnapshot().value).toBe('open');
    expect(actor.getSnapshot().context.open).toEqual([{ id: 'b' }]);
    actor.send({ type: 'modal.closeRequested', id: 'b' });
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send({ type: 'modal.openRequested', id: 'c' });
    actor.send({ type: 'modal.openRequested', id: 'd' });
    actor.send({ type: 'modal.allClosed' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.open).toEqual([]);
  });
});
