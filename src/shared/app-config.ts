/**
 * The application configuration (spec section 9) in one typed module: name, version,
 * environment, debug, analytics and notifications flags, where the API and the socket live,
 * and the values the spec lists as configured but unused (an assets path, a chat bot, a social
 * page and a support mail address). Values come from the build's environment (VITE_*), with
 * the spec's defaults.
 *
 * `configProblems` is the start-up check: in a production build it flags a missing or
 * localhost-based API or socket address (src/main.tsx logs each problem). The SPA talks to its
 * own origin unless VITE_API_URL / VITE_SOCKET_URL say otherwise, so the page's origin is the
 * address checked by default.
 */
export type AppEnvironmentName = 'development' | 'production' | 'test';

export interface AppConfig {
  name: string;
  version: string;
  environment: AppEnvironmentName;
  debug: boolean;
  analytics: boolean;
  notifications: boolean;
  /** The REST API's base address ('' = the page's own origin). */
  apiUrl: string;
  /** The socket server's address ('' = the page's own origin). */
  socketUrl: string;
  /** Configured but unused (spec section 9). */
  assetsPath: string;
  links: { chatBot: string; social: string; supportEmail: string };
}

/** The build variables this module reads (import.meta.env in the SPA; a plain object in tests). */
export type ConfigSource = Partial<Record<string, string | boolean | undefined>>;

const flag = (value: string | boolean | undefined, fallback: boolean): boolean =>
  typeof value === 'boolean' ? value : value === undefined || value === '' ? fallback : value === 'true' || value === '1';
const text = (value: string | boolean | undefined, fallback: string): string => (typeof value === 'string' && value !== '' ? value : fallback);

export function readAppConfig(env: ConfigSource): AppConfig {
  const mode = text(env.MODE, 'development');
  const environment: AppEnvironmentName = env.PROD === true || mode === 'production' ? 'production' : mode === 'test' ? 'test' : 'development';
  return {
    name: text(env.VITE_APP_NAME, 'TradeTerminal'),
    version: text(env.VITE_APP_VERSION, '1.0.0'),
    environment,
    debug: flag(env.VITE_DEBUG, environment !== 'production'),
    analytics: flag(env.VITE_ANALYTICS, false),
    notifications: flag(env.VITE_NOTIFICATIONS, true),
    apiUrl: text(env.VITE_API_URL, ''),
    socketUrl: text(env.VITE_SOCKET_URL, ''),
    assetsPath: text(env.VITE_ASSETS_PATH, '/'),
    links: {
      chatBot: text(env.VITE_CHAT_BOT_URL, ''),
      social: text(env.VITE_SOCIAL_URL, ''),
      supportEmail: text(env.VITE_SUPPORT_EMAIL, 'support@tradeterminal.local'),
    },
  };
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1', '0.0.0.0']);

/** Why an address is unfit for production, or null. */
function addressProblem(label: string, address: string): string | null {
  if (address === '') return `${label} address is missing`;
  let host: string;
  try {
    host = new URL(address).hostname;
  } catch {
    return `${label} address is not a valid URL: ${address}`;
  }
  return LOCAL_HOSTS.has(host) || host.endsWith('.localhost') ? `${label} address points at localhost: ${address}` : null;
}

/**
 * The configuration check of spec section 9: in a production build, a missing or
 * localhost-based API or socket address is flagged. `origin` is the page's origin, used for an
 * address left empty (same origin).
 */
export function configProblems(config: AppConfig, origin: string | null): string[] {
  if (config.environment !== 'production') return [];
  const resolve = (address: string) => (address !== '' ? address : (origin ?? ''));
  return [addressProblem('API', resolve(config.apiUrl)), addressProblem('Socket', resolve(config.socketUrl))].filter((p): p is string => p !== null);
}

/** This build's configuration. */
export const APP_CONFIG: AppConfig = readAppConfig((import.meta.env ?? {}) as ConfigSource);
