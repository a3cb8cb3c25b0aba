/**
 * The profile screen (spec section 2, "Profile screen"): a header card with the avatar and the
 * account, a section navigation, and the sections personal info (#personal), transactions
 * (#transactions: the `transactions` slot the route fills with the money area's history;
 * nothing when it is not given), security (#security: password, two-factor), documents
 * (#documents), Telegram (#telegram), the trading journal (#journal, issue 16) and interface
 * settings (#settings).
 *
 * While the screen is shown the app runs the profile flow (one actor per section, spawned on
 * mount and stopped on unmount). An address hash scrolls to its section, also when it changes
 * while the screen is open (the sidebar's History link is /profile#transactions) and again once
 * the personal section above has loaded and changed the layout.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { DateTime, Icon, InfoChip, useScrollHints, type IconName } from '../../components';
import { useT } from '../../i18n';
import { useUser } from '../../shared/hooks';
import { AvatarEditor } from './AvatarEditor';
import { DocumentsSection } from './DocumentsSection';
import { JournalSection } from './JournalSection';
import { PersonalInfoSection } from './PersonalInfoSection';
import { SecuritySection } from './SecuritySection';
import { SettingsSection } from './SettingsSection';
import { TelegramSection } from './TelegramSection';
import { ResendVerification } from './ResendVerification';
import { useHash, useProfileFlow, useSection } from './hooks';
import './profile.css';

export const PROFILE_ANCHORS = ['personal', 'transactions', 'journal', 'security', 'documents', 'telegram', 'settings'] as const;
export type ProfileAnchor = (typeof PROFILE_ANCHORS)[number];

const SECTION_ICONS: Record<ProfileAnchor, IconName> = {
  personal: 'profile',
  transactions: 'history',
  journal: 'stats',
  security: 'shield',
  documents: 'file',
  telegram: 'telegram',
  settings: 'settings',
};

function Section({ id, title, hint, children }: { id: ProfileAnchor; title: string; hint?: string; children: ReactNode }) {
  return (
    <section id={id} className="profile-section panel" aria-labelledby={`${id}-title`} tabIndex={-1}>
      <header className="profile-section-head">
        <Icon name={SECTION_ICONS[id]} size={20} className="profile-section-icon" />
        <div>
          <h2 id={`${id}-title`} className="profile-section-title">
            {title}
          </h2>
          {hint ? <p className="text-sm text-muted">{hint}</p> : null}
        </div>
      </header>
      {children}
    </section>
  );
}

/**
 * The section being read, for the navigation: the one the address names (a click in the
 * navigation) while its heading is on screen, else the last one whose top has passed a third of
 * the window (at the very bottom the last one). One item is current at a time: a click on
 * "Telegram" that scrolls to the bottom does not leave "Interface" current beside the hovered link.
 */
function useActiveSection(anchors: readonly ProfileAnchor[], hash: string): ProfileAnchor | null {
  const [active, setActive] = useState<ProfileAnchor | null>(null);
  const key = anchors.join();
  useEffect(() => {
    let frame = 0;
    const measure = () => {
      frame = 0;
      // A third of the window down counts as "being read"; at the very bottom the last section wins.
      const line = window.innerHeight / 3;
      const atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
      const chosen = anchors.find((id) => id === hash);
      const chosenTop = chosen ? document.getElementById(chosen)?.getBoundingClientRect().top : undefined;
      if (chosen && chosenTop !== undefined && chosenTop >= -2 && chosenTop < window.innerHeight) {
        setActive(chosen);
        return;
      }
      let current: ProfileAnchor | null = null;
      for (const id of anchors) {
        const element = document.getElementById(id);
        if (element && element.getBoundingClientRect().top <= line) current = id;
      }
      setActive(atBottom ? (anchors[anchors.length - 1] ?? current) : (current ?? anchors[0] ?? null));
    };
    const schedule = () => {
      if (!frame) frame = window.requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame) window.cancelAnimationFrame(frame);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `anchors` is rebuilt on every render; `key` changes only when its content does.
  }, [key, hash]);
  return active;
}

