/**
 * Security: the password change (current, new, confirm; the one password rule of registration
 * and reset, checked on blur; other devices are signed out by the server, this one stays) and
 * two-factor authentication: off -> set up (scan the QR code or type the secret into an
 * authenticator app, then confirm with a code) -> on, with ten recovery codes shown once in a
 * dialog (copy, download as text, "I saved them"); how many are left, and a fresh set for a
 * current code; turning it off asks for a current code in a dialog. The security actor
 * does the work; this view shows its state and sends its events.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useSignals } from '@preact/signals-react/runtime';
import { useForm } from '@modular-forms/react';
import type { ActorRefFrom } from 'xstate';
import type { securityMachine } from '../../../machines/security/security.machine';
import {
  PasswordChangeFormSchema,
  TwoFactorCodeFormSchema,
  type PasswordChangeFormValues,
  type TwoFactorCodeFormValues,
} from '../../../machines/security/security.schemas';
import { isShownAtField } from '../../../machines/profile/feedback';
import { Button, CheckboxField, DateTime, IconButton, InfoChip, Modal, SkeletonText } from '../../components';
import { formatRecoveryCode } from '../../../contract/profile';
import { useT } from '../../i18n';
import { useCopy } from '../../shared/hooks';
import { validateForm } from '../../shared/forms';
import { FormPasswordField, FormTextField, translateText } from '../../shared/form-fields';

type SecurityActor = ActorRefFrom<typeof securityMachine>;

/** Server field names of the password change and the form's. */
const PASSWORD_FIELDS: Record<string, keyof PasswordChangeFormValues> = {
  old_password: 'oldPassword',
  new_password: 'newPassword',
  confirm_password: 'confirmPassword',
};

function PasswordForm({ actor }: { actor: SecurityActor }) {
  useSignals();
  const t = useT();
  const changing = useSelector(actor, (s) => s.matches({ password: 'changing' }));
  const error = useSelector(actor, (s) => s.context.passwordError);
  const fieldErrors = useSelector(actor, (s) => s.context.passwordFieldErrors);
  const [, { Form, Field }] = useForm<PasswordChangeFormValues>({
    validate: validateForm(PasswordChangeFormSchema),
    validateOn: 'blur',
    revalidateOn: 'change',
  });
  const serverError = (name: keyof PasswordChangeFormValues) =>
    fieldErrors.find((e) => e.field === name || PASSWORD_FIELDS[e.field] === name)?.message ?? null;
  return (
    <Form
      className="stack"
      onSubmit={(values) =>
        actor.send({ type: 'security.passwordChangeSubmitted', oldPassword: values.oldPassword, newPassword: values.newPassword, confirmPassword: values.confirmPassword })
      }
    >
      {/* A refusal about one field ("Current password is incorrect") shows at that field only. */}
      {error && !isShownAtField(error, fieldErrors) ? (
        <InfoChip kind="error" live>
          {translateText(t, error)}
        </InfoChip>
      ) : null}
      <Field name="oldPassword">
        {(field, props) => <FormPasswordField {...props} field={field} label={t('profile.security.old_password')} autoComplete="current-password" required serverError={serverError('oldPassword')} />}
      </Field>
      <div className="profile-form-grid">
        <Field name="newPassword">
          {(field, props) => (
            <FormPasswordField
              {...props}
              field={field}
              label={t('profile.security.new_password')}
              hint={t('auth.password_hint')}
              autoComplete="new-password"
              required
              serverError={serverError('newPassword')}
            />
          )}
        </Field>
        <Field name="confirmPassword">
          {(field, props) => (
            <FormPasswordField {...props} field={field} label={t('profile.security.confirm_password')} autoComplete="new-password" required serverError={serverError('confirmPassword')} />
          )}
        </Field>
      </div>
      <p className="text-sm text-muted">{t('profile.security.password_sessions_note')}</p>
      <div className="cluster-end cluster">
        <Button type="submit" variant="primary" icon="lock" loading={changing} loadingLabel={t('profile.security.changing_password')}>
          {t('profile.security.change_password')}
        </Button>
      </div>
    </Form>
  );
}

