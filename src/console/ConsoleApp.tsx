/**
 * The console's tree: the runtime and the language around the session gate. While the
 * session is checked a spinner; signed out (or signing in) the login; signed in the shell.
 */
import { useSelector } from '@xstate/react';
import { Suspense } from 'react';
import { PageSpinner } from '../components';
import { I18nProvider } from '../i18n';
import { ConsoleShell } from './ConsoleShell';
import { LoginScreen } from './LoginScreen';
import { RuntimeContext, useSession } from './runtime';
import type { ConsoleRuntime } from './services/console-actors';
import './Console.css';

function Gate() {
  const session = useSession();
  const state = useSelector(session, (s) => (s.matches('checking') ? 'checking' : s.matches('signedIn') || s.matches('signingOut') ? 'in' : 'out'));
  if (state === 'checking') return <PageSpinner />;
  return state === 'in' ? <ConsoleShell /> : <LoginScreen />;
}

export function ConsoleApp({ runtime }: { runtime: ConsoleRuntime }) {
  const language = useSelector(runtime.root, (s) => s.context.language);
  return (
    <RuntimeContext value={runtime}>
      <I18nProvider language={language}>
        <Suspense fallback={<PageSpinner />}>
          <Gate />
        </Suspense>
      </I18nProvider>
    </RuntimeContext>
  );
}
