/**
 * The app machine's features for tests that run the whole root actor (machine and component
 * tests): every feature child's real machine (machines/app/feature-machines.ts) and a
 * `loadFeatures` that is done at once, in the same step as the login that starts it (a
 * machine whose first state is final), so a test can use the trading, money and profile
 * actors right after logging in, as it could before the features were loaded on demand.
 *
 *   appMachine.provide({ actors: { ...withFeatures, pairs: ..., orders: ... } })
 */
import { createMachine } from 'xstate';
import type { appMachine } from '../../machines/app/app.machine';
import { FEATURE_MACHINES } from '../../machines/app/feature-machines';

const alreadyLoaded = createMachine({ id: 'featuresAlreadyLoaded', initial: 'loaded', states: { loaded: { type: 'final' } } });

type AppActors = NonNullable<Parameters<typeof appMachine.provide>[0]['actors']>;

export const withFeatures = {
  ...FEATURE_MACHINES,
  // A done-at-once machine in the place of the promise: the type differs, the done event is the same.
  loadFeatures: alreadyLoaded as unknown as AppActors['loadFeatures'],
};
