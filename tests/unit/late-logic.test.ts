/**
 * The late-bound feature logic of the composition root (src/app/late-logic.ts): a stand-in
 * provided before its code is loaded behaves as the real machine once loaded (spawned by name,
 * inspected, its definition readable for the Stately inspector), refuses to be used before,
 * and a failed load is tried again by the next loadFeatures.
 */
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, setup, spawnChild, waitFor, type AnyActorLogic, type InspectionEvent } from 'xstate';
import { lateBound, lateFeatures } from '../../src/app/late-logic';
import { FEATURE_MACHINES } from '../../machines/app/feature-machines';

const child = createMachine({ id: 'child', initial: 'a', states: { a: { on: { go: 'b' } }, b: {} } });

const parent = setup({ actors: { child, load: fromPromise<void>(() => Promise.resolve()) } }).createMachine({
  initial: 'loading',
  states: {
    loading: { invoke: { id: 'load', src: 'load', onDone: 'ready' } },
    ready: { entry: spawnChild('child', { id: 'child', systemId: 'child' }) },
  },
});

describe('late-bound logic', () => {
  it('is the real machine once loaded: spawned by name, driven, inspected', async () => {
    let loaded: typeof child | null = null;
    const late = lateBound('child', () => loaded);
    const inspected: InspectionEvent[] = [];
    const logic = parent.provide({ actors: { child: late, load: fromPromise<void>(async () => void (loaded = child)) } });
    const actor = createActor(logic, { inspect: (e) => inspected.push(e) }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    const ref = actor.system.get('child');
    ref.send({ type: 'go' });
    expect(ref.getSnapshot().value).toBe('b');
    expect(inspected.some((e) => e.type === '@xstate.actor' && e.actorRef === ref)).toBe(true);
    expect((ref.logic as typeof child).config.id).toBe('child');
    expect(ref.logic instanceof Object.getPrototypeOf(child).constructor).toBe(true);
  });

  it('refuses to be used before its code is loaded', () => {
    const late = lateBound<AnyActorLogic>('pairs', () => null);
    expect(() => late.getInitialSnapshot).toThrow(/'pairs' logic was used before the feature chunk was loaded/);
  });

  it('loads the feature chunk once, and again after a failed load', async () => {
    let calls = 0;
    const features = lateFeatures(() => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(FEATURE_MACHINES);
    });
    const run = () => {
      const actor = createActor(features.loader);
      const settled = new Promise<string>((resolve) => actor.subscribe({ complete: () => resolve('done'), error: () => resolve('error') }));
      actor.start();
      return settled;
    };
    expect(await run()).toBe('error');
    expect(await run()).toBe('done');
    expect(await run()).toBe('done');
    expect(calls).toBe(2);
    expect(features.actors.pairs.config.id).toBe(FEATURE_MACHINES.pairs.config.id);
  });
});
