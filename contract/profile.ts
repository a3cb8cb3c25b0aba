/**
 * The profile area (spec section 7, "Profile, security and documents"): personal data, the
 * password change, two-factor authentication (enrolment and the second login step), identity
 * documents, Telegram linking, and the profile response. The server validates every input
 * with these schemas and the SPA's forms use the very same ones, so both say the same thing
 * about the same input. Rules and flows: docs/profile.md.
 */
import * as v from 'valibot';
import { EMAIL_MAX, NAME_MAX, OPAQUE_TOKEN_MAX, PASSWORD_MAX, PasswordSchema, PhoneSchema } from './auth';

// ---- texts ----------------------------------------------------------------------------------

export const ProfileText = {
  bodyNotObject: 'Request body must be a JSON object',
  atLeastOneField: 'At least one field is required',
  secondEmailSameAsPrimary: 'The second email must differ from your main email',
  nicknameTaken: 'Nickname is already taken',
  tooYoung: 'You must be at least 18 years old',
  tooOld: 'Please enter a real birth date',
  issueDateInFuture: 'The issue date cannot be in the future',
  issueDateBeforeBirthday: 'The issue date must be after the birth date',
  currentPasswordIncorrect: 'Current password is incorrect',
  passwordUnchanged: 'The new password must differ from the current one',
  passwordsDoNotMatch: 'Passwords do not match',
  passwordChanged: 'Password changed. Other sessions have been signed out',
  invalidCode: 'Invalid code',
  twoFactorAlreadyEnabled: 'Two-factor authentication is already enabled',
  twoFactorNotEnabled: 'Two-factor authentication is not enabled',
  twoFactorSetupMissing: 'Two-factor setup has not been started or has expired; start it again',
  twoFactorEnabled: 'Two-factor authentication is enabled',
  twoFactorDisabled: 'Two-factor authentication is disabled',
  invalidChallenge: 'The sign-in has expired, please log in again',
  invalidRecoveryCode: 'Invalid recovery code',
  recoveryCodesRegenerated: 'New recovery codes are ready; the old ones no longer work',
  oneSecondFactor: 'Send either a code or a recovery code, not both',
  notMultipart: 'Expected a multipart/form-data upload',
  avatarRequired: 'Please choose an image to upload (form field "avatar")',
  avatarTooLarge: 'The image is too large. The maximum size is 5 MB',
  oneImageOnly: 'Please upload exactly one image',
  unsupportedImageType: 'Unsupported image type',
  unsupportedFileType: 'Unsupported file type',
  unreadableImage: 'The image could not be read',
  pdfActiveContent: 'PDF files with scripts, automatic actions, attached files or forms are not accepted',
  pdfEncrypted: 'Password-protected (encrypted) PDF files are not accepted',
  pdfUnreadable: 'The PDF could not be read',
  pdfHtml: 'PDF files that also contain web page (HTML) markup are not accepted',
  filesRequired: 'Please attach at least one file',
  tooManyFiles: 'You can attach at most 5 files',
  fileTooLarge: 'A file is too large. The maximum size is 10 MB',
  unexpectedField: 'Unexpected form field',
  duplicateField: 'A form field was sent twice',
  documentTypeRequired: 'Document type is required',
  unknownDocumentType: 'Unknown document type',
  tooManyDocuments: 'You have too many documents; delete old ones first',
  documentNotFound: 'Document not found',
  documentApproved: 'An approved document cannot be deleted',
  documentDeleted: 'Document deleted',
  telegramUnlinked: 'Telegram is disconnected',
  linkCodeExpired: 'Link code expired',
} as const;

/** The optional personal-data fields kept in user_profiles: absent = unchanged, null or blank = cleared. */
export const OPTIONAL_PROFILE_FIELDS = [
  'second_email',
  'birthday',
  'gender',
  'timezone',
  'citizenship',
  'nickname',
  'passport_number',
  'passport_issued_by',
  'passport_issue_date',
] as const;

