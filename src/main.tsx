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
