/**
 * The React side of the root actor: a context carrying the running app actor and its services,
 * and the hooks views use to read the narrowest slice of it. Views never call the network;
 * they send events to these actors and select from their snapshots.
 */
import { createContext, useContext, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { Actor } from 'xstate';
import type { appMachine } from '../../machines/app/app.machine';
import type { Api } from '../services/api';
import type { HttpClient } from '../services/http';
import type { BrowserStorage } from '../services/storage';

export type AppActor = Actor<typeof appMachine>;

export interface AppServices {
  http: HttpClient;
  api: Api;
  storage: BrowserStorage;
}

/** The running root actor and its services (built by src/app/create-app-actor.ts). */
export interface AppRuntime {
  actor: AppActor;
  services: AppServices;
}

const RuntimeContext = createContext<AppRuntime | null>(null);

export function RuntimeProvider({ runtime, children }: { runtime: AppRuntime; children: ReactNode }) {
  return <RuntimeContext.Provider value={runtime}>{children}</RuntimeContext.Provider>;
}

export function useRuntime(): AppRuntime {
  const runtime = useContext(RuntimeContext);
  if (!runtime) throw new Error('useRuntime outside <RuntimeProvider>');
  return runtime;
}

export function useAppActor() {
  return useRuntime().actor;
}

type AppSnapshot = ReturnType<AppRuntime['actor']['getSnapshot']>;
type Children = AppSnapshot['children'];

/** A child actor of the root by id (the long-lived ones always exist; flows only while active). */
export function useChild<K extends keyof Children>(id: K): Children[K] {
  const actor = useAppActor();
  return useSelector(actor, (s) => s.children[id]);
}

/** The long-lived children, which exist for the whole life of the app. */
export function useSessionActor() {
  const ref = useChild('session');
  if (!ref) throw new Error('session actor missing');
  return ref;
}
export function useBalanceActor() {
  const ref = useChild('balance');
  if (!ref) throw new Error('balance actor missing');
  return ref;
}
export function useThemeActor() {
  const ref = useChild('theme');
  if (!ref) throw new Error('theme actor missing');
  return ref;
}
export function useLocaleActor() {
  const ref = useChild('locale');
  if (!ref) throw new Error('locale actor missing');
  return ref;
}
export function useModalsActor() {
  const ref = useChild('modals');
  if (!ref) throw new Error('modals actor missing');
  return ref;
}
export function useToastsActor() {
  const ref = useChild('toasts');
  if (!ref) throw new Error('toasts actor missing');
  return ref;
}
export function useSocketActor() {
  const ref = useChild('socket');
  if (!ref) throw new Error('socket actor missing');
  return ref;
}
