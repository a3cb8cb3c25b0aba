/**
 * The avatar's panel: username and user id, Profile, Cashier, Withdraw, the theme switch, the
 * language and logout.
 */
import { Link } from 'wouter';
import { Button, Dropdown, Icon } from '../../components';
import { useT } from '../../i18n';
import { useModalControls, useUser } from '../../shared/hooks';
import { useSessionActor } from '../../shared/runtime';
import { MODAL_IDS } from '../../shared/modals';
import { LanguageMenu } from '../../shared/LanguageMenu';
import { ThemeChoice } from './ThemeControls';
import './shell.css';

export function Avatar({ size = 32 }: { size?: number }) {
  const user = useUser();
  const url = user?.front_settings.avatar_url;
  const initials = (user?.username ?? '?').slice(0, 2).toUpperCase();
  return url ? (
    <img className="avatar" src={url} alt="" width={size} height={size} />
  ) : (
    <span className="avatar avatar-initials" style={{ width: size, height: size }} aria-hidden="true">
      {initials}
    </span>
  );
}

export function ProfilePanel() {
  const t = useT();
  const user = useUser();
  const session = useSessionActor();
  const modals = useModalControls();
  return (
    <Dropdown trigger={<Avatar />} triggerLabel={t('nav.account_menu')} label={t('nav.account_menu')} align="end" panelClassName="profile-panel">
      {(close) => (
        <div className="stack">
          <div className="profile-panel-head">
            <Avatar size={40} />
            <div>
              <p className="profile-panel-name">{user?.username}</p>
              <p className="text-sm text-muted">{t('nav.user_id', { id: user?.user_id ?? '' })}</p>
            </div>
          </div>
          <ul className="profile-panel-links">
            <li>
              <Link href="/profile" className="nav-item" onClick={close}>
                <Icon name="profile" />
                <span>{t('nav.profile')}</span>
              </Link>
            </li>
            <li>
              <button
                type="button"
                className="nav-item"
                onClick={() => {
                  close();
                  modals.open(MODAL_IDS.deposit);
                }}
              >
                <Icon name="wallet" />
                <span>{t('nav.cashier')}</span>
              </button>
            </li>
            <li>
              <button
                type="button"
                className="nav-item"
                onClick={() => {
                  close();
                  modals.open(MODAL_IDS.withdraw);
                }}
              >
                <Icon name="withdraw" />
                <span>{t('nav.withdraw')}</span>
              </button>
            </li>
          </ul>
          <ThemeChoice showLabel />
          <div className="cluster-between">
            <span className="text-sm text-muted">{t('nav.language')}</span>
            <LanguageMenu />
          </div>
          <Button variant="secondary" icon="logout" fullWidth onClick={() => session.send({ type: 'session.logoutRequested' })}>
            {t('nav.logout')}
          </Button>
        </div>
      )}
    </Dropdown>
  );
}
