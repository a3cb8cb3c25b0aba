/**
 * Builds and starts the root actor of the SPA: appMachine provided with the real
 * implementations (src/services/actors.ts), its input read from the browser (stored session,
 * language and theme, the admin token of the address, the system colour preference), the HTTP
 * client wired to the session (bearer token and refresh token from the session actor's
 * snapshot; refreshed tokens and unrecoverable 401s sent back to it), and the system colour
 * preference wired to the theme actor. In development, `?inspect` in the address opens the
 * Stately inspector on every actor.
 *
 * The logged-in features (socket, trading, money, profile, trader tools) are not in the first
 * page's code: their logic is provided as late-bound stand-ins (late-logic.ts) and the app
 * machine's `loadFeatures` actor imports their chunk (src/services/feature-actors.ts) when a
 * session opens. With a stored session the chunk starts loading at once, beside the session
 * check.
 *
 *   const { actor, services } = await createAppActor();
 *   actor.system.get('session')  // or actor.getSnapshot().children.session
 *   services.http / services.api  // for feature actors that call the API
 */
import { createActor, type InspectionEvent, type Observer } from 'xstate';
import { appMachine, type AppInput } from '../../machines/app/app.machine';
import { createApi } from '../services/api';
import { createHttpClient } from '../services/http';
import { browserLocalStorage, createStorage, type BrowserStorage } from '../services/storage';
import { ADMIN_TOKEN_PARAM, createImplementations, type ServiceDeps } from '../services/actors';
import { lateFeatures } from './late-logic';

import type { AppRuntime } from '../shared/runtime';
import { APP_CONFIG } from '../shared/app-config';

export type { AppActor, AppRuntime, AppServices } from '../shared/runtime';

/** Paths whose `token` parameter belongs to another flow (reset link, email verification). */
const NON_ADMIN_TOKEN_PATHS = ['/reset-password', '/reset-password-code', '/verify-email'];

/** The one-time admin token of the operator's link, if the address carries one. */
export function readAdminToken(location: Pick<Location, 'pathname' | 'search'>): string | null {
  if (NON_ADMIN_TOKEN_PATHS.includes(location.pathname.replace(/\/$/, ''))) return null;
  const token = new URLSearchParams(location.search).get(ADMIN_TOKEN_PARAM);
  return token && token.trim() !== '' ? token.trim() : null;
}

export interface AppEnvironment {
  /** The browser window (null in tests that run without one). */
  window: Window | null;
  /** API base address; '' (same origin) in the SPA. */
  baseURL: string;
  /** Socket server address; same origin when omitted. */
  socketUrl?: string;
  storage: BrowserStorage;
  /** Observer for XState inspection events (the Stately inspector in dev). */
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
}


function defaultEnvironment(): AppEnvironment {
  const win = typeof window !== 'undefined' ? window : null;
  return { window: win, baseURL: APP_CONFIG.apiUrl, socketUrl: APP_CONFIG.socketUrl || undefined, storage: createStorage(browserLocalStorage()) };
}

function prefersDark(win: Window | null): boolean {
  if (!win || typeof win.matchMedia !== 'function') return true;
  return win.matchMedia('(prefers-color-scheme: dark)').matches;
}

async function devInspector(win: Window | null): Promise<AppEnvironment['inspect']> {
  if (!import.meta.env?.DEV || !win || !new URLSearchParams(win.location.search).has('inspect')) return undefined;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  return createBrowserInspector().inspect;
}

/** Creates, wires and starts the root actor. */
export async function createAppActor(overrides: Partial<AppEnvironment> = {}): Promise<AppRuntime> {
  const env: AppEnvironment = { ...defaultEnvironment(), ...overrides };
  const win = env.window;
  const http = createHttpClient({ baseURL: env.baseURL });
  const api = createApi(http);
  const inspect = env.inspect ?? (await devInspector(win));

  const input: AppInput = {
    persistedSession: env.storage.loadSession(),
    adminToken: win ? readAdminToken(win.location) : null,
    storedLanguage: env.storage.loadLanguage(),
    storedTheme: env.storage.loadTheme(),
    systemPrefersDark: prefersDark(win),
  };
  const deps: ServiceDeps = { api, http, storage: env.storage, window: win, socketUrl: env.socketUrl };
  // The feature logic and the features' English texts, added before any feature view renders.
  const features = lateFeatures(() =>
    Promise.all([import('../services/feature-actors'), import('../i18n/en-features')]).then(([actors, texts]) => {
      texts.addFeatureEnglish();
      return actors.featureImplementations(deps);
    }),
  );
  if (input.persistedSession) features.prefetch();
  const logic = appMachine.provide({
    actors: { ...createImplementations(deps), ...features.actors, loadFeatures: features.loader },
  });
  const actor = createActor(logic, { input, inspect });

  const session = () => actor.system.get('session');
  http.setAuth({
    getToken: () => session()?.getSnapshot().context.token ?? null,
    getRefreshToken: () => session()?.getSnapshot().context.refreshToken ?? null,
    refresh: (refreshToken) => api.refresh(refreshToken),
    onTokensRefreshed: (tokens) => session()?.send({ type: 'session.tokensRefreshed', token: tokens.token, refreshToken: tokens.refreshToken }),
    onUnauthorized: () => session()?.send({ type: 'session.unauthorized' }),
  });

  if (win && typeof win.matchMedia === 'function') {
    win.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', (event) => {
      actor.system.get('theme')?.send({ type: 'theme.systemChanged', dark: event.matches });
    });
  }

  // Trade sounds stay silent while the tab is hidden (issue 16).
  if (win) {
    const visibility = () => actor.system.get('traderPrefs')?.send({ type: 'traderPrefs.visibilityChanged', hidden: win.document.visibilityState === 'hidden' });
    win.document.addEventListener('visibilitychange', visibility);
    // traderPrefs exists once the features are loaded: it hears the tab's state then.
    const untilReady = actor.subscribe((snapshot) => {
      if (!snapshot.matches({ features: 'ready' })) return;
      untilReady.unsubscribe();
      visibility();
    });
  }

  actor.start();
  return { actor, services: { http, api, storage: env.storage } };
}