/** The base32 secret in groups of four, easier to type into an app. */
function groupSecret(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

function CodeForm({
  label,
  submitLabel,
  busyLabel,
  busy,
  codeError,
  onSubmit,
  variant = 'primary',
  autoFocus = false,
  secondary,
}: {
  label: string;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  codeError: string | null;
  onSubmit: (code: string) => void;
  variant?: 'primary' | 'danger';
  autoFocus?: boolean;
  secondary?: ReactNode;
}) {
  useSignals();
  const [, { Form, Field }] = useForm<TwoFactorCodeFormValues>({ validate: validateForm(TwoFactorCodeFormSchema), validateOn: 'blur', revalidateOn: 'change' });
  return (
    <Form className="stack" onSubmit={(values) => onSubmit(values.code)}>
      <Field name="code">
        {(field, props) => (
          <FormTextField
            {...props}
            field={field}
            label={label}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            pattern="[0-9 ]*"
            autoFocus={autoFocus}
            className="profile-code-field"
            inputClassName="profile-code-input tabular"
            required
            serverError={codeError}
          />
        )}
      </Field>
      <div className="cluster">
        <Button type="submit" variant={variant} loading={busy} loadingLabel={busyLabel}>
          {submitLabel}
        </Button>
        {secondary}
      </div>
    </Form>
  );
}

function TwoFactorSetupPanel({ actor }: { actor: SecurityActor }) {
  const t = useT();
  const copy = useCopy();
  const setup = useSelector(actor, (s) => s.context.setup);
  const verifying = useSelector(actor, (s) => s.matches({ twoFactor: 'verifying' }));
  const error = useSelector(actor, (s) => s.context.twoFactorError);
  const codeError = useSelector(actor, (s) => s.context.codeError);
  if (!setup) return null;
  return (
    <div className="profile-2fa-setup">
      <ol className="profile-steps">
        <li>
          <p className="profile-step-title">{t('profile.security.step_install')}</p>
          <p className="text-sm text-muted">{t('profile.security.step_install_hint')}</p>
        </li>
        <li>
          <p className="profile-step-title">{t('profile.security.step_scan')}</p>
          <div className="profile-qr-row">
            <img className="profile-qr" src={setup.qr_code} width={168} height={168} alt={t('profile.security.qr_alt')} />
            <div className="stack-sm stack">
              <span className="text-sm text-muted">{t('profile.security.secret_label')}</span>
              <div className="profile-secret-row">
                <code className="profile-secret" data-testid="two-factor-secret" aria-label={t('profile.security.secret_label')}>
                  {groupSecret(setup.secret)}
                </code>
                <IconButton icon="copy" size="sm" label={t('profile.security.copy_secret')} onClick={() => void copy(setup.secret)} />
              </div>
              <span className="text-xs text-muted">{t('profile.security.secret_hint')}</span>
              <span className="text-xs text-muted">
                {t('profile.security.setup_expires')} <DateTime value={setup.expires_at} format="HH:mm" />
              </span>
            </div>
          </div>
        </li>
        <li>
          <p className="profile-step-title">{t('profile.security.step_code')}</p>
          {error ? (
            <InfoChip kind="error" live>
              {translateText(t, error)}
            </InfoChip>
          ) : null}
          <CodeForm
            label={t('profile.security.code_label')}
            submitLabel={t('profile.security.verify_and_enable')}
            busyLabel={t('profile.security.verifying')}
            busy={verifying}
            codeError={codeError}
            autoFocus
            onSubmit={(code) => actor.send({ type: 'security.twoFactorCodeSubmitted', code })}
            secondary={
              <>
                <Button variant="ghost" disabled={verifying} onClick={() => actor.send({ type: 'security.twoFactorEnableRequested' })}>
                  {t('profile.security.new_secret')}
                </Button>
                <Button variant="ghost" disabled={verifying} onClick={() => actor.send({ type: 'security.twoFactorSetupCancelled' })}>
                  {t('common.cancel')}
                </Button>
              </>
            }
          />
        </li>
      </ol>
    </div>
  );
}

/** A step that needs a current authenticator code: turning two-factor off, new recovery codes. */
interface CodeStep {
  confirming: 'confirmingDisable' | 'confirmingRegenerate';
  running: 'disabling' | 'regenerating';
  keys: { title: string; hint: string; submit: string; busy: string };
  cancel: 'security.twoFactorDisableCancelled' | 'security.recoveryCodesRegenerateCancelled';
  submit: 'security.twoFactorDisableSubmitted' | 'security.recoveryCodesRegenerateSubmitted';
  variant?: 'danger';
}

const DISABLE_STEP: CodeStep = {
  confirming: 'confirmingDisable',
  running: 'disabling',
  keys: { title: 'profile.security.disable_title', hint: 'profile.security.disable_hint', submit: 'profile.security.disable', busy: 'profile.security.disabling' },
  cancel: 'security.twoFactorDisableCancelled',
  submit: 'security.twoFactorDisableSubmitted',
  variant: 'danger',
};

const REGENERATE_STEP: CodeStep = {
  confirming: 'confirmingRegenerate',
  running: 'regenerating',
  keys: { title: 'profile.security.regenerate_title', hint: 'profile.security.regenerate_hint', submit: 'profile.security.regenerate', busy: 'profile.security.regenerating' },
  cancel: 'security.recoveryCodesRegenerateCancelled',
  submit: 'security.recoveryCodesRegenerateSubmitted',
};

function CodeStepDialog({ actor, step }: { actor: SecurityActor; step: CodeStep }) {
  const t = useT();
  const open = useSelector(actor, (s) => s.matches({ twoFactor: step.confirming }) || s.matches({ twoFactor: step.running }));
  const busy = useSelector(actor, (s) => s.matches({ twoFactor: step.running }));
  const error = useSelector(actor, (s) => s.context.twoFactorError);
  const codeError = useSelector(actor, (s) => s.context.codeError);
  return (
    <Modal
      open={open}
      onOpenChange={(next) => (next ? undefined : actor.send({ type: step.cancel }))}
      title={t(step.keys.title)}
      description={t(step.keys.hint)}
      dismissible={!busy}
      size="sm"
    >
      <div className="stack">
        {error ? (
          <InfoChip kind="error" live>
            {translateText(t, error)}
          </InfoChip>
        ) : null}
        <CodeForm
          label={t('profile.security.code_label')}
          submitLabel={t(step.keys.submit)}
          busyLabel={t(step.keys.busy)}
          busy={busy}
          codeError={codeError}
          variant={step.variant}
          autoFocus
          onSubmit={(code) => actor.send({ type: step.submit, code })}
          secondary={
            <Button variant="ghost" disabled={busy} onClick={() => actor.send({ type: step.cancel })}>
              {t('common.cancel')}
            </Button>
          }
        />
      </div>
    </Modal>
  );
}

/** The recovery codes as a text file: one code a line, with what they are for. */
function recoveryFile(codes: string[], heading: string): string {
  return `data:text/plain;charset=utf-8,${encodeURIComponent([heading, '', ...codes.map(formatRecoveryCode), ''].join('\n'))}`;
}

function RecoveryCodesDialog({ actor }: { actor: SecurityActor }) {
  const t = useT();
  const copy = useCopy();
  const codes = useSelector(actor, (s) => (s.matches({ twoFactor: 'showingCodes' }) ? s.context.recoveryCodes : null));
  const [saved, setSaved] = useState(false);
  const open = codes !== null;
  useEffect(() => {
    if (!open) setSaved(false);
  }, [open]);
  const list = codes ?? [];
  return (
    <Modal open={open} onOpenChange={() => undefined} title={t('profile.security.recovery_title')} description={t('profile.security.recovery_hint')} dismissible={false} size="sm">
      <div className="stack">
        <ol className="profile-recovery-codes" aria-label={t('profile.security.recovery_list')} data-testid="recovery-codes">
          {list.map((code) => (
            <li key={code}>
              <code className="tabular">{formatRecoveryCode(code)}</code>
            </li>
          ))}
        </ol>
        <div className="cluster">
          <Button variant="secondary" icon="copy" onClick={() => void copy(list.map(formatRecoveryCode).join('\n'))}>
            {t('profile.security.recovery_copy')}
          </Button>
          <a className="btn btn-secondary" href={recoveryFile(list, t('profile.security.recovery_file_heading'))} download="tradeterminal-recovery-codes.txt">
            {t('profile.security.recovery_download')}
          </a>
        </div>
        <CheckboxField label={t('profile.security.recovery_saved_check')} checked={saved} onChange={(e) => setSaved(e.currentTarget.checked)} />
        <div className="cluster-end cluster">
          <Button variant="primary" disabled={!saved} onClick={() => actor.send({ type: 'security.recoveryCodesSaved' })}>
            {t('profile.security.recovery_saved')}
          </Button>
        </div>
      </div>
    </Modal>
  );
}

/** How many recovery codes are left, and a fresh set. */
function RecoveryCodesRow({ actor }: { actor: SecurityActor }) {
  const t = useT();
  const remaining = useSelector(actor, (s) => s.context.recoveryRemaining);
  return (
    <div className="profile-row">
      <div className="stack stack-sm">
        <h4 className="profile-subtitle">{t('profile.security.recovery_codes')}</h4>
        <p className="text-sm text-muted" data-testid="recovery-remaining">
          {remaining === null ? t('profile.security.recovery_unknown') : t('profile.security.recovery_left', { count: remaining })}
        </p>
      </div>
      <Button variant="secondary" onClick={() => actor.send({ type: 'security.recoveryCodesRegenerateRequested' })}>
        {t('profile.security.regenerate_open')}
      </Button>
    </div>
  );
}

function TwoFactorPanel({ actor }: { actor: SecurityActor }) {
  const t = useT();
  const on = useSelector(actor, (s) => s.hasTag('on'));
  const settingUp = useSelector(actor, (s) => s.matches({ twoFactor: 'awaitingCode' }) || s.matches({ twoFactor: 'verifying' }));
  const starting = useSelector(actor, (s) => s.matches({ twoFactor: 'starting' }));
  const error = useSelector(actor, (s) => s.context.twoFactorError);
  const showError = error && !settingUp && !on;
  return (
    <div className="stack">
      <div className="profile-row">
        <div className="stack stack-sm">
          <div className="cluster">
            <h3 className="profile-subtitle">{t('profile.security.two_factor')}</h3>
            <InfoChip kind={on ? 'success' : 'warning'} compact>
              {on ? t('profile.security.two_factor_on') : t('profile.security.two_factor_off')}
            </InfoChip>
          </div>
          <p className="text-sm text-muted">{on ? t('profile.security.two_factor_on_hint') : t('profile.security.two_factor_off_hint')}</p>
        </div>
        {on ? (
          <Button variant="secondary" onClick={() => actor.send({ type: 'security.twoFactorDisableRequested' })}>
            {t('profile.security.disable')}
          </Button>
        ) : settingUp ? null : (
          <Button variant="primary" icon="shield" loading={starting} loadingLabel={t('profile.security.starting')} onClick={() => actor.send({ type: 'security.twoFactorEnableRequested' })}>
            {t('profile.security.enable')}
          </Button>
        )}
      </div>
      {showError ? (
        <InfoChip kind="error" live>
          {translateText(t, error)}
        </InfoChip>
      ) : null}
      {settingUp ? <TwoFactorSetupPanel actor={actor} /> : null}
      {on ? <RecoveryCodesRow actor={actor} /> : null}
      <CodeStepDialog actor={actor} step={DISABLE_STEP} />
      <CodeStepDialog actor={actor} step={REGENERATE_STEP} />
      <RecoveryCodesDialog actor={actor} />
    </div>
  );
}

export function SecuritySection({ actor }: { actor: SecurityActor | undefined }) {
  const t = useT();
  const changed = useSelector(actor, (s) => s?.matches({ password: 'changed' }) ?? false);
  // A fresh (empty) password form after each successful change.
  const [formKey, setFormKey] = useState(0);
  const wasChanged = useRef(false);
  useEffect(() => {
    if (changed && !wasChanged.current) setFormKey((k) => k + 1);
    wasChanged.current = changed;
  }, [changed]);
  if (!actor) return <SkeletonText lines={4} />;
  return (
    <div className="stack-lg stack">
      <div className="stack">
        <h3 className="profile-subtitle">{t('profile.security.password')}</h3>
        {changed ? (
          <InfoChip kind="success" live>
            {t('profile.security.password_changed')}
          </InfoChip>
        ) : null}
        <PasswordForm key={formKey} actor={actor} />
      </div>
      <hr />
      <TwoFactorPanel actor={actor} />
    </div>
  );
}
