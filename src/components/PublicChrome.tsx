/**
 * The chrome of the public pages (home, privacy, rules) for visitors who are not signed in,
 * when the app shell shows no header: a top bar with the logo and the sign-in/sign-up links
 * (or "Go to trading" when signed in), and a footer with the legal links. `extras` is a slot
 * for the language menu the shell owns.
 */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useT } from '../i18n';
import { Logo } from './Logo';
import './Button.css';
import './PublicChrome.css';

export function PublicTopBar({ isAuthenticated = false, extras }: { isAuthenticated?: boolean; extras?: ReactNode }) {
  const t = useT();
  return (
    <header className="public-topbar">
      <div className="container public-topbar-inner">
        {/* Spec section 2: the logo leads to trading when logged in, to /auth otherwise. */}
        <Link href={isAuthenticated ? '/trading' : '/auth'} className="public-topbar-logo" aria-label={t(isAuthenticated ? 'shell.logo_label' : 'shell.logo_label_signed_out')}>
          {/* Only the mark on narrow phones; the link keeps its name. */}
          <Logo wordClassName="visually-hidden-phone" />
        </Link>
        <div className="public-topbar-actions">
          {extras}
          {isAuthenticated ? (
            <Link href="/trading" className="btn btn-primary btn-sm">
              {t('home.cta_trading')}
            </Link>
          ) : (
            <>
              <Link href="/auth" className="btn btn-ghost btn-sm public-topbar-login">
                {t('nav.login')}
              </Link>
              <Link href="/auth?mode=register" className="btn btn-primary btn-sm">
                {t('nav.register')}
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}

export function PublicFooter() {
  const t = useT();
  return (
    <footer className="public-footer">
      <div className="container public-footer-inner">
        <Logo size={22} />
        <nav aria-label={t('home.footer_nav')}>
          <ul className="public-footer-links">
            <li>
              <Link href="/privacy">{t('nav.privacy')}</Link>
            </li>
            <li>
              <Link href="/rules">{t('nav.rules')}</Link>
            </li>
          </ul>
        </nav>
        <p className="public-footer-note text-sm">{t('home.footer_rights', { year: new Date().getFullYear() })}</p>
      </div>
    </footer>
  );
}
