/**
 * What the SPA keeps in the browser (spec section 3): the session under "auth", the language
 * under "language" and the theme under "theme", as JSON. Reading is defensive: storage that is
 * unavailable (private mode, quota) or holds garbage gives null, never an exception, and a
 * stored session is checked field by field so one bad field does not cost the others.
 */
import * as v from 'valibot';
import { BalanceTypeSchema, LanguageSchema, ThemeSchema, UserSchema, type Language, type ThemeSetting } from '../../contract/user';
import type { PersistedSession } from '../../machines/types';

export const STORAGE_KEYS = { session: 'auth', language: 'language', theme: 'theme' } as const;

/** The part of the Web Storage API this module uses. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const MAX_TOKEN = 4096;
const TokenSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_TOKEN));
const ShortTextSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const SessionTypeSchema = v.picklist(['user', 'admin']);

function pick<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> | null {
  const parsed = v.safeParse(schema, value);
  return parsed.success ? parsed.output : null;
}

/** A stored session, rebuilt from whatever fields are valid; null when nothing useful is left. */
export function parseStoredSession(raw: unknown): PersistedSession | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const read = (key: string): unknown => Reflect.get(raw, key);
  const token = pick(TokenSchema, read('token'));
  const session: PersistedSession = {
    token,
    refreshToken: pick(TokenSchema, read('refreshToken')),
    user: pick(UserSchema, read('user')),
    isAuthenticated: token !== null,
    balanceType: pick(BalanceTypeSchema, read('balanceType')),
    currentPair: pick(ShortTextSchema, read('currentPair')),
    currentTimeframe: pick(ShortTextSchema, read('currentTimeframe')),
    sessionType: pick(SessionTypeSchema, read('sessionType')),
  };
  return session.token === null && session.sessionType === null ? null : session;
}

export interface BrowserStorage {
  loadSession(): PersistedSession | null;
  /** Writes the session; a session with neither token nor session type removes the key. */
  saveSession(session: PersistedSession): void;
  loadLanguage(): Language | null;
  saveLanguage(language: Language): void;
  loadTheme(): ThemeSetting | null;
  saveTheme(theme: ThemeSetting): void;
}

export function createStorage(store: KeyValueStore | null): BrowserStorage {
  const read = (key: string): unknown => {
    let text: string | null;
    try {
      text = store?.getItem(key) ?? null;
    } catch {
      return null;
    }
    if (text === null) return null;
    try {
      return JSON.parse(text);
    } catch {
      // Older builds stored bare strings ("en", "dark").
      return text;
    }
  };
  const write = (key: string, value: unknown) => {
    try {
      store?.setItem(key, JSON.stringify(value));
    } catch {
      // Full or forbidden storage: the app keeps working without persistence.
    }
  };
  const remove = (key: string) => {
    try {
      store?.removeItem(key);
    } catch {
      // as above
    }
  };

  return {
    loadSession: () => parseStoredSession(read(STORAGE_KEYS.session)),
    saveSession(session) {
      if (session.token === null && session.sessionType === null) remove(STORAGE_KEYS.session);
      else write(STORAGE_KEYS.session, session);
    },
    loadLanguage: () => pick(LanguageSchema, read(STORAGE_KEYS.language)),
    // Spec section 3: the language is stored under `language` and in the stored `user` (its
    // front settings), so a reload before the server answers shows the chosen language.
    saveLanguage(language) {
      write(STORAGE_KEYS.language, language);
      const stored = parseStoredSession(read(STORAGE_KEYS.session));
      if (stored?.user) {
        const user = { ...stored.user, front_settings: { ...stored.user.front_settings, language } };
        write(STORAGE_KEYS.session, { ...stored, user });
      }
    },
    loadTheme: () => pick(ThemeSchema, read(STORAGE_KEYS.theme)),
    saveTheme: (theme) => write(STORAGE_KEYS.theme, theme),
  };
}

/** window.localStorage when it can be reached (it throws in some privacy modes). */
export function browserLocalStorage(): KeyValueStore | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}
