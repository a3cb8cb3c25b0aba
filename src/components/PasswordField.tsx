/**
 * PasswordField: a TextField whose text can be shown and hidden with a toggle button
 * (named "Show password"/"Hide password", aria-pressed). Same props as TextField.
 */
import { useState } from 'react';
import { useT } from '../i18n';
import { IconButton } from './Button';
import { TextField, type TextFieldProps } from './TextField';

export type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'trailing'>;

export function PasswordField(props: PasswordFieldProps) {
  const t = useT();
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      autoComplete="current-password"
      spellCheck={false}
      autoCapitalize="none"
      {...props}
      type={visible ? 'text' : 'password'}
      trailing={
        <IconButton
          icon={visible ? 'eye-off' : 'eye'}
          label={visible ? t('components.password.hide') : t('components.password.show')}
          pressed={visible}
          size="sm"
          className="field-toggle"
          onClick={() => setVisible((v) => !v)}
          disabled={props.disabled}
        />
      }
    />
  );
}
