/**
 * Authentication payloads (spec sections 5 and 7): registration (as a whole and per wizard
 * step, so the SPA validates each step on blur with the very rules the server applies), login,
 * token refresh, password reset, email verification, the admin-session exchange and the
 * front-settings update, plus the response shapes and the texts both sides share.
 */
import * as v from 'valibot';
import { findCurrency } from './currencies';
import { FrontSettingsUpdateSchema, LanguageSchema, UserSchema } from './user';

// ---- texts ----------------------------------------------------------------------------------

export const AuthText = {
  termsRequired: 'Please accept terms and privacy policy',
  usernameTaken: 'Username is already taken',
  emailTaken: 'Email is already registered',
  passwordsDoNotMatch: 'Passwords do not match',
  missingCredentials: 'Missing credentials',
  invalidCredentials: 'Invalid credentials',
  tokenRefreshFailed: 'Token refresh failed',
  invalidResetToken: 'Invalid reset token or expired, try to send reset link again',
  resetRequested: 'If the email is registered, a reset code has been sent',
  passwordReset: 'Your password has been changed. Please log in with the new password',
  invalidVerificationToken: 'Invalid or expired verification link',
  emailVerified: 'Your email address is verified',
  verificationResent: 'If the email is registered and not yet verified, a verification email has been sent',
  invalidAdminToken: 'Invalid or expired admin link',
  loggedOut: 'Logged out',
  secondFactorUnavailable: 'Two-factor sign-in is temporarily unavailable',
} as const;

// ---- limits ---------------------------------------------------------------------------------

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 64;
export const PHONE_INPUT_MAX = 32;
export const RESET_CODE_LENGTH = 6;
/** Opaque tokens (refresh, reset, verification, admin) are 43 characters; leave room, refuse megabytes. */
export const OPAQUE_TOKEN_MAX = 512;

/**
 * The registration fields' messages (the server answers them in English; the SPA validates
 * with the same schemas and shows each through its locale key, mapped once in
 * src/i18n/server-texts.ts).
 */
export const FieldText = {
  usernameRequired: 'Username is required',
  usernameMinLength: `Username must be at least ${USERNAME_MIN} characters`,
  usernameMaxLength: `Username must be at most ${USERNAME_MAX} characters`,
  usernameChars: 'Username may contain only English letters and digits',
  emailRequired: 'Email is required',
  emailMaxLength: `Email must be at most ${EMAIL_MAX} characters`,
  emailInvalid: 'Please enter a valid email',
  passwordRequired: 'Password is required',
  passwordMinLength: `Password must be at least ${PASSWORD_MIN} characters`,
  passwordMaxLength: `Password must be at most ${PASSWORD_MAX} characters`,
  passwordNoSpaces: 'Password must not contain spaces',
  passwordLowercase: 'Password must contain at least one lowercase letter',
  passwordUppercase: 'Password must contain at least one uppercase letter',
  passwordDigit: 'Password must contain at least one number',
  passwordSpecial: 'Password must contain at least one special character',
  passwordConfirmationRequired: 'Password confirmation is required',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  firstNameMaxLength: `First name must be at most ${NAME_MAX} characters`,
  lastNameMaxLength: `Last name must be at most ${NAME_MAX} characters`,
  phoneRequired: 'Phone is required',
  phoneInvalid: 'Please enter a valid phone number',
  currencyRequired: 'Currency is required',
  currencyUnknown: 'Unknown currency',
} as const;

// ---- field schemas --------------------------------------------------------------------------

