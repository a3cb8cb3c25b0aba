/**
 * The language dropdown (en, ru, es): a choice goes to the locale actor, which saves it. The
 * button looks like a control (a frame, a globe and a chevron), not like plain text.
 */
import { LANGUAGES, type Language } from '../../contract/user';
import { Icon, Menu } from '../components';
import { useLanguage, useT } from '../i18n';
import { useLocaleActor } from './runtime';
import './LanguageMenu.css';

export function LanguageMenu({ compact = false }: { compact?: boolean }) {
  const t = useT();
  const locale = useLocaleActor();
  const language = useLanguage();
  return (
    <Menu
      label={t('nav.language')}
      trigger={
        <>
          <Icon name="globe" size={16} />
          <span>{compact ? language.toUpperCase() : t(`nav.language_names.${language}`)}</span>
          <Icon name="chevron" size={14} className="language-chevron" />
        </>
      }
      triggerLabel={`${t('nav.language')}: ${t(`nav.language_names.${language}`)}`}
      triggerClassName="language-trigger"
      align="end"
      items={LANGUAGES.map((lang: Language) => ({
        id: lang,
        label: t(`nav.language_names.${lang}`),
        checked: lang === language,
        onSelect: () => locale.send({ type: 'locale.chosen', language: lang }),
      }))}
    />
  );
}
