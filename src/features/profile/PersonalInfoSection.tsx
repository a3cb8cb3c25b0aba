/**
 * Personal information: the form of what the user may change (the fixed facts, username and
 * email, are in the page's header card): name, nickname, phone, second email, birthday, gender,
 * citizenship, time zone, passport and notification channels. Checked on blur with the same
 * rules as the server (profile.schemas.ts); Save sends only what changed. A server refusal is
 * shown above the form as the server wrote it, with its per-field details next to the fields.
 * After a successful save the form starts again from the saved profile.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { useSignals } from '@preact/signals-react/runtime';
import { reset, setValue, useForm } from '@modular-forms/react';
import type { ActorRefFrom } from 'xstate';
import type { Profile } from '../../../contract/profile';
import { GENDERS } from '../../../contract/profile';
import type { profileMachine } from '../../../machines/profile/profile.machine';
import { isShownAtField, PROFILE_FALLBACKS } from '../../../machines/profile/feedback';
import { personalDataPatch, personalFormSchema, personalFormValues, type PersonalFormValues } from '../../../machines/profile/profile.schemas';
import { Button, cx, Icon, InfoChip, SkeletonText } from '../../components';
import { useLanguage, useT } from '../../i18n';
import { validateForm } from '../../shared/forms';
import { FormCheckboxField, FormDateField, FormSelectField, FormTextField, translateText } from '../../shared/form-fields';
import { browserTimeZone, useCountryChoices, useTimeZoneChoices } from './hooks';

type ProfileActor = ActorRefFrom<typeof profileMachine>;

function todayIso(): string {
  return new Date().toISOString().slice(0, 10);
}

function PersonalForm({ actor, profile }: { actor: ProfileActor; profile: Profile }) {
  useSignals();
  const t = useT();
  const language = useLanguage();
  const countries = useCountryChoices(language);
  const zones = useTimeZoneChoices();
  const saving = useSelector(actor, (s) => s.matches({ ready: 'saving' }));
  const saveError = useSelector(actor, (s) => s.context.saveError);
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors);
  const schema = useMemo(() => personalFormSchema({ primaryEmail: profile.email }), [profile.email]);
  const [form, { Form, Field }] = useForm<PersonalFormValues>({
    initialValues: personalFormValues(profile),
    validate: validateForm(schema),
    validateOn: 'blur',
    revalidateOn: 'change',
  });
  const serverError = (name: string) => fieldErrors.find((e) => e.field === name || e.field.startsWith(`${name}.`))?.message ?? null;
  const myZone = browserTimeZone();
  const dirty = form.dirty.value;
  // A refusal about one field ("Nickname is already taken") is shown at that field only, and
  // the first such field gets focus (the Save bar may be far below it).
  const banner = saveError && !isShownAtField(saveError, fieldErrors) ? saveError : null;
  const formRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (fieldErrors.length === 0) return;
    const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    invalid?.focus();
    invalid?.scrollIntoView?.({ block: 'center' });
  }, [fieldErrors]);

  return (
    <div ref={formRef}>
      <Form
        className="stack"
        aria-describedby={banner ? 'personal-save-error' : undefined}
        onSubmit={(values) => {
          const patch = personalDataPatch(values as PersonalFormValues, profile);
          if (Object.keys(patch).length > 0) actor.send({ type: 'profile.saveRequested', patch });
        }}
      >
        {banner ? (
          <InfoChip kind="error" live id="personal-save-error">
            {translateText(t, banner)}
          </InfoChip>
        ) : null}

        <fieldset className="profile-fieldset">
          <legend className="profile-legend">{t('profile.personal.identity')}</legend>
          <div className="profile-form-grid">
            <Field name="first_name">
              {(field, props) => <FormTextField {...props} field={field} label={t('profile.personal.first_name')} autoComplete="given-name" maxLength={64} required serverError={serverError('first_name')} />}
            </Field>
            <Field name="last_name">
              {(field, props) => <FormTextField {...props} field={field} label={t('profile.personal.last_name')} autoComplete="family-name" maxLength={64} required serverError={serverError('last_name')} />}
            </Field>
            <Field name="nickname">
              {(field, props) => (
                <FormTextField {...props} field={field} label={t('profile.personal.nickname')} hint={t('profile.personal.nickname_hint')} autoComplete="nickname" maxLength={32} serverError={serverError('nickname')} />
              )}
            </Field>
            <Field name="birthday">
              {(field, props) => <FormDateField {...props} field={field} label={t('profile.personal.birthday')} max={todayIso()} autoComplete="bday" serverError={serverError('birthday')} />}
            </Field>
            <Field name="gender">
              {(field, props) => (
                <FormSelectField
                  {...props}
                  field={field}
                  label={t('profile.personal.gender')}
                  placeholder={t('profile.personal.not_specified')}
                  options={GENDERS.map((g) => ({ value: g, label: t(`profile.personal.genders.${g}`) }))}
                  serverError={serverError('gender')}
                />
              )}
            </Field>
            <Field name="citizenship">
              {(field, props) => (
                <FormSelectField {...props} field={field} label={t('profile.personal.citizenship')} placeholder={t('profile.personal.not_specified')} options={countries} autoComplete="country" serverError={serverError('citizenship')} />
              )}
            </Field>
          </div>
        </fieldset>

        <fieldset className="profile-fieldset">
          <legend className="profile-legend">{t('profile.personal.contacts')}</legend>
          <div className="profile-form-grid">
            <Field name="phone">
              {(field, props) => <FormTextField {...props} field={field} type="tel" label={t('profile.personal.phone')} autoComplete="tel" inputMode="tel" maxLength={32} required serverError={serverError('phone')} />}
            </Field>
            <Field name="second_email">
              {(field, props) => (
                <FormTextField
                  {...props}
                  field={field}
                  type="email"
                  label={t('profile.personal.second_email')}
                  hint={t('profile.personal.second_email_hint')}
                  autoComplete="email"
                  maxLength={254}
                  serverError={serverError('second_email')}
                />
              )}
            </Field>
            <div className="profile-timezone">
              <Field name="timezone">
                {(field, props) => (
                  <FormTextField
                    {...props}
                    field={field}
                    label={t('profile.personal.timezone')}
                    hint={t('profile.personal.timezone_hint')}
                    list="profile-timezones"
                    autoComplete="off"
                    spellCheck={false}
                    maxLength={64}
                    leading={<Icon name="globe" size={16} />}
                    serverError={serverError('timezone')}
                  />
                )}
              </Field>
              <datalist id="profile-timezones">
                {zones.map((zone) => (
                  <option key={zone.value} value={zone.value}>
                    {zone.label}
                  </option>
                ))}
              </datalist>
              {myZone ? (
                <Button variant="ghost" size="sm" className="profile-inline-action" onClick={() => setValue(form, 'timezone', myZone, { shouldValidate: true })}>
                  {t('profile.personal.use_my_timezone', { zone: myZone.replace(/_/g, ' ') })}
                </Button>
              ) : null}
            </div>
          </div>
        </fieldset>

        <fieldset className="profile-fieldset">
          <legend className="profile-legend">{t('profile.personal.passport')}</legend>
          <div className="profile-form-grid profile-form-grid-3">
            <Field name="passport_number">
              {(field, props) => <FormTextField {...props} field={field} label={t('profile.personal.passport_number')} maxLength={32} autoComplete="off" serverError={serverError('passport_number')} />}
            </Field>
            <Field name="passport_issued_by">
              {(field, props) => <FormTextField {...props} field={field} label={t('profile.personal.passport_issued_by')} maxLength={200} autoComplete="off" serverError={serverError('passport_issued_by')} />}
            </Field>
            <Field name="passport_issue_date">
              {(field, props) => <FormDateField {...props} field={field} label={t('profile.personal.passport_issue_date')} max={todayIso()} serverError={serverError('passport_issue_date')} />}
            </Field>
          </div>
        </fieldset>

        <fieldset className="profile-fieldset">
          <legend className="profile-legend">{t('profile.personal.notifications')}</legend>
          <p className="text-sm text-muted">{t('profile.personal.notifications_hint')}</p>
          <div className="profile-checks">
            <Field name="notify_email" type="boolean">
              {(field, props) => <FormCheckboxField {...props} field={field} label={t('profile.personal.notify_email')} serverError={serverError('notifications')} />}
            </Field>
            <Field name="notify_push" type="boolean">
              {(field, props) => <FormCheckboxField {...props} field={field} label={t('profile.personal.notify_push')} />}
            </Field>
            <Field name="notify_sms" type="boolean">
              {(field, props) => <FormCheckboxField {...props} field={field} label={t('profile.personal.notify_sms')} />}
            </Field>
          </div>
        </fieldset>

        {/* Sticky at the bottom of the screen only while there is something to save; one row on phones. */}
        <div className={cx('profile-form-actions', dirty && 'profile-form-actions-sticky')}>
          {/* On small screens the bar itself says there are changes; the sentence stays for screen readers. */}
          <span className="profile-unsaved text-sm text-muted visually-hidden-tablet" aria-live="polite">
            {dirty ? t('profile.personal.unsaved') : ''}
          </span>
          <div className="profile-form-buttons cluster">
            <Button variant="ghost" disabled={!dirty || saving} onClick={() => reset(form)}>
              <span className="profile-label-long">{t('profile.personal.discard')}</span>
              <span className="profile-label-short">{t('profile.personal.discard_short')}</span>
            </Button>
            <Button type="submit" variant="primary" icon="check" disabled={!dirty} loading={saving} loadingLabel={t('profile.personal.saving')}>
              {t('profile.personal.save')}
            </Button>
          </div>
        </div>
      </Form>
    </div>
  );
}