/** A required text field: missing or null says "<Label> is required", another type says it must be text. */
const text = (label: string) =>
  v.string((issue) => (issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be text`));

/**
 * Object message: "<Label> is required" for a missing key (or the field's own message where it
 * has one), otherwise the body is not an object.
 */
const requiredFields =
  (labels: Record<string, string>, messages: Record<string, string> = {}) =>
  (issue: v.ObjectIssue): string => {
    const key = issue.path?.[issue.path.length - 1]?.key;
    if (typeof key !== 'string') return 'Request body must be a JSON object';
    return messages[key] ?? `${labels[key] ?? key} is required`;
  };

export const UsernameSchema = v.pipe(
  text('Username'),
  v.trim(),
  v.minLength(1, FieldText.usernameRequired),
  v.maxLength(USERNAME_MAX, FieldText.usernameMaxLength),
  v.minLength(USERNAME_MIN, FieldText.usernameMinLength),
  v.regex(/^[A-Za-z0-9]+$/, FieldText.usernameChars),
);

export const EmailSchema = v.pipe(
  text('Email'),
  v.trim(),
  v.minLength(1, FieldText.emailRequired),
  v.maxLength(EMAIL_MAX, FieldText.emailMaxLength),
  v.email(FieldText.emailInvalid),
);

/** The registration password rules (spec section 5); also the rules of a reset's new password. */
export const PasswordSchema = v.pipe(
  text('Password'),
  v.minLength(1, FieldText.passwordRequired),
  v.maxLength(PASSWORD_MAX, FieldText.passwordMaxLength),
  v.minLength(PASSWORD_MIN, FieldText.passwordMinLength),
  v.regex(/^\S+$/, FieldText.passwordNoSpaces),
  v.regex(/[a-z]/, FieldText.passwordLowercase),
  v.regex(/[A-Z]/, FieldText.passwordUppercase),
  v.regex(/[0-9]/, FieldText.passwordDigit),
  v.regex(/[^A-Za-z0-9\s]/, FieldText.passwordSpecial),
);

const nameSchema = (label: string) =>
  v.pipe(
    text(label),
    v.trim(),
    v.minLength(1, `${label} is required`),
    v.maxLength(NAME_MAX, `${label} must be at most ${NAME_MAX} characters`),
  );
/** Messages: FieldText.firstNameRequired / firstNameMaxLength (the label makes them). */
export const FirstNameSchema = nameSchema('First name');
export const LastNameSchema = nameSchema('Last name');

/**
 * E.164-ish: an optional leading +, then 7 to 15 digits; spaces, dashes, dots and parentheses
 * are allowed while typing and stripped, so "+1 (555) 010-2030" is stored as "+15550102030".
 */
export const PhoneSchema = v.pipe(
  text('Phone'),
  v.trim(),
  v.minLength(1, FieldText.phoneRequired),
  v.maxLength(PHONE_INPUT_MAX, FieldText.phoneInvalid),
  v.regex(/^\+?[0-9\s\-().]+$/, FieldText.phoneInvalid),
  v.transform((s) => s.replace(/[\s\-().]/g, '')),
  v.regex(/^\+?[0-9]{7,15}$/, FieldText.phoneInvalid),
);

export const RegistrationCurrencySchema = v.pipe(
  text('Currency'),
  v.trim(),
  v.minLength(1, FieldText.currencyRequired),
  v.maxLength(8, FieldText.currencyUnknown),
  v.toUpperCase(),
  v.check((c) => findCurrency(c) !== undefined, FieldText.currencyUnknown),
);

export const TermsSchema = v.literal(true, AuthText.termsRequired);

// ---- registration ---------------------------------------------------------------------------

const fieldLabels: Record<string, string> = {
  username: 'Username',
  email: 'Email',
  password: 'Password',
  password_confirmation: 'Password confirmation',
  first_name: 'First name',
  last_name: 'Last name',
  phone: 'Phone',
  currency: 'Currency',
  token: 'Token',
  code: 'Reset code',
  newPassword: 'New password',
};

const missingMessages: Record<string, string> = { terms_accepted: AuthText.termsRequired };

const step1Entries = {
  username: UsernameSchema,
  email: EmailSchema,
  password: PasswordSchema,
  password_confirmation: v.pipe(text('Password confirmation'), v.maxLength(PASSWORD_MAX, 'Passwords do not match')),
};
const step2Entries = {
  first_name: FirstNameSchema,
  last_name: LastNameSchema,
  phone: PhoneSchema,
};
const step3Entries = {
  currency: RegistrationCurrencySchema,
  terms_accepted: v.pipe(v.unknown(), v.check((x) => x === true, AuthText.termsRequired), v.transform(() => true as const)),
};

/** Marketing attribution taken from the page query string and the browser (spec section 3). */
const tracking = (max: number) => v.nullish(v.pipe(v.string('Tracking fields must be text'), v.maxLength(max, `Must be at most ${max} characters`)));
export const TRACKING_FIELDS = [
  'source',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'partner_id',
  'affiliate_id',
  'sub1',
  'sub2',
  'sub3',
  'sub4',
  'sub5',
  'click_id',
  'external_id',
  'referrer',
  'landing_url',
  'user_agent',
] as const;
export type TrackingField = (typeof TRACKING_FIELDS)[number];
export const TRACKING_MAX: Record<TrackingField, number> = {
  source: 128,
  utm_source: 256,
  utm_medium: 256,
  utm_campaign: 256,
  utm_term: 256,
  utm_content: 256,
  partner_id: 128,
  affiliate_id: 128,
  sub1: 256,
  sub2: 256,
  sub3: 256,
  sub4: 256,
  sub5: 256,
  click_id: 256,
  external_id: 256,
  referrer: 2048,
  landing_url: 2048,
  user_agent: 512,
};
const trackingEntries = Object.fromEntries(TRACKING_FIELDS.map((f) => [f, tracking(TRACKING_MAX[f])])) as {
  [K in TrackingField]: ReturnType<typeof tracking>;
};

/** Wizard step 1, basic info: username, email, password and its confirmation. */
export const RegisterStep1Schema = v.pipe(
  v.object(step1Entries, requiredFields(fieldLabels)),
  // Checked only once both fields are valid, and reported on the confirmation field.
  v.forward(
    v.partialCheck([['password'], ['password_confirmation']], (i) => i.password === i.password_confirmation, AuthText.passwordsDoNotMatch),
    ['password_confirmation'],
  ),
);
/** Wizard step 2, personal details: first and last name, phone. */
export const RegisterStep2Schema = v.object(step2Entries, requiredFields(fieldLabels));
/** Wizard step 3, settings: currency and acceptance of the terms. */
export const RegisterStep3Schema = v.object(step3Entries, requiredFields(fieldLabels, missingMessages));

/** POST /api/platform/auth/register: the three steps, an optional language and the tracking fields. */
export const RegisterSchema = v.pipe(
  v.object(
    {
      ...step1Entries,
      ...step2Entries,
      ...step3Entries,
      language: v.optional(LanguageSchema),
      ...trackingEntries,
    },
    requiredFields(fieldLabels, missingMessages),
  ),
  v.forward(
    v.partialCheck([['password'], ['password_confirmation']], (i) => i.password === i.password_confirmation, AuthText.passwordsDoNotMatch),
    ['password_confirmation'],
  ),
);
export type RegisterInput = v.InferInput<typeof RegisterSchema>;
export type Registration = v.InferOutput<typeof RegisterSchema>;

// ---- login and sessions ---------------------------------------------------------------------

const credential = v.optional(v.pipe(v.string(AuthText.missingCredentials), v.maxLength(EMAIL_MAX, 'Login must be at most 254 characters')));

/**
 * POST /api/platform/auth/login. The identifier is the username or the email and may come as
 * `username`, `email` or `login`; missing or empty fields are "Missing credentials".
 */
export const LoginSchema = v.pipe(
  v.object(
    {
      username: credential,
      email: credential,
      login: credential,
      password: v.optional(
        v.pipe(v.string(AuthText.missingCredentials), v.maxLength(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`)),
      ),
    },
    'Request body must be a JSON object',
  ),
  v.transform((o) => ({
    identifier: (o.username?.trim() || o.email?.trim() || o.login?.trim() || '').trim(),
    password: o.password ?? '',
  })),
  v.check((o) => o.identifier.length > 0 && o.password.length > 0, AuthText.missingCredentials),
);
export type LoginInput = v.InferInput<typeof LoginSchema>;
export type Credentials = v.InferOutput<typeof LoginSchema>;

