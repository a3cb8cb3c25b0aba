/**
 * The real app actor (createAppActor: no browser window, an in-memory storage) against a real
 * server, for the live machine tests. `useLiveApp()` starts the server before the file's
 * tests; after them it stops every app it made, lets their sockets close, then stops the
 * server. `memoryStore()` is the in-memory storage (also for the storage unit tests).
 * `featuresReady()`: the feature children (socket, trading, money, profile) exist only once
 * their code is loaded, after the first login.
 */
import { afterAll } from 'vitest';
import { waitFor, type AnyActorRef } from 'xstate';
import { createAppActor, type AppRuntime } from '../../src/app/create-app-actor';
import { createStorage, type KeyValueStore } from '../../src/services/storage';
import { useTestServer } from './server-fixture';
import type { TestServer } from './server';

export function memoryStore(initial: Record<string, string> = {}): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

export interface LiveApp extends AppRuntime {
  /** A child actor by systemId (throws when it does not exist). */
  child(id: string): AnyActorRef;
  /** Waits until the logged-in features (socket, trading, money, profile) are loaded and spawned. */
  featuresReady(): Promise<void>;
}

/** Waits until the app's features are loaded (their chunk is imported after the first login). */
export async function featuresReady(runtime: AppRuntime, timeout = 10_000): Promise<void> {
  await waitFor(runtime.actor, (s) => s.matches({ features: 'ready' }), { timeout });
}

export function useLiveApp(env: Record<string, string> = { RATE_LIMIT: 'false' }): { server: TestServer; app(store?: KeyValueStore): Promise<LiveApp> } {
  const server = useTestServer(env, {}, { auditLedger: false });
  const runtimes: AppRuntime[] = [];
  // Registered after the server's own afterAll, so it runs before it (hooks unwind as a stack).
  afterAll(async () => {
    for (const r of runtimes) r.actor.stop();
    // Let the closed sockets reach the server before it shuts down, so no half-closed
    // websocket keeps the shutdown waiting.
    const deadline = Date.now() + 5000;
    while ((server.ctx.io?.sockets.sockets.size ?? 0) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }, 30_000);

  async function app(store: KeyValueStore = memoryStore()): Promise<LiveApp> {
    const runtime = await createAppActor({ window: null, baseURL: server.baseUrl, socketUrl: server.baseUrl, storage: createStorage(store) });
    runtimes.push(runtime);
    const child = (id: string): AnyActorRef => {
      const ref = runtime.actor.system.get(id);
      if (!ref) throw new Error(`no actor ${id}`);
      return ref;
    };
    return { ...runtime, child, featuresReady: () => featuresReady(runtime) };
  }
  return { server, app };
}
