/**
 * Actor logic bound late: the composition root provides the app machine's feature children
 * (machines/app/features.ts) before their chunk is loaded, as stand-ins that read every
 * property from the real logic once it is there. The app machine spawns those children only
 * in `features.ready`, after its `loadFeatures` actor is done, so by then the real logic is
 * always in; a stand-in used before that throws and names the child.
 *
 *   const features = lateFeatures(() => import('../services/feature-actors').then((m) => m.featureImplementations(deps)));
 *   appMachine.provide({ actors: { ...features.actors, loadFeatures: features.loader } });
 */
import { fromPromise } from 'xstate';
import { FEATURE_CHILDREN, type FeatureLogic } from '../../machines/app/features';

/** A stand-in for logic that `get` returns once loaded: a proxy whose every read goes to the real logic. */
export function lateBound<T extends object>(name: string, get: () => T | null): T {
  const real = (): T => {
    const logic = get();
    if (!logic) throw new Error(`app: the '${name}' logic was used before the feature chunk was loaded`);
    return logic;
  };
  // Methods run with the real logic as `this` (a machine reads its own fields in them).
  return new Proxy({} as T, {
    get: (_, key) => {
      const logic = real();
      const value: unknown = Reflect.get(logic, key);
      return typeof value === 'function' ? value.bind(logic) : value;
    },
    has: (_, key) => Reflect.has(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}

export interface LateFeatures {
  /** One stand-in per feature child, for appMachine.provide({ actors }). */
  actors: FeatureLogic;
  /** The app machine's `loadFeatures` actor: loads the chunk once (later calls share it). */
  loader: ReturnType<typeof fromPromise<void>>;
  /** Starts loading now (a stored session will most likely open: no need to wait for it). */
  prefetch(): void;
}

export function lateFeatures(load: () => Promise<FeatureLogic>): LateFeatures {
  let loaded: FeatureLogic | null = null;
  let loading: Promise<void> | null = null;
  const start = (): Promise<void> => {
    loading ??= load().then(
      (logic) => {
        loaded = logic;
      },
      (error: unknown) => {
        loading = null; // the next attempt loads again
        throw error;
      },
    );
    return loading;
  };
  const actors = Object.fromEntries(FEATURE_CHILDREN.map((id) => [id, lateBound(id, () => loaded?.[id] ?? null)])) as unknown as FeatureLogic;
  return {
    actors,
    loader: fromPromise<void>(() => start()),
    prefetch: () => {
      start().catch(() => undefined);
    },
  };
}