const opaqueToken = (label: string) =>
  v.pipe(text(label), v.trim(), v.minLength(1, `${label} is required`), v.maxLength(OPAQUE_TOKEN_MAX, `${label} is too long`));

/** POST /api/platform/auth/refresh: `refresh_token` (or `refreshToken`). */
export const RefreshSchema = v.pipe(
  v.object(
    {
      refresh_token: v.optional(opaqueToken('Refresh token')),
      refreshToken: v.optional(opaqueToken('Refresh token')),
    },
    'Request body must be a JSON object',
  ),
  v.transform((o) => ({ refresh_token: o.refresh_token ?? o.refreshToken ?? '' })),
  v.check((o) => o.refresh_token.length > 0, 'Refresh token is required'),
);

/** POST /api/platform/auth/logout: no body needed; a refresh token, when given, ends its session too. */
export const LogoutSchema = v.object(
  { refresh_token: v.optional(opaqueToken('Refresh token')), refreshToken: v.optional(opaqueToken('Refresh token')) },
  'Request body must be a JSON object',
);

/** POST /api/admin/session: the one-time token of the operator's link. */
export const AdminSessionSchema = v.object({ token: opaqueToken('Token') }, requiredFields(fieldLabels));

export const SESSION_TYPES = ['user', 'admin'] as const;
export const SessionTypeSchema = v.picklist(SESSION_TYPES);

