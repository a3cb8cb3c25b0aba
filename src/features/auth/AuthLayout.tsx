/** The frame of the auth screens: the logo, the language menu, a card, the legal links. */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Logo } from '../../components';
import { useT } from '../../i18n';
import { LanguageMenu } from '../../shared/LanguageMenu';
import './auth.css';

export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const t = useT();
  return (
    <div className="auth-screen">
      <header className="auth-topbar">
        <Link href="/auth" aria-label={t('shell.logo_label_signed_out')} className="auth-logo">
          <Logo />
        </Link>
        <LanguageMenu compact />
      </header>
      <main id="main" className="auth-main">
        <section className="auth-card" aria-labelledby="auth-title">
          <h1 id="auth-title" className="auth-title">
            {title}
          </h1>
          {children}
        </section>
        <p className="auth-legal text-sm text-muted">
          <Link href="/rules">{t('nav.rules')}</Link> · <Link href="/privacy">{t('nav.privacy')}</Link> · {t('auth.adults_only')}
        </p>
      </main>
    </div>
  );
}
