/**
 * The signed-in layout: the header (logo, balance box, deposit, avatar), the desktop sidebar
 * (icons only on tablets), the mobile side menu (balance panel, navigation, settings, then the
 * coming-soon list) and the main content. ShellFrame.tsx draws the same frame while the
 * features load (layout.css). Breakpoints: mobile <= 768 px, tablet <= 1024 px, desktop above.
 */
import { useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { Button, Drawer, Dropdown, IconButton, Logo } from '../../components';
import { useT } from '../../i18n';
import { useModalControls } from '../../shared/hooks';
import { MODAL_IDS } from '../../shared/modals';
import { BalancePanel, BalanceSummary } from './BalancePanel';
import { ConnectionIndicator } from './ConnectionIndicator';
import { LanguageMenu } from '../../shared/LanguageMenu';
import { ComingSoon, Navigation } from './Navigation';
import { ProfilePanel } from './ProfilePanel';
import { ThemeChoice, ThemeToggle } from './ThemeControls';
import './layout.css';
import './shell.css';

function Header({ onOpenMenu }: { onOpenMenu: () => void }) {
  const t = useT();
  const modals = useModalControls();
  return (
    <header className="app-header">
      <a href="#main" className="skip-link">
        {t('shell.skip_to_content')}
      </a>
      <IconButton className="header-menu-button" icon="menu" label={t('nav.open_menu')} onClick={onOpenMenu} />
      <Link href="/trading" className="header-logo" aria-label={t('shell.logo_label')}>
        {/* Only the mark on narrow phones; the link keeps its name. */}
        <Logo wordClassName="visually-hidden-narrow" />
      </Link>
      <ConnectionIndicator />
      <div className="header-actions">
        <Dropdown
          trigger={<BalanceSummary />}
          label={t('nav.balance')}
          triggerLabel={t('shell.balance_label')}
          align="end"
          triggerClassName="header-balance"
          panelClassName="balance-dropdown"
        >
          <BalancePanel />
        </Dropdown>
        <Button variant="primary" icon="deposit" className="header-deposit" onClick={() => modals.open(MODAL_IDS.deposit)}>
          <span className="header-deposit-text visually-hidden-tablet">{t('nav.deposit')}</span>
        </Button>
        <span className="header-theme">
          <ThemeToggle />
        </span>
        <ProfilePanel />
      </div>
    </header>
  );
}

function MobileMenu({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useT();
  const close = () => onOpenChange(false);
  return (
    <Drawer open={open} onOpenChange={onOpenChange} title={t('nav.menu')} side="left" className="mobile-menu" headerExtra={<Logo size={22} />}>
      <div className="stack-lg">
        <BalancePanel onNavigate={close} />
        <Navigation onNavigate={close} showSoon={false} />
        {/* Settings before the coming-soon list, so they are not buried under disabled items. */}
        <section className="stack mobile-settings" aria-labelledby="mobile-settings-title">
          <h2 id="mobile-settings-title" className="nav-group-title">
            {t('nav.settings')}
          </h2>
          <div className="cluster-between">
            <span className="text-sm">{t('nav.language')}</span>
            <LanguageMenu />
          </div>
          <ThemeChoice showLabel />
        </section>
        <ComingSoon />
      </div>
    </Drawer>
  );
}

export function AppShell({ children }: { children: ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <div className="app-shell">
      <Header onOpenMenu={() => setMenuOpen(true)} />
      <div className="app-body">
        <aside className="app-sidebar">
          <Navigation />
        </aside>
        <main id="main" className="app-main" tabIndex={-1}>
          {children}
        </main>
      </div>
      <MobileMenu open={menuOpen} onOpenChange={setMenuOpen} />
    </div>
  );
}
