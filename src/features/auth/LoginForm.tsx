/**
 * Log in with username or email and password; then, when the account has two-factor
 * authentication, the 6-digit code or ("Use a recovery code") one of the recovery codes. The session actor does the work: this form sends
 * `session.loginSubmitted` / `session.twoFactorSubmitted` and shows its state and error
 * ("Invalid credentials" as the server wrote it).
 */
import * as v from 'valibot';
import { useState } from 'react';
import { useSelector } from '@xstate/react';
import { useForm } from '@modular-forms/react';
import { useSignals } from '@preact/signals-react/runtime';
import { Link } from 'wouter';
import { Button, InfoChip } from '../../components';
import { useT } from '../../i18n';
import { useSessionActor } from '../../shared/runtime';
import { validateForm } from '../../shared/forms';
import { FormPasswordField, FormTextField, translateText } from '../../shared/form-fields';
import { RecoveryCodeFormSchema, type RecoveryCodeFormValues } from '../../../machines/security/security.schemas';

const LoginSchema = v.object({
  username: v.pipe(v.string('auth.login_required'), v.trim(), v.nonEmpty('auth.login_required'), v.maxLength(254, 'auth.login_required')),
  password: v.pipe(v.string('validation.password_required'), v.nonEmpty('validation.password_required'), v.maxLength(128, 'validation.password_max_length')),
});
type LoginValues = v.InferOutput<typeof LoginSchema>;

const CodeSchema = v.object({
  code: v.pipe(v.string('auth.code_invalid'), v.trim(), v.regex(/^\d{6}$/, 'auth.code_invalid')),
});
type CodeValues = v.InferOutput<typeof CodeSchema>;

/** The recovery-code form: 10 letters and digits, a dash and any case allowed (contract/profile.ts's RecoveryCodeSchema). */
function RecoveryCodeStep({ onUseApp }: { onUseApp: () => void }) {
  useSignals();
  const t = useT();
  const session = useSessionActor();
  const verifying = useSelector(session, (s) => s.matches({ loggedOut: 'verifyingTwoFactor' }));
  const error = useSelector(session, (s) => s.context.loginError);
  const [, { Form, Field }] = useForm<RecoveryCodeFormValues>({ validate: validateForm(RecoveryCodeFormSchema), validateOn: 'submit', revalidateOn: 'change' });
  return (
    <Form className="stack" onSubmit={(values) => session.send({ type: 'session.twoFactorSubmitted', code: values.code.trim(), recovery: true })}>
      <p className="text-muted">{t('auth.recovery_code_hint')}</p>
      {error ? <InfoChip kind="error" live>{translateText(t, error)}</InfoChip> : null}
      <Field name="code">
        {(field, props) => (
          <FormTextField {...props} field={field} label={t('auth.recovery_code')} autoComplete="off" autoCapitalize="none" spellCheck={false} maxLength={32} autoFocus required />
        )}
      </Field>
      <Button type="submit" variant="primary" fullWidth loading={verifying} loadingLabel={t('auth.verifying')}>
        {t('auth.verify')}
      </Button>
      <Button type="button" variant="ghost" fullWidth disabled={verifying} onClick={onUseApp}>
        {t('auth.use_authenticator_code')}
      </Button>
    </Form>
  );
}

function TwoFactorStep() {
  useSignals();
  const t = useT();
  const session = useSessionActor();
  const verifying = useSelector(session, (s) => s.matches({ loggedOut: 'verifyingTwoFactor' }));
  const error = useSelector(session, (s) => s.context.loginError);
  // Which second factor the person types: a view choice only (the session machine takes either).
  const [recovery, setRecovery] = useState(false);
  // Checked on submit, not on blur: the field is focused on arrival, and an error appearing as it
  // loses focus would move "Use a recovery code" and "Back" away from under the pointer mid-click.
  const [, { Form, Field }] = useForm<CodeValues>({ validate: validateForm(CodeSchema), validateOn: 'submit', revalidateOn: 'change' });
  if (recovery) return <RecoveryCodeStep onUseApp={() => setRecovery(false)} />;
  return (
    <Form className="stack" onSubmit={(values) => session.send({ type: 'session.twoFactorSubmitted', code: values.code.trim() })}>
      <p className="text-muted">{t('auth.two_factor_hint')}</p>
      {error ? <InfoChip kind="error" live>{translateText(t, error)}</InfoChip> : null}
      <Field name="code">
        {(field, props) => (
          <FormTextField
            {...props}
            field={field}
            label={t('auth.two_factor_code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            autoFocus
            required
          />
        )}
      </Field>
      <Button type="submit" variant="primary" fullWidth loading={verifying} loadingLabel={t('auth.verifying')}>
        {t('auth.verify')}
      </Button>
      <Button type="button" variant="ghost" fullWidth disabled={verifying} onClick={() => setRecovery(true)}>
        {t('auth.use_recovery_code')}
      </Button>
      <Button type="button" variant="ghost" fullWidth disabled={verifying} onClick={() => session.send({ type: 'session.twoFactorCancelled' })}>
        {t('common.back')}
      </Button>
    </Form>
  );
}

function CredentialsStep() {
  useSignals();
  const t = useT();
  const session = useSessionActor();
  const submitting = useSelector(session, (s) => s.matches({ loggedOut: 'submitting' }));
  const error = useSelector(session, (s) => s.context.loginError);
  const [, { Form, Field }] = useForm<LoginValues>({ validate: validateForm(LoginSchema), validateOn: 'blur', revalidateOn: 'change' });
  return (
    <Form
      className="stack"
      // Never a GET with the password in the address, should the form ever be submitted by the
      // browser itself (the /auth prerender before the app has started, docs/performance.md).
      method="post"
      onSubmit={(values) => session.send({ type: 'session.loginSubmitted', username: values.username.trim(), password: values.password })}
    >
      {error ? <InfoChip kind="error" live>{translateText(t, error)}</InfoChip> : null}
      <Field name="username">
        {(field, props) => <FormTextField {...props} field={field} label={t('auth.login_identifier')} autoComplete="username" required />}
      </Field>
      <Field name="password">
        {(field, props) => <FormPasswordField {...props} field={field} label={t('auth.password')} autoComplete="current-password" required />}
      </Field>
      <div className="cluster-end">
        <Link href="/reset-password-code" className="text-sm">
          {t('auth.forgot_password')}
        </Link>
      </div>
      <Button type="submit" variant="primary" fullWidth loading={submitting} loadingLabel={t('auth.logging_in')}>
        {t('auth.log_in')}
      </Button>
    </Form>
  );
}

export function LoginForm() {
  const session = useSessionActor();
  const twoFactor = useSelector(session, (s) => s.matches({ loggedOut: 'awaitingTwoFactor' }) || s.matches({ loggedOut: 'verifyingTwoFactor' }));
  return twoFactor ? <TwoFactorStep /> : <CredentialsStep />;
}
