/**
 * Registration in three steps (basic info, personal details, account settings), each checked
 * on blur with the same schemas the registration machine guards its steps with. The machine
 * is spawned for this flow by the app (flow.registrationStarted) and stopped when the form
 * goes away; it keeps each step's values so Back shows them again, and on success hands the
 * new session to the session actor (the guard then opens /trading).
 */
import { useEffect } from 'react';
import { useSelector } from '@xstate/react';
import { useForm } from '@modular-forms/react';
import { useSignals } from '@preact/signals-react/runtime';
import { Link } from 'wouter';
import {
  AccountSettingsSchema,
  BasicInfoSchema,
  PersonalDetailsSchema,
  type RegistrationDraft,
} from '../../../machines/registration/registration.schemas';
import { CURRENCIES } from '../../../contract/currencies';
import { Button, Icon, InfoChip, Spinner } from '../../components';
import { useFormat, useT } from '../../i18n';
import { useAppActor, useChild } from '../../shared/runtime';
import { useLocaleLanguage } from '../../shared/hooks';
import { validateForm } from '../../shared/forms';
import { FormCheckboxField, FormPasswordField, FormSelectField, FormTextField, translateText } from '../../shared/form-fields';
import { collectTracking } from './tracking';

type RegistrationRef = NonNullable<ReturnType<typeof useChild<'registration'>>>;
type FieldErrors = { field: string; message: string }[];

const STEPS = ['basicInfo', 'personalDetails', 'accountSettings'] as const;

function serverError(errors: FieldErrors, field: string): string | null {
  return errors.find((e) => e.field === field)?.message ?? null;
}

function StepIndicator({ current }: { current: number }) {
  const t = useT();
  return (
    <ol className="steps" aria-label={t('auth.registration_steps')}>
      {STEPS.map((step, i) => (
        <li key={step} className="step" data-state={i < current ? 'done' : i === current ? 'current' : 'todo'} aria-current={i === current ? 'step' : undefined}>
          <span className="step-number" aria-hidden="true">
            {i + 1}
          </span>
          {/* On small screens only the current step's name is drawn; the others stay readable. */}
          <span className={i === current ? 'step-label' : 'step-label visually-hidden-tablet'}>{t(`auth.step_${step}`)}</span>
        </li>
      ))}
    </ol>
  );
}

function BasicInfoStep({ actor, values, errors }: { actor: RegistrationRef; values: RegistrationDraft['basicInfo']; errors: FieldErrors }) {
  useSignals();
  const t = useT();
  const [, { Form, Field }] = useForm<RegistrationDraft['basicInfo']>({
    initialValues: values,
    validate: validateForm(BasicInfoSchema),
    validateOn: 'blur',
    revalidateOn: 'change',
  });
  return (
    <Form className="stack" onSubmit={(v) => actor.send({ type: 'registration.stepSubmitted', values: v })}>
      <Field name="username">
        {(field, props) => (
          <FormTextField {...props} field={field} serverError={serverError(errors, 'username')} label={t('auth.username')} hint={t('auth.username_hint')} autoComplete="username" required />
        )}
      </Field>
      <Field name="email">
        {(field, props) => <FormTextField {...props} field={field} serverError={serverError(errors, 'email')} type="email" label={t('auth.email')} autoComplete="email" required />}
      </Field>
      <Field name="password">
        {(field, props) => (
          <FormPasswordField {...props} field={field} serverError={serverError(errors, 'password')} label={t('auth.password')} hint={t('auth.password_hint')} autoComplete="new-password" required />
        )}
      </Field>
      <Field name="password_confirmation">
        {(field, props) => <FormPasswordField {...props} field={field} label={t('auth.password_confirmation')} autoComplete="new-password" required />}
      </Field>
      <Button type="submit" variant="primary" fullWidth iconEnd={<Icon name="chevron" direction="right" />}>
        {t('common.next')}
      </Button>
    </Form>
  );
}

