/**
 * Development-only visual catalogue of the design system: tokens, type, every shared
 * component in its states, in either theme and language. Not routed in production; the shell
 * may mount it at a dev-only path (import.meta.env.DEV). Section headings are developer
 * labels; the components themselves speak through the locale files, so switching the
 * language here shows their real translations.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Button, IconButton } from '../../components/Button';
import { CheckboxField } from '../../components/CheckboxField';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DateTime } from '../../components/DateTime';
import { BottomSheet, Drawer } from '../../components/Drawer';
import { EmptyState } from '../../components/EmptyState';
import { FileField } from '../../components/FileField';
import { Icon, ICON_NAMES } from '../../components/Icon';
import { InfoChip } from '../../components/InfoChip';
import { Logo } from '../../components/Logo';
import { Dropdown, Menu } from '../../components/Menu';
import { Modal } from '../../components/Modal';
import { Money } from '../../components/Money';
import { Pagination } from '../../components/Pagination';
import { PasswordField } from '../../components/PasswordField';
import { PriceText } from '../../components/PriceText';
import { SegmentedControl } from '../../components/SegmentedControl';
import { SelectField } from '../../components/SelectField';
import { Skeleton, SkeletonList, SkeletonText } from '../../components/Skeleton';
import { Spinner } from '../../components/Spinner';
import { Tabs } from '../../components/Tabs';
import { TextField } from '../../components/TextField';
import { ToastViewport, type ToastItem } from '../../components/Toasts';
import { I18nProvider, useT } from '../../i18n';
import './UiCatalogue.css';

const SWATCHES = [
  'bg',
  'surface',
  'surface-2',
  'surface-3',
  'border',
  'border-strong',
  'text',
  'text-muted',
  'primary',
  'link',
  'gain',
  'loss',
  'neutral',
  'up',
  'down',
  'warning',
  'info',
  'focus',
];

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="cat-section panel">
      <h2 className="cat-title">{title}</h2>
      {children}
    </section>
  );
}

export function UiCatalogue({ initialTheme = 'dark', initialLanguage = 'en' }: { initialTheme?: 'dark' | 'light'; initialLanguage?: string }) {
  const [theme, setTheme] = useState<'dark' | 'light'>(initialTheme);
  const [language, setLanguage] = useState(initialLanguage);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return (
    <I18nProvider language={language}>
      <CatalogueBody theme={theme} setTheme={setTheme} language={language} setLanguage={setLanguage} />
    </I18nProvider>
  );
}

function CatalogueBody({
  theme,
  setTheme,
  language,
  setLanguage,
}: {
  theme: 'dark' | 'light';
  setTheme: (t: 'dark' | 'light') => void;
  language: string;
  setLanguage: (l: string) => void;
}) {
  const t = useT();
  const [price, setPrice] = useState(1.08523);
  const [page, setPage] = useState(5);
  const [modal, setModal] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [drawer, setDrawer] = useState(false);
  const [sheet, setSheet] = useState(false);
  const [files, setFiles] = useState<File[]>([]);
  const [segment, setSegment] = useState<'all' | 'real' | 'demo'>('all');
  const [toasts, setToasts] = useState<ToastItem[]>([
    { id: 'a', type: 'success', text: t('common.copied') },
    { id: 'b', type: 'error', text: t('common.copy_error') },
  ]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const timer = setInterval(() => setPrice((p) => Number((p + (Math.random() - 0.5) * 0.0004).toFixed(5))), 1200);
    return () => clearInterval(timer);
  }, []);

  return (
    <main id="main" className="container cat">
      <header className="cat-header">
        <Logo size={32} />
        <div className="cluster">
          <SegmentedControl
            label={t('nav.theme')}
            value={theme}
            onChange={setTheme}
            options={[
              { value: 'dark', label: t('nav.dark'), icon: 'moon' },
              { value: 'light', label: t('nav.light'), icon: 'sun' },
            ]}
          />
          <Menu
            label={t('nav.language')}
            trigger={
              <>
                <Icon name="globe" />
                <span>{t(`nav.language_names.${language}`)}</span>
              </>
            }
            items={['en', 'ru', 'es'].map((l) => ({
              id: l,
              label: t(`nav.language_names.${l}`),
              checked: l === language,
              onSelect: () => setLanguage(l),
            }))}
            align="end"
          />
        </div>
      </header>

      <Section title="Colour tokens">
        <ul className="cat-swatches">
          {SWATCHES.map((name) => (
            <li key={name}>
              <span className="cat-swatch" style={{ background: `var(--color-${name})` }} />
              <code>--color-{name}</code>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Type and numbers">
        <h1>{t('home.hero_title')}</h1>
        <h2>{t('home.features_title')}</h2>
        <p>{t('home.hero_subtitle')}</p>
        <p className="text-muted">{t('home.soon_text')}</p>
        <div className="cluster cat-gap">
          <Money amount={10000} currency="USD" />
          <Money amount={12.3} currency="EUR" signed tone="auto" />
          <Money amount={-7.5} currency="GBP" signed tone="auto" />
          <Money amount={0} currency="USD" signed tone="auto" />
          <Money amount={0.01234} currency="BTC" />
          <PriceText value={price} precision={5} showDirection />
          <PriceText value={151.234} precision={3} stale />
          <DateTime value={Date.now()} />
          <DateTime value={Math.floor(Date.now() / 1000)} withSeconds />
        </div>
      </Section>

      <Section title="Buttons">
        <div className="cluster">
          <Button variant="primary" icon="deposit">
            {t('nav.deposit')}
          </Button>
          <Button variant="secondary" icon="withdraw">
            {t('nav.withdraw')}
          </Button>
          <Button variant="ghost" icon="history">
            {t('nav.history')}
          </Button>
          <Button variant="danger" icon="trash">
            {t('common.delete')}
          </Button>
          <Button variant="primary" loading={busy} onClick={() => setBusy((b) => !b)}>
            {t('common.save')}
          </Button>
          <Button variant="secondary" disabled>
            {t('common.next')}
          </Button>
        </div>
        <div className="cat-trade">
          <Button variant="up" size="lg" fullWidth>
            Up
          </Button>
          <Button variant="down" size="lg" fullWidth>
            Down
          </Button>
        </div>
        <div className="cluster">
          <IconButton icon="minus" label={t('common.remove')} variant="secondary" />
          <IconButton icon="plus" label={t('common.apply')} variant="secondary" />
          <IconButton icon="copy" label={t('common.copy')} />
          <IconButton icon="refresh" label={t('nav.reset_demo')} />
          <IconButton icon="menu" label={t('nav.open_menu')} />
        </div>
      </Section>

      <Section title="Icons">
        <ul className="cat-icons">
          {ICON_NAMES.map((name) => (
            <li key={name}>
              <Icon name={name} size={24} />
              <code>{name}</code>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Fields">
        <div className="grid-auto">
          <TextField label={t('nav.balance')} hint={t('common.optional')} leading="$" inputMode="decimal" defaultValue="100" />
          <TextField label={t('common.search')} error={t('common.operation_failed')} defaultValue="xyz" leading={<Icon name="search" size={18} />} />
          <PasswordField label="Password" defaultValue="correct horse" />
          <SelectField
            label={t('nav.currency')}
            placeholder="…"
            defaultValue="USD"
            options={[
              { value: 'USD', label: 'USD — US Dollar' },
              { value: 'EUR', label: 'EUR — Euro' },
            ]}
          />
        </div>
        <CheckboxField label={t('nav.rules')} defaultChecked />
        <CheckboxField label={t('nav.privacy')} error={t('common.required')} />
        <FileField label="Documents" accept={['image/jpeg', 'image/png', 'application/pdf']} value={files} onChange={setFiles} />
      </Section>

      <Section title="Feedback">
        <div className="stack stack-sm">
          <InfoChip kind="error" action={<Button size="sm">{t('common.retry')}</Button>}>
            {t('common.operation_failed')}
          </InfoChip>
          <InfoChip kind="success">{t('common.copied')}</InfoChip>
          <InfoChip kind="warning" title={t('home.risk_title')}>
            {t('home.risk_text')}
          </InfoChip>
          <InfoChip kind="info">{t('home.soon_text')}</InfoChip>
          <div className="cluster">
            <InfoChip kind="warning" compact>
              pending
            </InfoChip>
            <InfoChip kind="success" compact>
              completed
            </InfoChip>
            <InfoChip kind="error" compact>
              failed
            </InfoChip>
          </div>
          <div className="cluster">
            <Spinner />
            <Skeleton width={120} height={24} />
            <Skeleton shape="circle" />
          </div>
          <SkeletonText lines={2} />
          <SkeletonList rows={2} />
          <Button
            onClick={() =>
              setToasts((list) => [...list, { id: String(Date.now()), type: 'info', text: `${t('common.saved')} · ${new Date().toLocaleTimeString()}` }])
            }
          >
            Toast
          </Button>
        </div>
      </Section>

      <Section title="Navigation">
        <Tabs
          label={t('nav.orders')}
          items={[
            { value: 'active', label: t('nav.active_orders'), badge: 3 },
            { value: 'all', label: t('nav.all_orders') },
          ]}
        >
          <SegmentedControl
            label={t('nav.account_type')}
            size="sm"
            value={segment}
            onChange={setSegment}
            options={[
              { value: 'all', label: t('common.all') },
              { value: 'real', label: t('nav.real_account') },
              { value: 'demo', label: t('nav.demo_account') },
            ]}
          />
          <EmptyState icon="orders" title={t('nav.active_orders')} hint={t('home.steps.three_text')} action={<Button variant="primary">{t('nav.trading')}</Button>} />
          <Pagination page={page} totalPages={12} onChange={setPage} />
        </Tabs>
        <div className="cluster">
          <Dropdown trigger={<Icon name="profile" />} triggerLabel={t('nav.account_menu')} label={t('nav.account_menu')}>
            {(close) => (
              <div className="stack stack-sm">
                <strong>demo_trader</strong>
                <span className="text-muted text-sm">{t('nav.user_id', { id: 1042 })}</span>
                <Button variant="ghost" icon="profile" onClick={close}>
                  {t('nav.profile')}
                </Button>
                <Button variant="ghost" icon="logout" onClick={close}>
                  {t('nav.logout')}
                </Button>
              </div>
            )}
          </Dropdown>
        </div>
      </Section>

      <Section title="Overlays">
        <div className="cluster">
          <Button onClick={() => setModal(true)}>Modal</Button>
          <Button onClick={() => setConfirm(true)}>ConfirmDialog</Button>
          <Button onClick={() => setDrawer(true)}>Drawer</Button>
          <Button onClick={() => setSheet(true)}>BottomSheet</Button>
        </div>
        <Modal
          open={modal}
          onOpenChange={setModal}
          title={t('nav.deposit')}
          description={t('home.demo_note', { amount: '$10,000' })}
          footer={
            <>
              <Button onClick={() => setModal(false)}>{t('common.back')}</Button>
              <Button variant="primary">{t('common.next')}</Button>
            </>
          }
        >
          <TextField label={t('nav.balance')} leading="$" defaultValue="250" />
        </Modal>
        <ConfirmDialog
          open={confirm}
          onOpenChange={setConfirm}
          title={t('common.confirm')}
          message={t('home.risk_text')}
          confirmVariant="danger"
          onConfirm={() => new Promise((resolve) => setTimeout(resolve, 1500))}
        />
        <Drawer open={drawer} onOpenChange={setDrawer} title={t('nav.menu')} headerExtra={<Logo variant="mark" size={24} />}>
          <nav aria-label={t('nav.main_navigation')} className="stack stack-sm">
            {(['trading', 'wallet', 'orders', 'profile', 'help'] as const).map((key) => (
              <Button key={key} variant="ghost" fullWidth>
                {t(`nav.${key}`)}
              </Button>
            ))}
          </nav>
        </Drawer>
        <BottomSheet open={sheet} onOpenChange={setSheet} title={t('nav.active_orders')}>
          <EmptyState compact icon="orders" title={t('nav.active_orders')} hint={t('home.steps.three_text')} />
        </BottomSheet>
      </Section>

      <ToastViewport toasts={toasts} onDismiss={(id) => setToasts((list) => list.filter((x) => x.id !== id))} />
    </main>
  );
}

export default UiCatalogue;
