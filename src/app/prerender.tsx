/**
 * Build-time prerender of /auth (scripts/vite-prerender.ts loads this module in Node through
 * Vite and writes the result into dist/auth.html): the real app, with the real root actor (no
 * window, nothing stored: a logged-out visitor reading English), rendered to HTML at /auth.
 * The browser paints that form before any script has run; the entry (src/main.tsx) then
 * hydrates the same tree (AppRoot) over it. Never part of the browser bundle.
 */
import { renderToString } from 'react-dom/server';
import { createStorage } from '../services/storage';
import { createAppActor } from './create-app-actor';
import { AppRoot } from './AppRoot';
import { AuthPage } from './routes';

export async function renderAuthPage(): Promise<string> {
  const runtime = await createAppActor({ window: null, baseURL: '', storage: createStorage(null) });
  try {
    await AuthPage.preload();
    return renderToString(<AppRoot runtime={runtime} ssrPath="/auth" ssrSearch="" />);
  } finally {
    runtime.actor.stop();
  }
}