// ---- shared field helpers -------------------------------------------------------------------

const text = (label: string) =>
  v.string((issue) => (issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be text`));

/** Object message: "<Label> is required" for a missing key, otherwise the body is not an object. */
const requiredFields = (labels: Record<string, string>) => (issue: v.ObjectIssue) => {
  const key = issue.path?.[issue.path.length - 1]?.key;
  if (typeof key !== 'string') return ProfileText.bodyNotObject;
  return `${labels[key] ?? key} is required`;
};

/** Strict object message: an unknown key names itself; anything else is a body that is not an object. */
const strictMessage = (issue: v.StrictObjectIssue) => {
  const key = issue.path?.[issue.path.length - 1]?.key;
  if (issue.expected === 'never' && typeof key === 'string') return `Unknown field: ${key.slice(0, 64)}`;
  return ProfileText.bodyNotObject;
};

/**
 * An optional field that may be cleared: absent = unchanged; null or an empty (blank) string =
 * cleared; anything else is trimmed and must satisfy `inner`.
 */
const clearable = <TOut>(label: string, inner: v.GenericSchema<string, TOut>) =>
  v.optional(
    v.pipe(
      v.nullable(v.string(`${label} must be text`)),
      v.transform((s) => (s === null || s.trim() === '' ? null : s.trim())),
      v.nullable(inner),
    ),
  );

// ---- dates ----------------------------------------------------------------------------------

export const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `s` is a real calendar date written YYYY-MM-DD (no 2023-02-30). */
export function isRealDate(s: string): boolean {
  const m = DATE_PATTERN.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1800 || mo < 1 || mo > 12 || d < 1) return false;
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Today's date (UTC) as YYYY-MM-DD. */
export function utcDate(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10);
}

/** Full years between a YYYY-MM-DD birthday and a YYYY-MM-DD day (29 February birthdays count on 1 March). */
export function ageOn(birthday: string, day: string): number {
  const [by, bm, bd] = birthday.split('-').map(Number);
  const [y, m, d] = day.split('-').map(Number);
  let age = y - by;
  if (m < bm || (m === bm && d < bd)) age -= 1;
  return age;
}

export const MIN_AGE = 18;
export const MAX_AGE = 120;

// ---- reference lists ------------------------------------------------------------------------

/** ISO 3166-1 alpha-2: every officially assigned code. The SPA names them with Intl.DisplayNames. */
export const COUNTRY_CODES = [
  'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AQ', 'AR', 'AS', 'AT', 'AU', 'AW', 'AX', 'AZ', 'BA', 'BB', 'BD', 'BE',
  'BF', 'BG', 'BH', 'BI', 'BJ', 'BL', 'BM', 'BN', 'BO', 'BQ', 'BR', 'BS', 'BT', 'BV', 'BW', 'BY', 'BZ', 'CA', 'CC', 'CD',
  'CF', 'CG', 'CH', 'CI', 'CK', 'CL', 'CM', 'CN', 'CO', 'CR', 'CU', 'CV', 'CW', 'CX', 'CY', 'CZ', 'DE', 'DJ', 'DK', 'DM',
  'DO', 'DZ', 'EC', 'EE', 'EG', 'EH', 'ER', 'ES', 'ET', 'FI', 'FJ', 'FK', 'FM', 'FO', 'FR', 'GA', 'GB', 'GD', 'GE', 'GF',
  'GG', 'GH', 'GI', 'GL', 'GM', 'GN', 'GP', 'GQ', 'GR', 'GS', 'GT', 'GU', 'GW', 'GY', 'HK', 'HM', 'HN', 'HR', 'HT', 'HU',
  'ID', 'IE', 'IL', 'IM', 'IN', 'IO', 'IQ', 'IR', 'IS', 'IT', 'JE', 'JM', 'JO', 'JP', 'KE', 'KG', 'KH', 'KI', 'KM', 'KN',
  'KP', 'KR', 'KW', 'KY', 'KZ', 'LA', 'LB', 'LC', 'LI', 'LK', 'LR', 'LS', 'LT', 'LU', 'LV', 'LY', 'MA', 'MC', 'MD', 'ME',
  'MF', 'MG', 'MH', 'MK', 'ML', 'MM', 'MN', 'MO', 'MP', 'MQ', 'MR', 'MS', 'MT', 'MU', 'MV', 'MW', 'MX', 'MY', 'MZ', 'NA',
  'NC', 'NE', 'NF', 'NG', 'NI', 'NL', 'NO', 'NP', 'NR', 'NU', 'NZ', 'OM', 'PA', 'PE', 'PF', 'PG', 'PH', 'PK', 'PL', 'PM',
  'PN', 'PR', 'PS', 'PT', 'PW', 'PY', 'QA', 'RE', 'RO', 'RS', 'RU', 'RW', 'SA', 'SB', 'SC', 'SD', 'SE', 'SG', 'SH', 'SI',
  'SJ', 'SK', 'SL', 'SM', 'SN', 'SO', 'SR', 'SS', 'ST', 'SV', 'SX', 'SY', 'SZ', 'TC', 'TD', 'TF', 'TG', 'TH', 'TJ', 'TK',
  'TL', 'TM', 'TN', 'TO', 'TR', 'TT', 'TV', 'TW', 'TZ', 'UA', 'UG', 'UM', 'US', 'UY', 'UZ', 'VA', 'VC', 'VE', 'VG', 'VI',
  'VN', 'VU', 'WF', 'WS', 'YE', 'YT', 'ZA', 'ZM', 'ZW',
] as const;
const COUNTRY_SET: ReadonlySet<string> = new Set(COUNTRY_CODES);

/** The shape of an IANA zone name ("UTC", "Europe/Madrid", "America/Argentina/Buenos_Aires", "Etc/GMT+5"); no offsets like "+05:00". */
const TIME_ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;
export const TIME_ZONE_MAX = 64;

/**
 * The canonical spelling of an IANA time zone, or null when `zone` is not one: the runtime's
 * Intl knows the zone (the DateTimeFormat constructor does not throw) and answers its canonical
 * name, so "europe/madrid" becomes "Europe/Madrid", "utc" and "Etc/UTC" become "UTC", and
 * "Etc/GMT+5" is a zone like any other. Aliases become the runtime's canonical name (Node 20:
 * "US/Eastern" -> "America/New_York", "Europe/Kyiv" -> "Europe/Kiev").
 */
export function canonicalTimeZone(zone: string): string | null {
  if (zone.length > TIME_ZONE_MAX || !TIME_ZONE_SHAPE.test(zone)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Whether `zone` is an IANA time zone this runtime knows, in any case or as an alias. */
export function isTimeZone(zone: string): boolean {
  return canonicalTimeZone(zone) !== null;
}

export const GENDERS = ['male', 'female', 'other'] as const;
export type Gender = (typeof GENDERS)[number];

// ---- limits ---------------------------------------------------------------------------------

export const NICKNAME_MIN = 3;
export const NICKNAME_MAX = 32;
export const PASSPORT_NUMBER_MAX = 32;
export const PASSPORT_ISSUED_BY_MAX = 200;
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Recovery codes handed out when two-factor is turned on (and on each regeneration). */
export const RECOVERY_CODE_COUNT = 10;
/** Characters of a recovery code (shown as two groups of five: "k7m2p-x9qaz"). */
export const RECOVERY_CODE_LENGTH = 10;
/** Lowercase letters and digits without the look-alikes (0/o, 1/l/i): 31 symbols, ~49.5 bits a code. */
export const RECOVERY_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export const AVATAR_MAX_MB = 5;
export const AVATAR_MAX_BYTES = AVATAR_MAX_MB * 1024 * 1024;
export const AVATAR_ACCEPTED = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
/** Longest side of a stored avatar, in pixels. */
export const AVATAR_MAX_SIDE = 512;

export const DOCUMENT_MAX_FILES = 5;
export const DOCUMENT_MAX_MB = 10;
export const DOCUMENT_MAX_BYTES = DOCUMENT_MAX_MB * 1024 * 1024;
export const DOCUMENT_ACCEPTED = ['image/jpeg', 'image/png', 'application/pdf', 'image/webp'] as const;
export type DocumentMime = (typeof DOCUMENT_ACCEPTED)[number];
/** Documents one user may keep at a time (a rejected one counts until deleted). */
export const DOCUMENTS_PER_USER_MAX = 30;
export const REJECTION_REASON_MAX = 500;

export const TELEGRAM_CODE_TTL_MINUTES = 10;

// ---- personal data --------------------------------------------------------------------------

const nameSchema = (label: string) =>
  v.pipe(
    text(label),
    v.trim(),
    v.minLength(1, `${label} is required`),
    v.maxLength(NAME_MAX, `${label} must be at most ${NAME_MAX} characters`),
  );

const dateSchema = (label: string) =>
  v.pipe(
    v.string(),
    v.maxLength(10, `${label} must be a date (YYYY-MM-DD)`),
    v.check(isRealDate, `${label} must be a real date (YYYY-MM-DD)`),
  );

const boolean = (label: string) => v.optional(v.boolean(`${label} must be true or false`));

export const NotificationsSchema = v.object({
  email: v.boolean(),
  push: v.boolean(),
  sms: v.boolean(),
});
export type Notifications = v.InferOutput<typeof NotificationsSchema>;

/**
 * POST /api/v2/profile/personal-data: a partial update. Unknown keys are refused; null or an
 * empty string clears an optional field. `now` is the clock the age and issue-date rules use
 * (the server passes its own). Rules that need the stored profile (second email vs the main
 * one, issue date vs a stored birthday, nickname taken) are the server's.
 */
export function personalDataSchema(now: () => number = Date.now) {
  const today = () => utcDate(now());
  return v.pipe(
    v.strictObject(
      {
        first_name: v.optional(nameSchema('First name')),
        last_name: v.optional(nameSchema('Last name')),
        phone: v.optional(PhoneSchema),
        second_email: clearable(
          'Second email',
          v.pipe(
            v.string(),
            v.maxLength(EMAIL_MAX, `Second email must be at most ${EMAIL_MAX} characters`),
            v.email('Please enter a valid second email'),
          ),
        ),
        birthday: clearable(
          'Birthday',
          v.pipe(
            dateSchema('Birthday'),
            v.check((d) => d <= today() && ageOn(d, today()) >= MIN_AGE, ProfileText.tooYoung),
            v.check((d) => ageOn(d, today()) <= MAX_AGE, ProfileText.tooOld),
          ),
        ),
        gender: clearable('Gender', v.picklist(GENDERS, 'Gender must be male, female or other')),
        timezone: clearable(
          'Timezone',
          v.pipe(
            v.string(),
            // isTimeZone checks the length (TIME_ZONE_MAX) first: one message for any bad name.
            v.check(isTimeZone, 'Unknown timezone'),
            // Stored as the canonical name, whatever case or alias was sent.
            v.transform((zone) => canonicalTimeZone(zone) ?? zone),
          ),
        ),
        citizenship: clearable(
          'Citizenship',
          v.pipe(
            v.string(),
            v.maxLength(2, 'Citizenship must be a 2-letter country code'),
            v.toUpperCase(),
            v.check((c) => COUNTRY_SET.has(c), 'Unknown country code'),
          ),
        ),
        nickname: clearable(
          'Nickname',
          v.pipe(
            v.string(),
            v.maxLength(NICKNAME_MAX, `Nickname must be ${NICKNAME_MIN}-${NICKNAME_MAX} characters`),
            v.minLength(NICKNAME_MIN, `Nickname must be ${NICKNAME_MIN}-${NICKNAME_MAX} characters`),
            v.regex(/^[\p{L}\p{N}_]+$/u, 'Nickname may contain only letters, digits and _'),
          ),
        ),
        notifications: v.optional(
          v.strictObject(
            { email: boolean('Email notifications'), push: boolean('Push notifications'), sms: boolean('SMS notifications') },
            strictMessage,
          ),
        ),
        passport_number: clearable(
          'Passport number',
          v.pipe(
            v.string(),
            v.maxLength(PASSPORT_NUMBER_MAX, `Passport number must be at most ${PASSPORT_NUMBER_MAX} characters`),
            v.regex(/^[\p{L}\p{N}][\p{L}\p{N} -]*$/u, 'Passport number may contain only letters, digits, spaces and dashes'),
          ),
        ),
        passport_issued_by: clearable(
          'Issued by',
          v.pipe(
            v.string(),
            v.maxLength(PASSPORT_ISSUED_BY_MAX, `Issued by must be at most ${PASSPORT_ISSUED_BY_MAX} characters`),
            v.check((s) => !/[\u0000-\u001f\u007f]/.test(s), 'Issued by must not contain control characters'),
          ),
        ),
        passport_issue_date: clearable(
          'Issue date',
          v.pipe(dateSchema('Issue date'), v.check((d) => d <= today(), ProfileText.issueDateInFuture)),
        ),
      },
      strictMessage,
    ),
    v.check((o) => Object.keys(o).length > 0, ProfileText.atLeastOneField),
    v.forward(
      v.partialCheck(
        [['birthday'], ['passport_issue_date']],
        (o) => !o.birthday || !o.passport_issue_date || o.passport_issue_date > o.birthday,
        ProfileText.issueDateBeforeBirthday,
      ),
      ['passport_issue_date'],
    ),
  );
}
export const PersonalDataSchema = personalDataSchema();
export type PersonalDataInput = v.InferInput<typeof PersonalDataSchema>;
export type PersonalDataPatch = v.InferOutput<typeof PersonalDataSchema>;

// ---- the profile response -------------------------------------------------------------------

export const TelegramAccountSchema = v.object({
  id: v.number(),
  username: v.nullable(v.string()),
  first_name: v.string(),
  last_name: v.nullable(v.string()),
  language: v.nullable(v.string()),
  /** Unix seconds. */
  linked_at: v.number(),
});
export type TelegramAccount = v.InferOutput<typeof TelegramAccountSchema>;

export const PassportSchema = v.object({
  number: v.nullable(v.string()),
  issued_by: v.nullable(v.string()),
  issue_date: v.nullable(v.string()),
});

/** GET /api/v2/user/profile and the answer of POST /api/v2/profile/personal-data. */
export const ProfileSchema = v.object({
  user_id: v.number(),
  username: v.string(),
  email: v.string(),
  email_verified: v.boolean(),
  first_name: v.string(),
  last_name: v.string(),
  phone: v.string(),
  second_email: v.nullable(v.string()),
  birthday: v.nullable(v.string()),
  gender: v.nullable(v.picklist(GENDERS)),
  timezone: v.nullable(v.string()),
  citizenship: v.nullable(v.string()),
  nickname: v.nullable(v.string()),
  notifications: NotificationsSchema,
  telegram: v.nullable(TelegramAccountSchema),
  /** null until any of the three passport fields is set. */
  passport: v.nullable(PassportSchema),
  avatar_url: v.nullable(v.string()),
  two_factor_enabled: v.boolean(),
  /** Unix seconds. */
  created_at: v.number(),
});
export type Profile = v.InferOutput<typeof ProfileSchema>;

export const AvatarResultSchema = v.object({ avatar_url: v.string() });

// ---- password change ------------------------------------------------------------------------

/**
 * POST /api/v2/user/change-password. `confirm_password` is optional on the wire; when sent it
 * must match. The new password follows contract/auth.ts's PasswordSchema, the very rule (and
 * texts) of registration and reset: 8 to 128 characters, no spaces, a lowercase and an
 * uppercase letter, a digit and a symbol.
 */
export const ChangePasswordSchema = v.pipe(
  v.object(
    {
      old_password: v.pipe(
        text('Current password'),
        v.minLength(1, 'Current password is required'),
        v.maxLength(PASSWORD_MAX, ProfileText.currentPasswordIncorrect),
      ),
      // The one password rule of registration and reset (issue 26 wins over the spec's 6 characters).
      new_password: PasswordSchema,
      confirm_password: v.optional(v.pipe(text('Password confirmation'), v.maxLength(PASSWORD_MAX, ProfileText.passwordsDoNotMatch))),
    },
    requiredFields({ old_password: 'Current password', new_password: 'New password' }),
  ),
  v.forward(
    v.partialCheck(
      [['new_password'], ['confirm_password']],
      (o) => o.confirm_password === undefined || o.confirm_password === o.new_password,
      ProfileText.passwordsDoNotMatch,
    ),
    ['confirm_password'],
  ),
  v.forward(
    v.partialCheck([['old_password'], ['new_password']], (o) => o.old_password !== o.new_password, ProfileText.passwordUnchanged),
    ['new_password'],
  ),
);
export type ChangePasswordInput = v.InferOutput<typeof ChangePasswordSchema>;

// ---- two-factor -----------------------------------------------------------------------------

/** A 6-digit TOTP code as text (spaces allowed, "123 456"); a JSON number would lose leading zeros. */
export const TotpCodeSchema = v.pipe(
  text('Code'),
  v.maxLength(16, ProfileText.invalidCode),
  v.transform((s) => s.replace(/\s+/g, '')),
  v.minLength(1, 'Code is required'),
  v.regex(/^[0-9]{6}$/, `Code must be ${TOTP_DIGITS} digits`),
);

/** POST /api/v2/user/2fa/verify and DELETE /api/v2/user/2fa/disable (body or query). */
export const TwoFactorCodeSchema = v.object({ code: TotpCodeSchema }, requiredFields({ code: 'Code' }));

/** POST /api/v2/user/2fa/enable: an empty body (or `{}`). */
export const EmptyBodySchema = v.strictObject({}, strictMessage);

/** Data of POST /api/v2/user/2fa/enable: scan the QR code or type the secret, then verify a code. */
export const TwoFactorSetupSchema = v.object({
  secret: v.string(),
  otpauth_url: v.string(),
  /** data:image/png;base64,... */
  qr_code: v.string(),
  /** Unix seconds until which the setup waits for its first code. */
  expires_at: v.number(),
});
export type TwoFactorSetup = v.InferOutput<typeof TwoFactorSetupSchema>;

export const TwoFactorStatusSchema = v.object({ two_factor_enabled: v.boolean(), message: v.string() });

/**
 * A recovery code as typed: any case, spaces and dashes allowed ("K7M2P-X9QAZ"); normalised to
 * the 10 lowercase characters of RECOVERY_CODE_ALPHABET.
 */
export const RecoveryCodeSchema = v.pipe(
  text('Recovery code'),
  v.maxLength(32, ProfileText.invalidRecoveryCode),
  v.transform((s) => s.replace(/[\s-]+/g, '').toLowerCase()),
  v.minLength(1, 'Recovery code is required'),
  v.regex(new RegExp(`^[${RECOVERY_CODE_ALPHABET}]{${RECOVERY_CODE_LENGTH}}$`), ProfileText.invalidRecoveryCode),
);

/** A recovery code for display: two groups of five ("k7m2p-x9qaz"). */
export function formatRecoveryCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Data of POST /api/v2/user/2fa/verify (two-factor turned on) and of POST 2fa/recovery-codes (a fresh set): shown once. */
export const TwoFactorEnabledSchema = v.object({
  two_factor_enabled: v.literal(true),
  message: v.string(),
  /** RECOVERY_CODE_COUNT codes, normalised (lowercase, no dash); the server keeps only their keyed hashes. */
  recovery_codes: v.array(v.string()),
});
export type TwoFactorEnabled = v.InferOutput<typeof TwoFactorEnabledSchema>;

/** Data of GET /api/v2/user/2fa/recovery-codes: how many unused codes are left (0 with two-factor off). */
export const RecoveryCodesStatusSchema = v.object({ remaining: v.number(), total: v.number() });
export type RecoveryCodesStatus = v.InferOutput<typeof RecoveryCodesStatusSchema>;

/** The second factor of a login: a TOTP code from the app or one of the recovery codes. */
export type SecondFactor = { kind: 'totp'; code: string } | { kind: 'recovery'; code: string };

/**
 * POST /api/platform/auth/login/2fa: the challenge from the login answer and either a current
 * code (`code`) or one unused recovery code (`recovery_code`).
 */
export const LoginTwoFactorSchema = v.pipe(
  v.object(
    {
      challenge: v.pipe(
        text('Challenge'),
        v.trim(),
        v.minLength(1, 'Challenge is required'),
        v.maxLength(OPAQUE_TOKEN_MAX, ProfileText.invalidChallenge),
      ),
      code: v.optional(TotpCodeSchema),
      recovery_code: v.optional(RecoveryCodeSchema),
    },
    requiredFields({ challenge: 'Challenge', code: 'Code' }),
  ),
  v.forward(v.partialCheck([['code'], ['recovery_code']], (o) => o.code !== undefined || o.recovery_code !== undefined, 'Code is required'), ['code']),
  v.forward(v.partialCheck([['code'], ['recovery_code']], (o) => o.code === undefined || o.recovery_code === undefined, ProfileText.oneSecondFactor), ['recovery_code']),
  v.transform((o): { challenge: string; factor: SecondFactor } => ({
    challenge: o.challenge,
    factor: o.recovery_code !== undefined ? { kind: 'recovery', code: o.recovery_code } : { kind: 'totp', code: o.code ?? '' },
  })),
);
export type LoginTwoFactorInput = v.InferInput<typeof LoginTwoFactorSchema>;

// ---- documents ------------------------------------------------------------------------------

export const DOCUMENT_TYPES = [
  'passport',
  'id_card',
  'utility_bill',
  'bank_statement',
  'driver_license',
  'selfie',
  'address_proof',
  'tax_document',
  'income_proof',
  'other',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_STATUSES = ['uploaded', 'pending', 'approved', 'rejected'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const DocumentTypeInfoSchema = v.object({
  type: v.picklist(DOCUMENT_TYPES),
  /** Locale key of the type's name in locales/*.json. */
  label_key: v.string(),
  max_files: v.number(),
  max_size_mb: v.number(),
  accepted: v.array(v.picklist(DOCUMENT_ACCEPTED)),
});
export type DocumentTypeInfo = v.InferOutput<typeof DocumentTypeInfoSchema>;

export const DOCUMENT_TYPE_INFO: readonly DocumentTypeInfo[] = DOCUMENT_TYPES.map((type) => ({
  type,
  label_key: `profile.documents.types.${type}`,
  max_files: DOCUMENT_MAX_FILES,
  max_size_mb: DOCUMENT_MAX_MB,
  accepted: [...DOCUMENT_ACCEPTED],
}));

/** The form fields of POST /api/v2/documents/upload besides the files. */
export const DocumentUploadFieldsSchema = v.object(
  {
    type: v.pipe(
      text('Document type'),
      v.trim(),
      v.minLength(1, ProfileText.documentTypeRequired),
      v.picklist(DOCUMENT_TYPES, ProfileText.unknownDocumentType),
    ),
  },
  requiredFields({ type: 'Document type' }),
);

export const DocumentFileSchema = v.object({
  id: v.number(),
  name: v.string(),
  size: v.number(),
  mime: v.picklist(DOCUMENT_ACCEPTED),
});

export const DocumentSchema = v.object({
  id: v.number(),
  type: v.picklist(DOCUMENT_TYPES),
  status: v.picklist(DOCUMENT_STATUSES),
  files: v.array(DocumentFileSchema),
  /** Unix seconds. */
  created_at: v.number(),
  updated_at: v.number(),
  rejection_reason: v.nullable(v.string()),
});
export type Document = v.InferOutput<typeof DocumentSchema>;

const idParam = (label: string) =>
  v.pipe(v.string(), v.regex(/^[1-9]\d{0,15}$/, `${label} must be a positive whole number`), v.transform(Number));
export const DocumentParamsSchema = v.object({ id: idParam('Document id') });
export const DocumentFileParamsSchema = v.object({ id: idParam('Document id'), fileId: idParam('File id') });

/** Socket push to the owner whenever a document's status changes (upload, review). */
export const DOCUMENT_STATUS_UPDATE_EVENT = 'document_status_update';
export const DocumentStatusUpdateEventSchema = v.object({
  document: v.object({ id: v.number(), status: v.picklist(DOCUMENT_STATUSES), rejection_reason: v.nullable(v.string()) }),
});
export type DocumentStatusUpdateEvent = v.InferOutput<typeof DocumentStatusUpdateEventSchema>;

/** An operator's rejection reason (CLI). */
export const RejectionReasonSchema = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'A rejection reason is required'),
  v.maxLength(REJECTION_REASON_MAX, `The reason must be at most ${REJECTION_REASON_MAX} characters`),
);

// ---- telegram -------------------------------------------------------------------------------

/** Data of POST /api/v2/telegram/link: open the deep link in Telegram and press Start. */
export const TelegramLinkCodeSchema = v.object({
  code: v.string(),
  deep_link: v.string(),
  /** Unix seconds. */
  expires_at: v.number(),
});
export type TelegramLinkCode = v.InferOutput<typeof TelegramLinkCodeSchema>;

/** GET /api/v2/telegram/link (and the answer of unlink). */
export const TelegramStatusSchema = v.object({
  linked: v.boolean(),
  telegram: v.nullable(TelegramAccountSchema),
  /** The code of a link still waiting for the bot, with its deep link and expiry (unix seconds). */
  pending_code: v.nullable(v.string()),
  deep_link: v.nullable(v.string()),
  expires_at: v.nullable(v.number()),
});
export type TelegramStatus = v.InferOutput<typeof TelegramStatusSchema>;

/** A link code as the bot receives it in "/start <code>" (Telegram allows A-Z a-z 0-9 _ - up to 64). */
export const TELEGRAM_CODE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

const tgText = (max: number) => v.pipe(v.string(), v.maxLength(max));
const tgId = v.pipe(v.number(), v.integer(), v.safeInteger());

/**
 * The part of a Telegram Update (Bot API) the webhook reads; every other key Telegram sends is
 * dropped (valibot's object strips unknown keys), so new Bot API fields never break the webhook.
 */
export const TelegramUpdateSchema = v.object({
  update_id: tgId,
  message: v.optional(
    v.object({
      message_id: tgId,
      date: v.optional(tgId),
      from: v.optional(
        v.object({
          id: tgId,
          is_bot: v.boolean(),
          first_name: tgText(256),
          last_name: v.optional(tgText(256)),
          username: v.optional(tgText(64)),
          language_code: v.optional(tgText(16)),
        }),
      ),
      chat: v.object({ id: tgId, type: tgText(32) }),
      text: v.optional(tgText(4096)),
    }),
  ),
});
export type TelegramUpdate = v.InferOutput<typeof TelegramUpdateSchema>;
