/**
 * Entry: loads the styles, creates the root actor with the real implementations
 * (create-app-actor.ts) and renders the app. If the actor cannot be created the page says
 * "Error initializing app" instead of staying blank.
 */
import './styles/tokens.css';
import './styles/base.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { createAppActor } from './app/create-app-actor';
import { RuntimeProvider } from './shared/runtime';
import { App } from './app/App';
import { I18nProvider, useT } from './i18n';
import { rememberLanding } from './features/auth/tracking';
import { APP_CONFIG, configProblems } from './shared/app-config';

// The configuration check of spec section 9 (production builds only).
for (const problem of configProblems(APP_CONFIG, window.location.origin)) console.warn(`[config] ${problem}`);

// Registration tracking (spec section 3): the first page of the visit, home included, is the
// landing address; its UTM values are kept through navigation and sent with the registration.
rememberLanding();

const root = createRoot(document.getElementById('root')!);

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

createAppActor()
  .then((runtime) => {
    root.render(
      <StrictMode>
        <RuntimeProvider runtime={runtime}>
          <Router>
            <App />
          </Router>
        </RuntimeProvider>
      </StrictMode>,
    );
  })
  .catch((err: unknown) => {
    console.error(err);
    root.render(
      <I18nProvider language={navigator.language.slice(0, 2)}>
        <InitError />
      </I18nProvider>,
    );
  });
