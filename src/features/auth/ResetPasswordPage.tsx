/**
 * Password recovery. /reset-password-code (and /reset-password without a token): the email,
 * then the 6-digit code with the new password on one screen. /reset-password?token=... (the
 * emailed link): the new password only. The passwordReset machine is spawned for this flow by
 * the app and stopped when the page goes away.
 */
import { useEffect } from 'react';
import { useSelector } from '@xstate/react';
import { useForm } from '@modular-forms/react';
import { useSignals } from '@preact/signals-react/runtime';
import { Link, useSearch } from 'wouter';
import { NewPasswordFormSchema, ResetCodeFormSchema, ResetEmailSchema } from '../../../machines/password-reset/password-reset.schemas';
import { Button, InfoChip, Spinner } from '../../components';
import { useT } from '../../i18n';
import { useAppActor, useChild } from '../../shared/runtime';
import { validateForm } from '../../shared/forms';
import { AuthLayout } from './AuthLayout';
import { FormPasswordField, FormTextField, translateText } from '../../shared/form-fields';

type ResetRef = NonNullable<ReturnType<typeof useChild<'passwordReset'>>>;

function EmailStep({ actor, email, busy }: { actor: ResetRef; email: string; busy: boolean }) {
  useSignals();
  const t = useT();
  const [, { Form, Field }] = useForm<{ email: string }>({ initialValues: { email }, validate: validateForm(ResetEmailSchema), validateOn: 'blur', revalidateOn: 'change' });
  return (
    <Form className="stack" onSubmit={(v) => actor.send({ type: 'passwordReset.emailSubmitted', email: v.email.trim() })}>
      <p className="text-muted">{t('auth.reset_email_hint')}</p>
      <Field name="email">{(field, props) => <FormTextField {...props} field={field} type="email" label={t('auth.email')} autoComplete="email" required />}</Field>
      <Button type="submit" variant="primary" fullWidth loading={busy} loadingLabel={t('auth.sending_code')}>
        {t('auth.send_code')}
      </Button>
    </Form>
  );
}

function CodeStep({ actor, email, busy, resending }: { actor: ResetRef; email: string; busy: boolean; resending: boolean }) {
  useSignals();
  const t = useT();
  const [, { Form, Field }] = useForm<{ code: string; newPassword: string; passwordConfirmation: string }>({
    validate: validateForm(ResetCodeFormSchema),
    validateOn: 'blur',
    revalidateOn: 'change',
  });
  return (
    <Form
      className="stack"
      onSubmit={(v) => actor.send({ type: 'passwordReset.codeSubmitted', code: v.code.trim(), newPassword: v.newPassword, passwordConfirmation: v.passwordConfirmation })}
    >
      <p className="text-muted">{t('auth.reset_code_sent', { email })}</p>
      <Field name="code">
        {(field, props) => (
          <FormTextField {...props} field={field} label={t('auth.reset_code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} required />
        )}
      </Field>
      <Field name="newPassword">
        {(field, props) => <FormPasswordField {...props} field={field} label={t('auth.new_password')} hint={t('auth.password_hint')} autoComplete="new-password" required />}
      </Field>
      <Field name="passwordConfirmation">
        {(field, props) => <FormPasswordField {...props} field={field} label={t('auth.password_confirmation')} autoComplete="new-password" required />}
      </Field>
      <Button type="submit" variant="primary" fullWidth loading={busy} loadingLabel={t('auth.saving_password')}>
        {t('auth.save_password')}
      </Button>
      <div className="cluster-between">
        <Button type="button" variant="ghost" size="sm" disabled={busy} onClick={() => actor.send({ type: 'passwordReset.backRequested' })}>
          {t('auth.change_email')}
        </Button>
        <Button type="button" variant="ghost" size="sm" disabled={busy} loading={resending} onClick={() => actor.send({ type: 'passwordReset.codeResendRequested' })}>
          {t('auth.resend_code')}
        </Button>
      </div>
    </Form>
  );
}

function NewPasswordStep({ actor, busy }: { actor: ResetRef; busy: boolean }) {
  useSignals();
  const t = useT();
  const [, { Form, Field }] = useForm<{ newPassword: string; passwordConfirmation: string }>({
    validate: validateForm(NewPasswordFormSchema),
    validateOn: 'blur',
    revalidateOn: 'change',
  });
  return (
    <Form className="stack" onSubmit={(v) => actor.send({ type: 'passwordReset.passwordSubmitted', newPassword: v.newPassword, passwordConfirmation: v.passwordConfirmation })}>
      <Field name="newPassword">
        {(field, props) => <FormPasswordField {...props} field={field} label={t('auth.new_password')} hint={t('auth.password_hint')} autoComplete="new-password" required />}
      </Field>
      <Field name="passwordConfirmation">
        {(field, props) => <FormPasswordField {...props} field={field} label={t('auth.password_confirmation')} autoComplete="new-password" required />}
      </Field>
      <Button type="submit" variant="primary" fullWidth loading={busy} loadingLabel={t('auth.saving_password')}>
        {t('auth.save_password')}
      </Button>
    </Form>
  );
}

function Flow({ actor }: { actor: ResetRef }) {
  const t = useT();
  const state = useSelector(actor, (s) => s.value as string);
  const email = useSelector(actor, (s) => s.context.email);
  const error = useSelector(actor, (s) => s.context.error);
  return (
    <div className="stack">
      {error ? <InfoChip kind="error" live>{translateText(t, error)}</InfoChip> : null}
      {state === 'enteringEmail' || state === 'sendingCode' ? <EmailStep actor={actor} email={email} busy={state === 'sendingCode'} /> : null}
      {state === 'enteringCode' || state === 'verifyingCode' || state === 'resendingCode' || (state === 'savingPassword' && !actor.getSnapshot().context.linkToken) ? (
        <CodeStep actor={actor} email={email} busy={state === 'verifyingCode' || state === 'savingPassword'} resending={state === 'resendingCode'} />
      ) : null}
      {state === 'choosingPassword' || (state === 'savingPassword' && actor.getSnapshot().context.linkToken) ? (
        <NewPasswordStep actor={actor} busy={state === 'savingPassword'} />
      ) : null}
      {state === 'done' ? (
        <div className="stack">
          <InfoChip kind="success" live>
            {t('auth.password_changed')}
          </InfoChip>
          <Link href="/auth" className="btn btn-primary btn-md btn-block">
            {t('auth.log_in')}
          </Link>
        </div>
      ) : null}
      {state !== 'done' ? (
        <p className="text-sm">
          <Link href="/auth">{t('auth.back_to_login')}</Link>
        </p>
      ) : null}
    </div>
  );
}

export function ResetPasswordPage() {
  const t = useT();
  const app = useAppActor();
  const search = useSearch();
  const linkToken = new URLSearchParams(search).get('token');
  const reset = useChild('passwordReset');
  useEffect(() => {
    app.send({ type: 'flow.passwordResetStarted', linkToken });
    return () => app.send({ type: 'flow.passwordResetEnded' });
  }, [app, linkToken]);
  return <AuthLayout title={t('auth.reset_title')}>{reset ? <Flow actor={reset} /> : <Spinner />}</AuthLayout>;
}
