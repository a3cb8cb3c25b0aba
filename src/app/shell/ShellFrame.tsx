/**
 * The signed-in layout's frame, drawn on a signed-in route while the session is checked and the
 * features load: the same header (height, menu button, logo at its place), sidebar and main
 * area as AppShell, reading no actor (they do not exist yet). It is in the first page's code,
 * so a reload of /trading paints its frame with the app's first render instead of a bare
 * spinner until the features are in; AppShell then replaces it with parts of the same size.
 */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { IconButton, Logo } from '../../components';
import { useT } from '../../i18n';
import './layout.css';

export function ShellFrame({ children }: { children: ReactNode }) {
  const t = useT();
  return (
    <div className="app-shell" data-frame="">
      <header className="app-header">
        <IconButton className="header-menu-button" icon="menu" label={t('nav.open_menu')} disabled />
        <Link href="/trading" className="header-logo" aria-label={t('shell.logo_label')}>
          <Logo wordClassName="visually-hidden-narrow" />
        </Link>
      </header>
      <div className="app-body">
        <aside className="app-sidebar" />
        <main id="main" className="app-main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
