/**
 * The browser-facing services the machines are provided with: storage that survives garbage
 * and unavailable storage, the stored session rebuilt field by field, the admin token removed
 * from the address, the theme and language applied to the document.
 */
import { describe, expect, it, vi } from 'vitest';
import { createStorage, parseStoredSession, STORAGE_KEYS, type KeyValueStore } from '../../src/services/storage';
import { createActor, toPromise } from 'xstate';
import { applyLanguageToDocument, applyThemeToDocument, clearAddressToken, sessionImplementations } from '../../src/services/actors';
import type { Api } from '../../src/services/api';
import { makeUser } from './fixtures';
import { memoryStore } from '../support/live-app';

const throwing: KeyValueStore = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => {
    throw new Error('SecurityError');
  },
};

describe('browser storage', () => {
  it('round-trips the session, language and theme as JSON under auth, language and theme', () => {
    const store = memoryStore();
    const storage = createStorage(store);
    const session = {
      token: 't',
      refreshToken: 'r',
      user: makeUser(),
      isAuthenticated: true,
      balanceType: 'RealBalance' as const,
      currentPair: 'EURUSD',
      currentTimeframe: '1m',
      sessionType: 'admin' as const,
    };
    storage.saveSession(session);
    storage.saveLanguage('ru');
    storage.saveTheme('auto');
    expect([...store.data.keys()].sort()).toEqual([STORAGE_KEYS.session, STORAGE_KEYS.language, STORAGE_KEYS.theme].sort());
    expect(store.data.get('language')).toBe('"ru"');
    // The language is kept under `language` and in the stored user (spec section 3).
    expect(storage.loadSession()).toEqual({ ...session, user: { ...session.user, front_settings: { ...session.user.front_settings, language: 'ru' } } });
    expect(storage.loadLanguage()).toBe('ru');
    expect(storage.loadTheme()).toBe('auto');
  });

  it('removes the session key when nothing is left to keep', () => {
    const store = memoryStore();
    const storage = createStorage(store);
    storage.saveSession({ token: 't', refreshToken: null, user: null, isAuthenticated: true, balanceType: null, currentPair: null, currentTimeframe: null, sessionType: 'user' });
    storage.saveSession({ token: null, refreshToken: null, user: null, isAuthenticated: false, balanceType: null, currentPair: null, currentTimeframe: null, sessionType: null });
    expect(store.data.has('auth')).toBe(false);
  });

  it('gives null for garbage and accepts bare strings from older builds', () => {
    const storage = createStorage(memoryStore({ auth: '{not json', language: 'es', theme: '"purple"' }));
    expect(storage.loadSession()).toBeNull();
    expect(storage.loadLanguage()).toBe('es');
    expect(storage.loadTheme()).toBeNull();
    expect(createStorage(memoryStore({ auth: '[1,2]', language: '42' })).loadSession()).toBeNull();
    expect(createStorage(memoryStore({ language: '42' })).loadLanguage()).toBeNull();
  });

  it('keeps the valid fields of a damaged session', () => {
    const parsed = parseStoredSession({ token: 'tok', refreshToken: 42, user: { username: 'half' }, balanceType: 'Gold', currentPair: 'EURUSD', sessionType: 'root' });
    expect(parsed).toEqual({
      token: 'tok',
      refreshToken: null,
      user: null,
      isAuthenticated: true,
      balanceType: null,
      currentPair: 'EURUSD',
      currentTimeframe: null,
      sessionType: null,
    });
    expect(parseStoredSession({ token: '', sessionType: null })).toBeNull();
    expect(parseStoredSession({ token: 'x'.repeat(5000) })).toBeNull();
  });

  it('works without storage and when storage throws', () => {
    for (const storage of [createStorage(null), createStorage(throwing)]) {
      expect(storage.loadSession()).toBeNull();
      expect(storage.loadLanguage()).toBeNull();
      expect(() => storage.saveTheme('dark')).not.toThrow();
      expect(() => storage.saveSession({ token: null, refreshToken: null, user: null, isAuthenticated: false, balanceType: null, currentPair: null, currentTimeframe: null, sessionType: null })).not.toThrow();
    }
  });
});

function fakeWindow(href: string) {
  const replaceState = vi.fn();
  const root = { lang: '', style: { colorScheme: '' }, attributes: {} as Record<string, string>, setAttribute(name: string, value: string) { this.attributes[name] = value; } };
  const win = { location: { href }, history: { state: { k: 1 }, replaceState }, document: { documentElement: root } };
  return { win: win as unknown as Window, replaceState, root };
}

