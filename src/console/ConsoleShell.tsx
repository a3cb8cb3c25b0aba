/**
 * The console's frame once signed in: the header (title, the operator and role, language,
 * logout), the navigation (only what the role may use: the server still checks every call) and
 * the areas, each a lazy chunk of its own under /admin/<area>.
 */
import { useSelector } from '@xstate/react';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Link, Redirect, Route, Router, Switch, useLocation } from 'wouter';
import type { ConsolePermission } from '../../contract/console';
import { Button, PageSpinner } from '../components';
import { useT } from '../i18n';
import { LanguageSelect } from './parts/LanguageSelect';
import { useCan, useOperator, useSession } from './runtime';

const named = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): LazyExoticComponent<ComponentType> =>
  lazy(() => load().then((m) => ({ default: m[name] })));

const Dashboard = named(() => import('./areas/Dashboard'), 'Dashboard');
const Users = named(() => import('./areas/Users'), 'Users');
const UserPage = named(() => import('./areas/UserPage'), 'UserPage');
const Kyc = named(() => import('./areas/Kyc'), 'Kyc');
const Payments = named(() => import('./areas/Payments'), 'Payments');
const Approvals = named(() => import('./areas/Approvals'), 'Approvals');
const Books = named(() => import('./areas/Books'), 'Books');
const Risk = named(() => import('./areas/Risk'), 'Risk');
const Operators = named(() => import('./areas/Operators'), 'Operators');
const Audit = named(() => import('./areas/Audit'), 'Audit');
// The support center's inbox (src/console/support): it assigns tickets to the signed-in operator.
const SupportInboxScreen = lazy(() => import('./support/SupportInbox').then((m) => ({ default: m.SupportInbox })));
function SupportInbox() {
  const operator = useOperator();
  return <SupportInboxScreen operatorId={operator?.id ?? null} />;
}

interface Area {
  path: string;
  key: string;
  /** Who sees the entry: a permission, or the support desk (support and admin). */
  allowed: ConsolePermission | 'support';
  Screen: ComponentType;
}

export const AREAS: readonly Area[] = [
  { path: '/', key: 'dashboard', allowed: 'users.read', Screen: Dashboard },
  { path: '/users', key: 'users', allowed: 'users.read', Screen: Users },
  { path: '/kyc', key: 'kyc', allowed: 'kyc.read', Screen: Kyc },
  { path: '/payments', key: 'payments', allowed: 'payments.read', Screen: Payments },
  { path: '/approvals', key: 'approvals', allowed: 'approvals.read', Screen: Approvals },
  { path: '/books', key: 'books', allowed: 'books.read', Screen: Books },
  { path: '/risk', key: 'risk', allowed: 'risk.read', Screen: Risk },
  { path: '/support', key: 'support', allowed: 'support', Screen: SupportInbox },
  { path: '/operators', key: 'operators', allowed: 'operators.manage', Screen: Operators },
  { path: '/audit', key: 'audit', allowed: 'audit.read', Screen: Audit },
];

function useAllowed() {
  const can = useCan();
  const operator = useOperator();
  return (area: Area) => (area.allowed === 'support' ? operator?.role === 'support' || operator?.role === 'admin' : can(area.allowed));
}

function Nav() {
  const t = useT();
  const allowed = useAllowed();
  const [location] = useLocation();
  return (
    <nav className="console-nav" aria-label={t('console.nav.label')}>
      <ul>
        {AREAS.filter(allowed).map((area) => {
          const current = area.path === '/' ? location === '/' : location === area.path || location.startsWith(`${area.path}/`);
          return (
            <li key={area.key}>
              <Link href={area.path} className="console-nav-link" aria-current={current ? 'page' : undefined}>
                {t(`console.nav.${area.key}`)}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function Header() {
  const t = useT();
  const session = useSession();
  const operator = useOperator();
  const leaving = useSelector(session, (s) => s.matches('signingOut'));
  return (
    <header className="console-header">
      <a className="console-skip" href="#main">
        {t('console.skip')}
      </a>
      <Link href="/" className="console-brand">
        {t('console.title')}
      </Link>
      <div className="console-header-end">
        {operator ? (
          <span className="console-operator">{t('console.header.operator', { name: operator.username, role: t(`console.roles.${operator.role}`) })}</span>
        ) : null}
        <LanguageSelect />
        <Button size="sm" variant="ghost" loading={leaving} onClick={() => session.send({ type: 'operator.logoutRequested' })}>
          {t('console.header.logout')}
        </Button>
      </div>
    </header>
  );
}

export function ConsoleShell() {
  const allowed = useAllowed();
  const can = useCan();
  const visible = AREAS.filter(allowed);
  return (
    <Router base="/admin">
      <div className="console-shell">
        <Header />
        <Nav />
        <main className="console-main" id="main" tabIndex={-1}>
          <Suspense fallback={<PageSpinner />}>
            <Switch>
              {can('users.read') ? <Route path="/users/:id">{(params) => <UserPage key={params.id} />}</Route> : null}
              {visible.map(({ path, key, Screen }) => (
                <Route key={key} path={path}>
                  <Screen />
                </Route>
              ))}
              <Route>
                <Redirect to={visible[0]?.path ?? '/'} replace />
              </Route>
            </Switch>
          </Suspense>
        </main>
      </div>
    </Router>
  );
}
