/**
 * The registration tracking fields (spec section 3, Registration payload) read from the
 * page's query string and the browser: utm_*, partner and affiliate ids, sub1..sub5, click
 * and external ids, plus referrer, landing_url and user_agent. The first landing address of
 * the visit is remembered in sessionStorage so a visitor who browses before registering is
 * still attributed to where they came in.
 */
import { TRACKING_FIELDS } from '../../../contract/auth';

const LANDING_KEY = 'landing';
const QUERY_FIELDS = TRACKING_FIELDS.filter((f) => !['referrer', 'landing_url', 'user_agent'].includes(f));

function firstLanding(win: Window): { url: string; referrer: string } {
  try {
    const stored = win.sessionStorage.getItem(LANDING_KEY);
    if (stored) return JSON.parse(stored) as { url: string; referrer: string };
    const value = { url: win.location.href, referrer: win.document.referrer };
    win.sessionStorage.setItem(LANDING_KEY, JSON.stringify(value));
    return value;
  } catch {
    return { url: win.location.href, referrer: win.document.referrer };
  }
}

/** Remember the landing address as early as possible (src/main.tsx, before anything renders). */
export function rememberLanding(win: Window = window): void {
  firstLanding(win);
}

export function collectTracking(win: Window = window): Record<string, string> {
  const landing = firstLanding(win);
  const out: Record<string, string> = {};
  const sources = [new URL(landing.url).searchParams, new URLSearchParams(win.location.search)];
  for (const field of QUERY_FIELDS) {
    for (const params of sources) {
      const value = params.get(field);
      if (value) out[field] = value.slice(0, 255);
    }
  }
  if (landing.referrer) out.referrer = landing.referrer.slice(0, 1024);
  out.landing_url = landing.url.slice(0, 1024);
  out.user_agent = win.navigator.userAgent.slice(0, 512);
  return out;
}
