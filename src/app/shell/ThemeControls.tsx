/**
 * Theme controls: the header's one-click switch (dark <-> light) and the three-way choice
 * (light, dark, auto) of the menus and the profile settings.
 */
import { useSelector } from '@xstate/react';
import { resolveTheme } from '../../../machines/theme/theme.machine';
import type { ThemeSetting } from '../../../contract/user';
import { IconButton, SegmentedControl } from '../../components';
import { useT } from '../../i18n';
import { useThemeActor } from '../../shared/runtime';

export function useThemeSetting() {
  const theme = useThemeActor();
  const setting = useSelector(theme, (s) => s.context.setting);
  const resolved = useSelector(theme, (s) => resolveTheme(s.context.setting, s.context.systemDark));
  return { setting, resolved, actor: theme };
}

export function ThemeToggle() {
  const t = useT();
  const { resolved, actor } = useThemeSetting();
  const toLight = resolved === 'dark';
  return (
    <IconButton
      icon={toLight ? 'sun' : 'moon'}
      label={toLight ? t('shell.switch_to_light') : t('shell.switch_to_dark')}
      onClick={() => actor.send({ type: 'theme.toggled' })}
    />
  );
}

export function ThemeChoice({ showLabel = false }: { showLabel?: boolean }) {
  const t = useT();
  const { setting, actor } = useThemeSetting();
  return (
    <SegmentedControl<ThemeSetting>
      label={t('nav.theme')}
      showLabel={showLabel}
      size="sm"
      value={setting}
      onChange={(theme) => actor.send({ type: 'theme.chosen', theme })}
      options={[
        { value: 'light', label: t('nav.light'), icon: 'sun' },
        { value: 'dark', label: t('nav.dark'), icon: 'moon' },
        { value: 'auto', label: t('nav.auto') },
      ]}
    />
  );
}
