/**
 * Routes of spec section 2 with their guards:
 *   /                    public home
 *   /trading, /profile   login required (else /auth)
 *   /privacy, /rules     public
 *   /auth, /register     logged-out only (else /trading); /register opens the register tab
 *   /reset-password-code logged-out only: reset with a 6-digit code
 *   /reset-password      logged-out only: the emailed link (?token=) or, without one, the code flow
 *   /verify-email        the emailed verification link (anyone)
 *   anything else        redirect to /
 * Pages load on demand with a spinner. The header and side menu show only when authenticated
 * and not on the auth, register or reset-password routes.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { PageSpinner } from '../components';
import { useT } from '../i18n';
import { useSessionStatus } from '../shared/hooks';
import { AppShell } from './shell/AppShell';
import { LanguageMenu } from '../shared/LanguageMenu';

const HomePage = lazy(() => import('../features/home/HomePage').then((m) => ({ default: m.HomePage })));
const PrivacyPage = lazy(() => import('../features/legal/PrivacyPage').then((m) => ({ default: m.PrivacyPage })));
const RulesPage = lazy(() => import('../features/legal/RulesPage').then((m) => ({ default: m.RulesPage })));
const AuthPage = lazy(() => import('../features/auth/AuthPage').then((m) => ({ default: m.AuthPage })));
const ResetPasswordPage = lazy(() => import('../features/auth/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })));
const VerifyEmailPage = lazy(() => import('../features/auth/VerifyEmailPage').then((m) => ({ default: m.VerifyEmailPage })));
const TradingPage = lazy(() => import('../features/trading/TradingPage').then((m) => ({ default: m.TradingPage })));
const ProfilePage = lazy(() => import('../features/profile/ProfilePage').then((m) => ({ default: m.ProfilePage })));
const TransactionsSection = lazy(() => import('../features/transactions/TransactionsSection').then((m) => ({ default: m.TransactionsSection })));

/** Routes on which the header and side menu never show. */
export const CHROMELESS_ROUTES = ['/auth', '/register', '/reset-password', '/reset-password-code'];

function Loading() {
  const t = useT();
  return <PageSpinner label={t('common.loading')} />;
}

function RequireAuth({ children }: { children: ReactNode }) {
  const status = useSessionStatus();
  if (status === 'loading') return <Loading />;
  if (status === 'anonymous') return <Redirect to="/auth" replace />;
  return <>{children}</>;
}

function GuestOnly({ children }: { children: ReactNode }) {
  const status = useSessionStatus();
  if (status === 'loading') return <Loading />;
  if (status === 'authenticated') return <Redirect to="/trading" replace />;
  return <>{children}</>;
}

function PublicPage({ page: Page }: { page: typeof HomePage }) {
  const status = useSessionStatus();
  return <Page isAuthenticated={status === 'authenticated'} headerExtras={<LanguageMenu compact />} />;
}

export function AppRoutes() {
  const [location] = useLocation();
  const status = useSessionStatus();
  const showChrome = status === 'authenticated' && !CHROMELESS_ROUTES.includes(location);
  const content = (
    <Suspense fallback={<Loading />}>
      <Switch>
        <Route path="/">
          <PublicPage page={HomePage} />
        </Route>
        <Route path="/privacy">
          <PublicPage page={PrivacyPage} />
        </Route>
        <Route path="/rules">
          <PublicPage page={RulesPage} />
        </Route>
        <Route path="/trading">
          <RequireAuth>
            <TradingPage />
          </RequireAuth>
        </Route>
        <Route path="/profile">
          <RequireAuth>
            {/* Features never import each other: the route places the money area's history in the profile. */}
            <ProfilePage transactions={<TransactionsSection />} />
          </RequireAuth>
        </Route>
        <Route path="/auth">
          <GuestOnly>
            <AuthPage />
          </GuestOnly>
        </Route>
        <Route path="/register">
          <GuestOnly>
            <AuthPage initialMode="register" />
          </GuestOnly>
        </Route>
        <Route path="/reset-password-code">
          <GuestOnly>
            <ResetPasswordPage />
          </GuestOnly>
        </Route>
        <Route path="/reset-password">
          <GuestOnly>
            <ResetPasswordPage />
          </GuestOnly>
        </Route>
        <Route path="/verify-email">
          <VerifyEmailPage />
        </Route>
        <Route>
          <Redirect to="/" replace />
        </Route>
      </Switch>
    </Suspense>
  );
  return showChrome ? <AppShell>{content}</AppShell> : content;
}
