/**
 * The composition root with the features loaded on demand (src/app/create-app-actor.ts), in
 * jsdom: before a session opens no feature actor exists; once it opens the feature chunk is
 * imported, the children are spawned from the late-bound logic, and traderPrefs hears that the
 * tab is hidden (it did not exist when the page told the app at start).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { createAppActor, type AppRuntime } from '../../src/app/create-app-actor';
import { createStorage } from '../../src/services/storage';
import { makeUser } from '../machines/fixtures';

let runtime: AppRuntime | null = null;
afterEach(() => runtime?.actor.stop());

describe('createAppActor with the features on demand', () => {
  it('spawns the features after a session opens, and tells traderPrefs the tab is hidden', async () => {
    const data = new Map<string, string>();
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    try {
      // An unreachable server: the session opens from the registration result, the socket stays down.
      runtime = await createAppActor({
        window,
        baseURL: 'http://127.0.0.1:9',
        socketUrl: 'http://127.0.0.1:9',
        storage: createStorage({ getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) }),
      });
      const { actor } = runtime;
      expect(actor.system.get('traderPrefs')).toBeUndefined();
      expect(actor.system.get('socket')).toBeUndefined();
      actor.system.get('session').send({ type: 'session.registered', token: 'tok', refreshToken: null, user: makeUser() });
      await waitFor(actor, (s) => s.matches({ features: 'ready' }), { timeout: 10_000 });
      expect(actor.getSnapshot().children.pairs).toBe(actor.system.get('pairs'));
      expect(actor.system.get('traderPrefs').getSnapshot().context.hidden).toBe(true);
    } finally {
      Reflect.deleteProperty(document, 'visibilityState');
    }
  });
});