/** A key per profile value, so the form restarts exactly when a save brought a new one. */
function useProfileVersion(profile: Profile | null): string {
  return useMemo(() => (profile ? JSON.stringify(profile) : ''), [profile]);
}

export function PersonalInfoSection({ actor }: { actor: ProfileActor | undefined }) {
  const t = useT();
  const profile = useSelector(actor, (s) => s?.context.profile ?? null);
  const failed = useSelector(actor, (s) => s?.matches('failed') ?? false);
  const loadError = useSelector(actor, (s) => s?.context.loadError ?? null);
  const version = useProfileVersion(profile);

  if (failed) {
    return (
      <InfoChip
        kind="error"
        live
        title={t('profile.errors.load_failed')}
        action={
          <Button size="sm" icon="refresh" onClick={() => actor?.send({ type: 'profile.retryRequested' })}>
            {t('common.retry')}
          </Button>
        }
      >
        {loadError && loadError !== PROFILE_FALLBACKS.load ? translateText(t, loadError) : t('common.try_again_later')}
      </InfoChip>
    );
  }
  if (!actor || !profile) {
    return (
      <div className="stack" aria-busy="true">
        <span className="visually-hidden">{t('common.loading')}</span>
        <SkeletonText lines={2} />
        <div className="profile-form-grid">
          {Array.from({ length: 8 }, (_, i) => (
            <SkeletonText key={i} lines={2} />
          ))}
        </div>
      </div>
    );
  }
  return <PersonalForm key={version} actor={actor} profile={profile} />;
}
