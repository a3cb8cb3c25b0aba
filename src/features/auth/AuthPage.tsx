/**
 * /auth and /register: log in or create an account, as two tabs. /auth?mode=register and
 * /register open the registration tab.
 */
import { useLocation, useSearch } from 'wouter';
import { Tabs } from '../../components';
import { useT } from '../../i18n';
import { AuthLayout } from './AuthLayout';
import { LoginForm } from './LoginForm';
import { RegisterWizard } from './RegisterWizard';

type Mode = 'login' | 'register';

export function AuthPage({ initialMode }: { initialMode?: Mode }) {
  const t = useT();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const mode: Mode = initialMode ?? (new URLSearchParams(search).get('mode') === 'register' ? 'register' : 'login');
  const setMode = (next: string) => {
    if (next === mode) return;
    if (location === '/register') navigate(next === 'register' ? '/register' : '/auth', { replace: true });
    else navigate(next === 'register' ? '/auth?mode=register' : '/auth', { replace: true });
  };
  return (
    <AuthLayout title={mode === 'register' ? t('auth.register_title') : t('auth.login_title')}>
      <Tabs
        label={t('auth.tabs_label')}
        value={mode}
        onValueChange={setMode}
        fill
        items={[
          { value: 'login', label: t('auth.log_in'), content: mode === 'login' ? <LoginForm /> : null },
          { value: 'register', label: t('auth.create_account'), content: mode === 'register' ? <RegisterWizard /> : null },
        ]}
      />
    </AuthLayout>
  );
}
