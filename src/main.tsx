/**
 * Entry: loads the styles, creates the root actor with the real implementations
 * (create-app-actor.ts) and renders the app (AppRoot). If the actor cannot be created the page
 * says "Error initializing app" instead of staying blank.
 *
 * /auth is served prerendered (dist/auth.html, scripts/vite-prerender.ts): the form is painted
 * before any script runs. The boot script in <head> (same plugin) marks the page
 * `data-prerender="off"` when the prerender is not what the app will show (a stored session,
 * which redirects to /trading, or a stored language other than English); the markup is then
 * dropped and the app mounts as on any other route. Otherwise the app hydrates the markup once
 * the auth page's code is there (the same elements: no spinner in between, what the visitor
 * typed stays).
 *
 * /admin and /admin/* are the operator console (src/console/main.tsx): loaded as a chunk of its
 * own, and the trader app is not created there at all (no trader session, socket or balances).
 */
import './styles/tokens.css';
import './styles/base.css';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createAppActor } from './app/create-app-actor';
import { AppRoot } from './app/AppRoot';
import { AuthPage } from './app/routes';
import { I18nProvider, useT } from './i18n';
import { rememberLanding } from './features/auth/tracking';
import { APP_CONFIG, configProblems } from './shared/app-config';

const container = document.getElementById('root')!;

/** The operator console lives under /admin (its own chunk, its own root actor). */
function isConsolePath(pathname: string): boolean {
  return pathname === '/admin' || pathname.startsWith('/admin/');
}

if (isConsolePath(window.location.pathname)) {
  import('./console/main')
    .then(({ startConsole }) => startConsole(container))
    .catch((err: unknown) => {
      console.error(err);
      createRoot(container).render(
        <I18nProvider language={navigator.language.slice(0, 2)}>
          <InitError />
        </I18nProvider>,
      );
    });
} else {
  startTraderApp();
}

function startTraderApp() {
  // The configuration check of spec section 9 (production builds only).
  for (const problem of configProblems(APP_CONFIG, window.location.origin)) console.warn(`[config] ${problem}`);

  // Registration tracking (spec section 3): the first page of the visit, home included, is the
  // landing address; its UTM values are kept through navigation and sent with the registration.
  rememberLanding();

  const prerendered = container.hasAttribute('data-prerendered');
  const hydrate = prerendered && document.documentElement.getAttribute('data-prerender') !== 'off';
  if (prerendered && !hydrate) {
    container.replaceChildren();
    container.removeAttribute('data-prerendered');
  }

  Promise.all([createAppActor(), hydrate ? AuthPage.preload() : null])
    .then(([runtime]) => {
      if (hydrate) hydrateRoot(container, <AppRoot runtime={runtime} />);
      else createRoot(container).render(<AppRoot runtime={runtime} />);
    })
    .catch((err: unknown) => {
      console.error(err);
      container.replaceChildren();
      createRoot(container).render(
        <I18nProvider language={navigator.language.slice(0, 2)}>
          <InitError />
        </I18nProvider>,
      );
    });
}

function InitError() {
  const t = useT();
  return (
    <main className="container stack" style={{ paddingTop: '20vh', textAlign: 'center' }}>
      <h1>{t('common.error_initializing_app')}</h1>
      <p>
        <a href="/">{t('common.retry')}</a>
      </p>
    </main>
  );
}

