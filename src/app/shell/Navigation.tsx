/**
 * The app's navigation, shared by the desktop sidebar and the mobile side menu: Trading, the
 * Wallet group (Deposit and Withdraw open modals, History goes to the profile transactions),
 * the Orders group (active and all orders on the trading screen), Profile, Help (a support
 * page at /help, with the number of tickets support answered since the trader last read them),
 * Logout, and the sections the product announces but does not offer yet, marked
 * as coming soon (ComingSoon; the mobile menu puts it under the settings).
 *
 * One item is current at a time: History only at /profile#transactions, Profile on the rest of
 * /profile. Each item has its own icon; on the tablet icon rail the label shows as a tooltip on
 * hover and keyboard focus (shell.css) and stays the link's accessible name.
 */
import { Link, useLocation, useSearch } from 'wouter';
import { useLocationProperty } from 'wouter/use-browser-location';
import { Icon, type IconName } from '../../components';
import { useT } from '../../i18n';
import { useModalControls } from '../../shared/hooks';
import { useChild, useSessionActor } from '../../shared/runtime';
import { useSelector } from '@xstate/react';
import { MODAL_IDS } from '../../shared/modals';
import './shell.css';

const SOON: { key: string; icon: IconName; note?: string }[] = [
  { key: 'top_traders', icon: 'users' },
  { key: 'tournaments', icon: 'trophy' },
  { key: 'bonuses', icon: 'gift' },
  { key: 'education', icon: 'book' },
  { key: 'calendar', icon: 'calendar' },
  { key: 'trading_bots', icon: 'bot', note: 'nav.under_development' },
];

/** The address hash without '#', following link navigations and hash changes. */
function useHash(): string {
  return useLocationProperty(() => window.location.hash).replace(/^#/, '');
}

/** The sections the product announces but does not offer yet, folded under "Coming soon". */
export function ComingSoon() {
  const t = useT();
  return (
    <details className="nav-soon">
      <summary className="nav-group-title">{t('nav.coming_soon')}</summary>
      <ul className="nav-list">
        {SOON.map((s) => (
          <li key={s.key}>
            <span className="nav-item nav-item-disabled" aria-disabled="true">
              <Icon name={s.icon} />
              <span className="nav-soon-text">
                <span className="nav-label">{t(`nav.${s.key}`)}</span>
                <span className="nav-badge">{t(s.note ?? 'nav.coming_soon')}</span>
              </span>
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}

export function Navigation({
  collapsed = false,
  onNavigate,
  showSoon = true,
}: {
  collapsed?: boolean;
  onNavigate?: () => void;
  /** Show the coming-soon list at the end (the mobile menu places it itself, under the settings). */
  showSoon?: boolean;
}) {
  const t = useT();
  const [location] = useLocation();
  const search = useSearch();
  const hash = useHash();
  const modals = useModalControls();
  const session = useSessionActor();
  const ordersView = new URLSearchParams(search).get('orders');
  const onProfile = location === '/profile';
  const historyCurrent = onProfile && hash === 'transactions';
  const support = useChild('support');
  const unread = useSelector(support, (s) => s?.context.unread ?? 0);
  const helpLabel = unread > 0 ? `${t('nav.help')} (${t('support.unread_count', { count: unread })})` : t('nav.help');

  const item = (href: string, icon: IconName, label: string, current: boolean) => (
    <li>
      <Link href={href} className="nav-item" aria-current={current ? 'page' : undefined} onClick={onNavigate} title={collapsed ? label : undefined}>
        <Icon name={icon} />
        <span className="nav-label">{label}</span>
      </Link>
    </li>
  );
  const action = (icon: IconName, label: string, onClick: () => void) => (
    <li>
      <button
        type="button"
        className="nav-item"
        onClick={() => {
          onNavigate?.();
          onClick();
        }}
        title={collapsed ? label : undefined}
      >
        <Icon name={icon} />
        <span className="nav-label">{label}</span>
      </button>
    </li>
  );

  return (
    <nav className="app-nav" data-collapsed={collapsed || undefined} aria-label={t('nav.main_navigation')}>
      <ul className="nav-list">
        {item('/trading', 'chart', t('nav.trading'), location === '/trading' && !ordersView)}
      </ul>
      <p className="nav-group-title">{t('nav.wallet')}</p>
      <ul className="nav-list">
        {action('deposit', t('nav.deposit'), () => modals.open(MODAL_IDS.deposit))}
        {action('withdraw', t('nav.withdraw'), () => modals.open(MODAL_IDS.withdraw))}
        {item('/profile#transactions', 'history', t('nav.history'), historyCurrent)}
      </ul>
      <p className="nav-group-title">{t('nav.orders')}</p>
      <ul className="nav-list">
        {item('/trading?orders=active', 'orders', t('nav.active_orders'), ordersView === 'active')}
        {item('/trading?orders=all', 'list', t('nav.all_orders'), ordersView === 'all')}
      </ul>
      <ul className="nav-list nav-list-bottom">
        {item('/profile', 'profile', t('nav.profile'), onProfile && !historyCurrent)}
        <li>
          <Link href="/help" className="nav-item" aria-current={location === '/help' ? 'page' : undefined} onClick={onNavigate} title={collapsed ? helpLabel : undefined} aria-label={helpLabel}>
            <Icon name="help" />
            <span className="nav-label">{t('nav.help')}</span>
            {unread > 0 ? (
              <span className="nav-count tabular" aria-hidden="true">
                {unread}
              </span>
            ) : null}
          </Link>
        </li>
        {action('logout', t('nav.logout'), () => session.send({ type: 'session.logoutRequested' }))}
      </ul>
      {showSoon && !collapsed ? <ComingSoon /> : null}
    </nav>
  );
}