/** Data of a successful login, registration, refresh or admin-session exchange. */
export const AuthSessionSchema = v.object({
  token: v.string(),
  /** The same value as `token`. */
  access_token: v.string(),
  refresh_token: v.string(),
  /** Seconds the access token is valid for. */
  expires_in: v.number(),
  user: UserSchema,
  session_type: SessionTypeSchema,
});
export type AuthSession = v.InferOutput<typeof AuthSessionSchema>;

/** Data of a login that needs a second factor; POST /api/platform/auth/login/2fa completes it. */
export const TwoFactorChallengeSchema = v.object({
  two_factor_required: v.literal(true),
  challenge: v.string(),
});
export type TwoFactorChallenge = v.InferOutput<typeof TwoFactorChallengeSchema>;

export const LoginResultSchema = v.union([AuthSessionSchema, TwoFactorChallengeSchema]);
export type LoginResult = v.InferOutput<typeof LoginResultSchema>;

export const MessageDataSchema = v.object({ message: v.string() });
export type MessageData = v.InferOutput<typeof MessageDataSchema>;

// ---- password reset and email verification ---------------------------------------------------

/** POST /api/platform/auth/forgot-password and /resend-verification. */
export const EmailRequestSchema = v.object({ email: EmailSchema }, requiredFields(fieldLabels));

export const ResetCodeSchema = v.pipe(
  text('Reset code'),
  v.trim(),
  v.minLength(1, 'Reset code is required'),
  v.regex(/^[0-9]{6}$/, `Reset code must be ${RESET_CODE_LENGTH} digits`),
);

/** POST /api/platform/password/confirm-reset-password: the code from the email for a one-time reset token. */
export const ConfirmResetSchema = v.object({ email: EmailSchema, code: ResetCodeSchema }, requiredFields(fieldLabels));
export const ResetTokenDataSchema = v.object({ token: v.string() });

/** POST /api/platform/auth/reset-password: the link token or the confirmed-code token, and the new password. */
export const ResetPasswordSchema = v.object(
  { token: opaqueToken('Token'), newPassword: PasswordSchema },
  requiredFields(fieldLabels),
);

/** POST /api/platform/auth/verify-email. */
export const VerifyEmailSchema = v.object({ token: opaqueToken('Token') }, requiredFields(fieldLabels));

// ---- front settings -------------------------------------------------------------------------

/** A plausible pair code (EURUSD, BTCUSD, AAPL); whether the pair exists is the market's business. */
export const PAIR_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,31}$/;

/** PATCH or POST /api/v2/profile/front-settings: contract/user.ts's update plus a pair-code shape check. */
export const FrontSettingsRequestSchema = v.pipe(
  FrontSettingsUpdateSchema,
  v.forward(
    v.check((o) => o.currentPair === undefined || PAIR_CODE_PATTERN.test(o.currentPair), 'Unknown pair code'),
    ['currentPair'],
  ),
);
