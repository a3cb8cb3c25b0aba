/** The console's language choice (en, ru, es): a labelled native select that tells the root actor. */
import { useSelector } from '@xstate/react';
import { useT } from '../../i18n';
import { useConsoleRuntime } from '../runtime';

const LANGUAGES = ['en', 'ru', 'es'] as const;

export function LanguageSelect() {
  const t = useT();
  const { root } = useConsoleRuntime();
  const language = useSelector(root, (s) => s.context.language);
  return (
    <label className="console-language">
      <span className="visually-hidden">{t('console.header.language')}</span>
      <select
        value={language}
        onChange={(e) => {
          const next = LANGUAGES.find((l) => l === e.currentTarget.value);
          if (next) root.send({ type: 'console.languageChanged', language: next });
        }}
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {t(`nav.language_names.${l}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
