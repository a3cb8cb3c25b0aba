/**
 * The personal-data form's rules, mirroring the server's (contract/profile.ts,
 * personalDataSchema): names and phone as at registration; a valid second email that differs
 * from the main one; a real birthday making the user 18 to 120 years old; gender male, female
 * or other; an IANA time zone; an ISO country; a nickname of 3-32 letters, digits or _; passport
 * number, issuer and an issue date that is not in the future and after the birthday. Every
 * optional field may be left empty (empty clears it). Messages are locale keys.
 *
 * The form works on strings and booleans (what inputs hold); personalFormValues() fills it from
 * the profile and personalDataPatch() turns it into the partial update the server takes: only
 * the fields that changed, empty optional fields as null.
 */
import * as v from 'valibot';
import {
  ageOn,
  COUNTRY_CODES,
  GENDERS,
  isRealDate,
  MAX_AGE,
  MIN_AGE,
  NICKNAME_MAX,
  NICKNAME_MIN,
  PASSPORT_ISSUED_BY_MAX,
  PASSPORT_NUMBER_MAX,
  isTimeZone,
  utcDate,
  type PersonalDataInput,
  type Profile,
  OPTIONAL_PROFILE_FIELDS,
} from '../../contract/profile';
import { EMAIL_MAX, FirstNameSchema, LastNameSchema, PhoneSchema } from '../registration/registration.schemas';

export type PersonalFormValues = {
  first_name: string;
  last_name: string;
  phone: string;
  second_email: string;
  birthday: string;
  gender: string;
  timezone: string;
  citizenship: string;
  nickname: string;
  notify_email: boolean;
  notify_push: boolean;
  notify_sms: boolean;
  passport_number: string;
  passport_issued_by: string;
  passport_issue_date: string;
};

const COUNTRIES: ReadonlySet<string> = new Set(COUNTRY_CODES);
const EMAIL_SHAPE = v.pipe(v.string(), v.email());

/** An optional text: empty passes, anything else must satisfy `check`. */
const optionalText = (max: number, maxKey: string, checks: Array<[(s: string) => boolean, string]> = []) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(max, maxKey),
    v.rawCheck<string>(({ dataset, addIssue }) => {
      if (!dataset.typed || dataset.value === '') return;
      const value = dataset.value;
      // The first rule broken is the one the field shows.
      const broken = checks.find(([test]) => !test(value));
      if (broken) addIssue({ message: broken[1] });
    }),
  );

export interface PersonalFormOptions {
  /** The account's main email: the second one must differ from it. */
  primaryEmail?: string;
  /** The clock for the age and issue-date rules (tests pass a fixed one). */
  now?: () => number;
}

export function personalFormSchema({ primaryEmail = '', now = Date.now }: PersonalFormOptions = {}) {
  const today = () => utcDate(now());
  return v.pipe(
    v.object({
      first_name: FirstNameSchema,
      last_name: LastNameSchema,
      phone: PhoneSchema,
      second_email: optionalText(EMAIL_MAX, 'validation.email_invalid', [
        [(s) => v.is(EMAIL_SHAPE, s), 'validation.email_invalid'],
        [(s) => s.toLowerCase() !== primaryEmail.trim().toLowerCase(), 'profile.validation.second_email_same'],
      ]),
      birthday: optionalText(10, 'profile.validation.date_invalid', [
        [isRealDate, 'profile.validation.date_invalid'],
        [(s) => s <= today() && ageOn(s, today()) >= MIN_AGE, 'profile.validation.too_young'],
        [(s) => ageOn(s, today()) <= MAX_AGE, 'profile.validation.too_old'],
      ]),
      gender: v.pipe(v.string(), v.check((s) => s === '' || (GENDERS as readonly string[]).includes(s), 'profile.validation.gender_invalid')),
      timezone: optionalText(64, 'profile.validation.timezone_invalid', [[isTimeZone, 'profile.validation.timezone_invalid']]),
      citizenship: optionalText(2, 'profile.validation.country_invalid', [[(s) => COUNTRIES.has(s.toUpperCase()), 'profile.validation.country_invalid']]),
      nickname: optionalText(NICKNAME_MAX, 'profile.validation.nickname_length', [
        [(s) => s.length >= NICKNAME_MIN, 'profile.validation.nickname_length'],
        [(s) => /^[\p{L}\p{N}_]+$/u.test(s), 'profile.validation.nickname_chars'],
      ]),
      notify_email: v.boolean(),
      notify_push: v.boolean(),
      notify_sms: v.boolean(),
      passport_number: optionalText(PASSPORT_NUMBER_MAX, 'profile.validation.passport_number_invalid', [
        [(s) => /^[\p{L}\p{N}][\p{L}\p{N} -]*$/u.test(s), 'profile.validation.passport_number_invalid'],
      ]),
      passport_issued_by: optionalText(PASSPORT_ISSUED_BY_MAX, 'profile.validation.issued_by_too_long', [
        [(s) => !/[\u0000-\u001f\u007f]/.test(s), 'profile.validation.issued_by_invalid'],
      ]),
      passport_issue_date: optionalText(10, 'profile.validation.date_invalid', [
        [isRealDate, 'profile.validation.date_invalid'],
        [(s) => s <= today(), 'profile.validation.issue_date_future'],
      ]),
    }),
    v.forward(
      v.partialCheck(
        [['birthday'], ['passport_issue_date']],
        (o) => !o.birthday || !o.passport_issue_date || !isRealDate(o.birthday) || o.passport_issue_date > o.birthday,
        'profile.validation.issue_date_before_birthday',
      ),
      ['passport_issue_date'],
    ),
  );
}

/** The form's starting values: the profile as inputs show it ('' for nothing). */
export function personalFormValues(profile: Profile): PersonalFormValues {
  return {
    first_name: profile.first_name,
    last_name: profile.last_name,
    phone: profile.phone,
    second_email: profile.second_email ?? '',
    birthday: profile.birthday ?? '',
    gender: profile.gender ?? '',
    timezone: profile.timezone ?? '',
    citizenship: profile.citizenship ?? '',
    nickname: profile.nickname ?? '',
    notify_email: profile.notifications.email,
    notify_push: profile.notifications.push,
    notify_sms: profile.notifications.sms,
    passport_number: profile.passport?.number ?? '',
    passport_issued_by: profile.passport?.issued_by ?? '',
    passport_issue_date: profile.passport?.issue_date ?? '',
  };
}

const CLEARABLE = OPTIONAL_PROFILE_FIELDS;

/**
 * The partial update for what changed between the profile and the form: required texts
 * trimmed, optional ones trimmed with '' sent as null (cleared), notifications as one object
 * when any switch moved. An empty object means nothing changed.
 */
export function personalDataPatch(values: PersonalFormValues, profile: Profile): PersonalDataInput {
  const before = personalFormValues(profile);
  const patch: Record<string, unknown> = {};
  for (const key of ['first_name', 'last_name', 'phone'] as const) {
    const next = values[key].trim();
    if (next !== before[key]) patch[key] = next;
  }
  for (const key of CLEARABLE) {
    let next = values[key].trim();
    if (key === 'citizenship') next = next.toUpperCase();
    if (next !== before[key]) patch[key] = next === '' ? null : next;
  }
  if (values.notify_email !== before.notify_email || values.notify_push !== before.notify_push || values.notify_sms !== before.notify_sms) {
    patch.notifications = { email: values.notify_email, push: values.notify_push, sms: values.notify_sms };
  }
  return patch as PersonalDataInput;
}