function PersonalDetailsStep({ actor, values, errors }: { actor: RegistrationRef; values: RegistrationDraft['personalDetails']; errors: FieldErrors }) {
  useSignals();
  const t = useT();
  const [, { Form, Field }] = useForm<RegistrationDraft['personalDetails']>({
    initialValues: values,
    validate: validateForm(PersonalDetailsSchema),
    validateOn: 'blur',
    revalidateOn: 'change',
  });
  return (
    <Form className="stack" onSubmit={(v) => actor.send({ type: 'registration.stepSubmitted', values: v })}>
      <Field name="first_name">
        {(field, props) => <FormTextField {...props} field={field} serverError={serverError(errors, 'first_name')} label={t('auth.first_name')} autoComplete="given-name" required />}
      </Field>
      <Field name="last_name">
        {(field, props) => <FormTextField {...props} field={field} serverError={serverError(errors, 'last_name')} label={t('auth.last_name')} autoComplete="family-name" required />}
      </Field>
      <Field name="phone">
        {(field, props) => (
          <FormTextField {...props} field={field} serverError={serverError(errors, 'phone')} type="tel" label={t('auth.phone')} hint={t('auth.phone_hint')} autoComplete="tel" required />
        )}
      </Field>
      <div className="cluster-between">
        <Button type="button" variant="ghost" onClick={() => actor.send({ type: 'registration.backRequested' })}>
          {t('common.back')}
        </Button>
        <Button type="submit" variant="primary" iconEnd={<Icon name="chevron" direction="right" />}>
          {t('common.next')}
        </Button>
      </div>
    </Form>
  );
}

function AccountSettingsStep({
  actor,
  values,
  errors,
  submitting,
}: {
  actor: RegistrationRef;
  values: RegistrationDraft['accountSettings'];
  errors: FieldErrors;
  submitting: boolean;
}) {
  useSignals();
  const format = useFormat();
  const t = useT();
  const [, { Form, Field }] = useForm<RegistrationDraft['accountSettings']>({
    initialValues: { ...values, currency: values.currency || 'USD' },
    validate: validateForm(AccountSettingsSchema),
    validateOn: 'blur',
    revalidateOn: 'change',
  });
  return (
    <Form className="stack" onSubmit={(v) => actor.send({ type: 'registration.stepSubmitted', values: v })}>
      <Field name="currency">
        {(field, props) => (
          <FormSelectField
            {...props}
            field={field}
            serverError={serverError(errors, 'currency')}
            label={t('auth.currency')}
            hint={t('auth.currency_hint')}
            options={CURRENCIES.map((c) => ({ value: c.iso_code, label: format.currencyLabel(c.iso_code, c.name) }))}
            required
          />
        )}
      </Field>
      <Field name="terms_accepted" type="boolean">
        {(field, props) => (
          <FormCheckboxField
            {...props}
            field={field}
            serverError={serverError(errors, 'terms_accepted')}
            label={
              <span>
                {t('auth.terms_prefix')}{' '}
                <Link href="/rules" target="_blank">
                  {t('nav.rules')}
                </Link>{' '}
                {t('auth.terms_and')}{' '}
                <Link href="/privacy" target="_blank">
                  {t('nav.privacy')}
                </Link>
                {t('auth.terms_suffix')}
              </span>
            }
          />
        )}
      </Field>
      <div className="cluster-between">
        <Button type="button" variant="ghost" disabled={submitting} onClick={() => actor.send({ type: 'registration.backRequested' })}>
          {t('common.back')}
        </Button>
        <Button type="submit" variant="primary" loading={submitting} loadingLabel={t('auth.creating_account')}>
          {t('auth.create_account')}
        </Button>
      </div>
    </Form>
  );
}

function Wizard({ actor }: { actor: RegistrationRef }) {
  const t = useT();
  const state = useSelector(actor, (s) => s.value as string);
  const values = useSelector(actor, (s) => s.context.values);
  const error = useSelector(actor, (s) => s.context.error);
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors);
  const step = state === 'submitting' || state === 'registered' ? 2 : Math.max(0, STEPS.indexOf(state as (typeof STEPS)[number]));
  return (
    <div className="stack">
      <StepIndicator current={step} />
      <h2 className="auth-step-title">{t(`auth.step_${STEPS[step]}`)}</h2>
      {error ? <InfoChip kind="error" live>{translateText(t, error)}</InfoChip> : null}
      {state === 'basicInfo' ? <BasicInfoStep actor={actor} values={values.basicInfo} errors={fieldErrors} /> : null}
      {state === 'personalDetails' ? <PersonalDetailsStep actor={actor} values={values.personalDetails} errors={fieldErrors} /> : null}
      {state === 'accountSettings' || state === 'submitting' ? (
        <AccountSettingsStep actor={actor} values={values.accountSettings} errors={fieldErrors} submitting={state === 'submitting'} />
      ) : null}
      {state === 'registered' ? <Spinner label={t('auth.creating_account')} /> : null}
    </div>
  );
}

export function RegisterWizard() {
  const app = useAppActor();
  const language = useLocaleLanguage();
  const registration = useChild('registration');
  useEffect(() => {
    app.send({ type: 'flow.registrationStarted', tracking: collectTracking(), language });
    return () => app.send({ type: 'flow.registrationEnded' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the flow starts once per mount; a language change later does not restart it.
  }, [app]);
  return registration ? <Wizard actor={registration} /> : <Spinner />;
}