export function ProfilePage({ transactions }: { transactions?: ReactNode }) {
  const t = useT();
  const user = useUser();
  const page = useProfileFlow();
  const profileActor = useSection(page, 'profile');
  const avatarActor = useSection(page, 'avatar');
  const securityActor = useSection(page, 'security');
  const documentsActor = useSection(page, 'documents');
  const telegramActor = useSection(page, 'telegram');
  const journalActor = useSection(page, 'journal');
  const verificationActor = useSection(page, 'verification');
  const profileReady = useSelector(profileActor, (s) => (s ? !s.matches('loading') : false));
  const hash = useHash();
  const anchors = PROFILE_ANCHORS.filter((id) => id !== 'transactions' || transactions !== undefined);
  const active = useActiveSection(anchors, hash);
  // On tablets and phones the section list is a strip that scrolls sideways: arrows show
  // where more sections are, and the current one is kept in view.
  const navRef = useRef<HTMLUListElement>(null);
  useScrollHints(navRef, active);

  useEffect(() => {
    if (!hash || !(PROFILE_ANCHORS as readonly string[]).includes(hash)) return;
    const element = document.getElementById(hash);
    if (!element) return;
    element.scrollIntoView({ block: 'start' });
    element.focus({ preventScroll: true });
  }, [hash, profileReady]);

  const labels: Record<ProfileAnchor, string> = {
    personal: t('profile.nav.personal'),
    transactions: t('profile.nav.transactions'),
    journal: t('profile.nav.journal'),
    security: t('profile.nav.security'),
    documents: t('profile.nav.documents'),
    telegram: t('profile.nav.telegram'),
    settings: t('profile.nav.settings'),
  };

  return (
    <div className="profile-page container">
      <header className="profile-hero panel">
        <AvatarEditor actor={avatarActor} avatarUrl={user?.front_settings.avatar_url ?? null} username={user?.username ?? ''} />
        <div className="profile-hero-text">
          <h1 className="profile-title">{user?.username ?? t('nav.profile')}</h1>
          {user ? (
            <div className="cluster profile-hero-email">
              <span className="text-sm text-muted">{user.email}</span>
              <InfoChip kind={user.email_verified ? 'success' : 'warning'} compact>
                {user.email_verified ? t('profile.personal.email_verified') : t('profile.personal.email_unverified')}
              </InfoChip>
              {!user.email_verified && verificationActor ? <ResendVerification actor={verificationActor} email={user.email} /> : null}
            </div>
          ) : null}
          <div className="cluster profile-hero-meta">
            <span className="text-xs text-muted tabular">{t('nav.user_id', { id: user?.user_id ?? '' })}</span>
            {user ? (
              <span className="text-xs text-muted">
                {t('profile.hero.member_since')} <DateTime value={user.created_at} format="DD.MM.YYYY" />
              </span>
            ) : null}
            {user ? (
              <InfoChip kind={user.two_factor_enabled ? 'success' : 'warning'} compact>
                {user.two_factor_enabled ? t('profile.security.two_factor_on') : t('profile.security.two_factor_off')}
              </InfoChip>
            ) : null}
          </div>
        </div>
      </header>

      <div className="profile-layout">
        <nav className="profile-nav" aria-label={t('profile.nav.label')}>
          <ul ref={navRef} className="scroll-hints">
            {anchors.map((id) => (
              <li key={id}>
                <a href={`#${id}`} className="profile-nav-link" aria-current={active === id ? 'location' : undefined}>
                  <Icon name={SECTION_ICONS[id]} size={16} />
                  <span>{labels[id]}</span>
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <div className="profile-sections">
          <Section id="personal" title={t('profile.personal.title')} hint={t('profile.personal.hint')}>
            <PersonalInfoSection actor={profileActor} />
          </Section>
          {transactions !== undefined ? (
            <Section id="transactions" title={t('profile.nav.transactions')}>
              {transactions}
            </Section>
          ) : null}
          <Section id="journal" title={t('journal.title')} hint={t('journal.hint')}>
            <JournalSection actor={journalActor} />
          </Section>
          <Section id="security" title={t('profile.security.title')} hint={t('profile.security.hint')}>
            <SecuritySection actor={securityActor} />
          </Section>
          <Section id="documents" title={t('profile.documents.title')} hint={t('profile.documents.hint')}>
            <DocumentsSection actor={documentsActor} />
          </Section>
          <Section id="telegram" title={t('profile.telegram.title')} hint={t('profile.telegram.hint')}>
            <TelegramSection actor={telegramActor} />
          </Section>
          <Section id="settings" title={t('profile.settings.title')} hint={t('profile.settings.hint')}>
            <SettingsSection />
          </Section>
        </div>
      </div>
    </div>
  );
}