describe('document and address effects', () => {
  it('removes the admin token from the address and keeps the rest', () => {
    const { win, replaceState } = fakeWindow('https://app.example/trading?token=abc&tab=1#orders');
    clearAddressToken(win);
    expect(replaceState).toHaveBeenCalledWith({ k: 1 }, '', '/trading?tab=1#orders');
    const clean = fakeWindow('https://app.example/trading');
    clearAddressToken(clean.win);
    expect(clean.replaceState).not.toHaveBeenCalled();
  });

  it('sets data-theme and the language on the document', () => {
    const { win, root } = fakeWindow('https://app.example/');
    applyThemeToDocument(win, 'light');
    applyLanguageToDocument(win, 'es');
    expect(root.attributes['data-theme']).toBe('light');
    expect(root.style.colorScheme).toBe('light');
    expect(root.lang).toBe('es');
    expect(() => applyThemeToDocument(null, 'dark')).not.toThrow();
  });
});

describe('the logout actor', () => {
  const stored = { token: 't', refreshToken: 'r-1', user: null, isAuthenticated: true, balanceType: null, currentPair: null, currentTimeframe: null, sessionType: 'user' as const };

  async function runLogout(sessionType: 'user' | 'admin', persisted: boolean) {
    const api = { logout: vi.fn(async () => {}), adminLogout: vi.fn(async () => {}) };
    const storage = createStorage(memoryStore());
    if (persisted) storage.saveSession({ ...stored, sessionType });
    const { actors } = sessionImplementations({ api: api as unknown as Api, storage, window: null });
    await toPromise(createActor(actors.logout, { input: { sessionType } }).start());
    return api;
  }

  it('calls the user logout with the refresh token when a session is persisted', async () => {
    const api = await runLogout('user', true);
    expect(api.logout).toHaveBeenCalledWith('r-1');
    expect(api.adminLogout).not.toHaveBeenCalled();
  });

  it('calls the admin logout for an admin session', async () => {
    const api = await runLogout('admin', true);
    expect(api.adminLogout).toHaveBeenCalledTimes(1);
    expect(api.logout).not.toHaveBeenCalled();
  });

  it('calls no server when nothing is persisted', async () => {
    const api = await runLogout('user', false);
    expect(api.logout).not.toHaveBeenCalled();
    expect(api.adminLogout).not.toHaveBeenCalled();
  });
});

describe('the admin-link actor', () => {
  const user = makeUser();
  const adminSession = { token: 'tok-admin', refreshToken: 'ref-admin', user };

  async function openAdminLink(storedType: 'user' | 'admin' | null, exchange: () => Promise<typeof adminSession>) {
    const calls: string[] = [];
    const api = {
      exchangeAdminToken: vi.fn(async (token: string) => {
        calls.push(`exchange ${token}`);
        return exchange();
      }),
      logout: vi.fn(async (refreshToken: string | null) => {
        calls.push(`logout ${refreshToken}`);
        throw new Error('offline');
      }),
    };
    const storage = createStorage(memoryStore());
    if (storedType) storage.saveSession({ token: 'tok-old', refreshToken: 'ref-old', user, isAuthenticated: true, balanceType: null, currentPair: null, currentTimeframe: null, sessionType: storedType });
    const { actors } = sessionImplementations({ api: api as unknown as Api, storage, window: null });
    const result = await toPromise(createActor(actors.exchangeAdminToken, { input: { adminToken: 'adm-1' } }).start()).then(
      (session) => ({ session, error: null }),
      (error: unknown) => ({ session: null, error }),
    );
    return { calls, result };
  }

  it('ends the stored user session on the server once the admin session is open, even if that call fails', async () => {
    const { calls, result } = await openAdminLink('user', async () => adminSession);
    expect(calls).toEqual(['exchange adm-1', 'logout ref-old']);
    expect(result.session).toEqual(adminSession);
  });

  it('keeps the stored session when the admin link is refused, and touches nothing when none is stored', async () => {
    const refused = await openAdminLink('user', async () => Promise.reject(new Error('Invalid or expired admin link')));
    expect(refused.calls).toEqual(['exchange adm-1']);
    expect(refused.result.error).toBeInstanceOf(Error);
    const fresh = await openAdminLink(null, async () => adminSession);
    expect(fresh.calls).toEqual(['exchange adm-1']);
    const overAdmin = await openAdminLink('admin', async () => adminSession);
    expect(overAdmin.calls).toEqual(['exchange adm-1']);
  });
});
