/** The language dropdown (en, ru, es): a choice goes to the locale actor, which saves it. */
import { LANGUAGES, type Language } from '../../../contract/user';
import { Menu } from '../../components';
import { useT } from '../../i18n';
import { useLanguage } from '../hooks';
import { useLocaleActor } from '../runtime';

export function LanguageMenu({ compact = false }: { compact?: boolean }) {
  const t = useT();
  const locale = useLocaleActor();
  const language = useLanguage();
  return (
    <Menu
      label={t('nav.language')}
      trigger={compact ? language.toUpperCase() : t(`nav.language_names.${language}`)}
      triggerLabel={`${t('nav.language')}: ${t(`nav.language_names.${language}`)}`}
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
