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
 * and not on the auth, register or reset-password routes. The logged-in routes and the shell
 * also wait (behind the same spinner) for the app's features to be loaded: their actors
 * (socket, trading, money, profile) exist only from then on. Meanwhile, with a session stored
 * or open, a signed-in route shows the layout's frame (ShellFrame: header and sidebar of the
 * same size) around the spinner. A page loaded ahead (preloadablePage) renders without the
 * spinner in between.
 */
import { createElement, lazy, startTransition, Suspense, useDeferredValue, useEffect, useState, type ComponentType, type FunctionComponent, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { SUPPORT_EMAIL } from '../features/legal/contacts';
import { PageSpinner } from '../components';
import { useLanguage, useT } from '../i18n';
import { warmFormats } from '../i18n/format';
import { useFeaturesReady, useSessionStatus } from '../shared/hooks';
import { LanguageMenu } from '../shared/LanguageMenu';
import { ShellFrame } from './shell/ShellFrame';
import { markAppStarted } from './boot';

const HomePage = lazy(() => import('../features/home/HomePage').then((m) => ({ default: m.HomePage })));
const PrivacyPage = lazy(() => import('../features/legal/PrivacyPage').then((m) => ({ default: m.PrivacyPage })));
const RulesPage = lazy(() => import('../features/legal/RulesPage').then((m) => ({ default: m.RulesPage })));

/**
 * A lazy page that can be loaded ahead (`preload()`): once its module is there it renders at
 * once, without suspending. The browser entry preloads the auth page before it hydrates the
 * prerendered /auth, whose markup must be replaced by the same page, never by the spinner.
 */
export function preloadablePage<P extends object>(load: () => Promise<FunctionComponent<P>>): FunctionComponent<P> & { preload: () => Promise<void> } {
  let loaded: FunctionComponent<P> | null = null;
  const preload = () =>
    load().then((page) => {
      loaded = page;
    });
  const Lazy = lazy(() => preload().then(() => ({ default: loaded! })));
  // Chosen once per mount: switching from the lazy wrapper to the page itself would remount it.
  const Page = (props: P) => {
    const [component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return createElement(component, props);
  };
  return Object.assign(Page, { preload });
}

export const AuthPage = preloadablePage(() => import('../features/auth/AuthPage').then((m) => m.AuthPage));
const ResetPasswordPage = lazy(() => import('../features/auth/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })));
const VerifyEmailPage = lazy(() => import('../features/auth/VerifyEmailPage').then((m) => ({ default: m.VerifyEmailPage })));
// The logged-in views: their code starts loading as soon as a session is there or being checked
// (beside the feature chunk), so a reload of /trading does not wait for one chunk after another.
const loadShell = () => import('./shell/AppShell');
const loadTrading = () => import('../features/trading/TradingPage');
const loadProfile = () => import('../features/profile/ProfilePage');
const AppShell = preloadablePage(() => loadShell().then((m) => m.AppShell));
const TradingPage = preloadablePage(() => loadTrading().then((m) => m.TradingPage));
const ProfilePage = preloadablePage(() => loadProfile().then((m) => m.ProfilePage));
const HelpPage = lazy(() => import('../features/support/HelpPage').then((m) => ({ default: m.HelpPage })));
const TransactionsSection = lazy(() => import('../features/transactions/TransactionsSection').then((m) => ({ default: m.TransactionsSection })));

/** Routes on which the header and side menu never show. */
export const CHROMELESS_ROUTES = ['/auth', '/register', '/reset-password', '/reset-password-code'];
/** The signed-in routes (RequireAuth): their frame shows while the session and the features load. */
const SIGNED_IN_ROUTES = ['/trading', '/profile', '/help'];

function Loading() {
  const t = useT();
  return <PageSpinner label={t('common.loading')} />;
}

/**
 * Whether the features are in, for the views that wait for them. Deferred: the render that
 * mounts the shell and the page (the largest of the visit) runs in the background, yielding to
 * the browser every few milliseconds, instead of one long task (Total Blocking Time).
 */
function useFeaturesShown(): boolean {
  return useDeferredValue(useFeaturesReady());
}

function RequireAuth({ preload, children }: { preload: () => Promise<unknown>; children: ReactNode }) {
  const status = useSessionStatus();
  const featuresReady = useFeaturesShown();
  const language = useLanguage();
  useEffect(() => {
    if (status === 'anonymous') return;
    void AppShell.preload();
    void preload();
  }, [status, preload]);
  useEffect(() => {
    if (status !== 'anonymous') warmFormats(language);
  }, [status, language]);
  if (status === 'loading') return <Loading />;
  if (status === 'anonymous') return <Redirect to="/auth" replace />;
  if (!featuresReady) return <Loading />;
  return <>{children}</>;
}

/** /help: the FAQ for anyone; with a session, inside the shell with the trader's tickets. */
function HelpRoute() {
  const status = useSessionStatus();
  const featuresReady = useFeaturesShown();
  if (status === 'loading') return <Loading />;
  if (status === 'anonymous') return <HelpPage signedIn={false} supportEmail={SUPPORT_EMAIL} headerExtras={<LanguageMenu compact />} />;
  if (!featuresReady) return <Loading />;
  return <HelpPage signedIn supportEmail={SUPPORT_EMAIL} />;
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

/**
 * The page inside a shell that has just mounted comes one commit later: the shell (header,
 * sidebar, balance) is committed and painted with the spinner in the page's place, then the
 * page renders in a transition (in slices, its commit a task of its own) instead of both in one
 * long task (Total Blocking Time on a phone). Moving between pages inside the shell mounts
 * nothing here: no spinner in between.
 */
export function AfterShell({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  useEffect(() => startTransition(() => setShown(true)), []);
  return shown ? <>{children}</> : <Loading />;
}

/**
 * Tells the boot script the app has started (boot.ts). Inside the routes' Suspense boundary, so
 * on the hydrated /auth it runs once the form itself is hydrated (React hydrates a boundary's
 * content after the root), never while a submit would still go to the browser.
 */
function AppStarted() {
  useEffect(() => markAppStarted(window), []);
  return null;
}

export function AppRoutes() {
  const [location] = useLocation();
  const status = useSessionStatus();
  const featuresReady = useFeaturesShown();
  const showChrome = status === 'authenticated' && featuresReady && !CHROMELESS_ROUTES.includes(location);
  // A stored session on a signed-in route: the layout's frame (header, sidebar) while the
  // session is checked and the features load, so the page is not a bare spinner until then.
  const showFrame = !showChrome && status !== 'anonymous' && SIGNED_IN_ROUTES.includes(location);
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
          <RequireAuth preload={TradingPage.preload}>
            <TradingPage />
          </RequireAuth>
        </Route>
        <Route path="/profile">
          <RequireAuth preload={ProfilePage.preload}>
            {/* Features never import each other: the route places the money area's history in the profile. */}
            <ProfilePage transactions={<TransactionsSection />} />
          </RequireAuth>
        </Route>
        <Route path="/help">
          <HelpRoute />
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
      {/* Last: its effect runs after the page's own (the form's fields registered). */}
      <AppStarted />
    </Suspense>
  );
  if (showChrome) {
    return (
      <Suspense fallback={<Loading />}>
        <AppShell>
          <AfterShell>{content}</AfterShell>
        </AppShell>
      </Suspense>
    );
  }
  if (showFrame) {
    return (
      <Suspense fallback={<Loading />}>
        <ShellFrame>{content}</ShellFrame>
      </Suspense>
    );
  }
  return content;
}
