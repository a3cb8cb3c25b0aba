/**
 * Interface settings: the theme (light, dark, or auto following the system) and the interface
 * language. They belong to the app's long-lived theme and locale actors (`theme.chosen`,
 * `locale.chosen`), which apply the choice at once, keep it on this device and save it to the
 * account's front settings (the app confirms with a toast). Keyboard trading and trade sounds
 * (issue 16) are the traderPrefs actor's switches, saved the same way.
 */
import { useSelector } from '@xstate/react';
import { LANGUAGES, type Language, type ThemeSetting } from '../../../contract/user';
import { resolveTheme } from '../../../machines/theme/theme.machine';
import { CheckboxField, SegmentedControl } from '../../components';
import { useT } from '../../i18n';
import { useChild, useLocaleActor, useThemeActor } from '../../shared/runtime';

export function SettingsSection() {
  const t = useT();
  const theme = useThemeActor();
  const locale = useLocaleActor();
  const setting = useSelector(theme, (s) => s.context.setting);
  const resolved = useSelector(theme, (s) => resolveTheme(s.context.setting, s.context.systemDark));
  const language = useSelector(locale, (s) => s.context.language);
  const prefs = useChild('traderPrefs');
  const shortcuts = useSelector(prefs, (s) => s?.context.shortcuts ?? true);
  const sounds = useSelector(prefs, (s) => s?.context.sounds ?? true);
  return (
    <div className="profile-settings">
      <div className="profile-setting">
        <div className="stack stack-sm">
          <h3 className="profile-subtitle" id="profile-theme-title">
            {t('profile.settings.theme')}
          </h3>
          <p className="text-sm text-muted">
            {setting === 'auto' ? t('profile.settings.theme_auto_hint', { theme: t(`nav.${resolved}`) }) : t('profile.settings.theme_hint')}
          </p>
        </div>
        <SegmentedControl<ThemeSetting>
          label={t('profile.settings.theme')}
          name="profile-theme"
          value={setting}
          onChange={(next) => theme.send({ type: 'theme.chosen', theme: next })}
          options={[
            { value: 'light', label: t('nav.light'), icon: 'sun' },
            { value: 'dark', label: t('nav.dark'), icon: 'moon' },
            { value: 'auto', label: t('nav.auto'), icon: 'settings' },
          ]}
        />
      </div>
      <div className="profile-setting">
        <div className="stack stack-sm">
          <h3 className="profile-subtitle">{t('profile.settings.language')}</h3>
          <p className="text-sm text-muted">{t('profile.settings.language_hint')}</p>
        </div>
        <SegmentedControl<Language>
          label={t('profile.settings.language')}
          name="profile-language"
          value={language}
          onChange={(next) => locale.send({ type: 'locale.chosen', language: next })}
          options={LANGUAGES.map((code) => ({ value: code, label: <span lang={code}>{t(`nav.language_names.${code}`)}</span> }))}
        />
      </div>
      <div className="profile-setting">
        <div className="stack stack-sm">
          <h3 className="profile-subtitle">{t('profile.settings.trading')}</h3>
          <p className="text-sm text-muted">{t('profile.settings.trading_hint')}</p>
        </div>
        <div className="stack stack-sm">
          <CheckboxField
            label={t('profile.settings.shortcuts')}
            hint={t('profile.settings.shortcuts_hint')}
            checked={shortcuts}
            onChange={(e) => prefs?.send({ type: 'traderPrefs.shortcutsSwitched', enabled: e.currentTarget.checked })}
          />
          <CheckboxField
            label={t('profile.settings.sounds')}
            hint={t('profile.settings.sounds_hint')}
            checked={sounds}
            onChange={(e) => prefs?.send({ type: 'traderPrefs.soundsSwitched', enabled: e.currentTarget.checked })}
          />
        </div>
      </div>
    </div>
  );
}
