/**
 * Failure and toast helpers shared by the profile screen's machines (profile, security,
 * avatar, documents, telegram). Pure functions, no I/O.
 *
 * A failure's text is the server's sentence when it gave one, otherwise a locale key holding
 * the spec's fallback (section 8: "Profile update failed", "Failed to enable 2FA", ...), so a
 * Russian or Spanish user reads the fallback in their language. Views tell the two apart with
 * isLocaleKey() (a key is lowercase dot-separated words, a sentence never is).
 */
import * as v from 'valibot';
import { FieldErrorSchema, type FieldError } from '../../contract/envelope';
import { ProfileText } from '../../contract/profile';
import { issuesToFieldErrors } from '../../contract/validation';
import { errorMessage, type ToastRequest, type ToastType } from '../types';

const LOCALE_KEY = /^[a-z_]+(\.[a-z0-9_]+)+$/;

/** Whether a text is a locale key (translate it) rather than a sentence (show it as is). */
export function isLocaleKey(text: string): boolean {
  return LOCALE_KEY.test(text);
}

/** The failure's text: the server's message, else the fallback locale key. */
export function failureText(error: unknown, fallbackKey: string): string {
  return errorMessage(error, fallbackKey);
}

/**
 * Server sentences that are about one form field although the server sends them without
 * `details` (the 409 for a nickname someone else has): the field they belong to.
 */
export const SENTENCE_FIELDS: ReadonlyMap<string, string> = new Map([[ProfileText.nicknameTaken, 'nickname']]);

/**
 * Field errors the server sent with a failure (the envelope's `details`), if any; a sentence
 * listed in SENTENCE_FIELDS becomes its field's error when the details do not already say it.
 */
export function serverFieldErrors(error: unknown): FieldError[] {
  const details: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, 'details') : undefined;
  const parsed = v.safeParse(v.array(FieldErrorSchema), details);
  const fieldErrors = parsed.success ? parsed.output : [];
  const message = errorMessage(error, '');
  const field = SENTENCE_FIELDS.get(message);
  if (field && !fieldErrors.some((e) => e.field === field)) return [...fieldErrors, { field, message }];
  return fieldErrors;
}

/**
 * Whether a failure's sentence is already shown at one of its fields; the form then shows it
 * only there, not a second time above the form.
 */
export function isShownAtField(message: string | null, fieldErrors: readonly FieldError[]): boolean {
  return message !== null && fieldErrors.some((e) => e.message === message);
}

/** The problems a schema finds in `values`, one per field (the first problem of each). */
export function fieldErrorsOf(schema: v.GenericSchema, values: unknown): FieldError[] {
  const result = v.safeParse(schema, values, { abortPipeEarly: true });
  return result.success ? [] : issuesToFieldErrors(result.issues);
}

/** A toast for a text that is either a locale key or a server sentence. */
export function toastOf(type: ToastType, text: string): ToastRequest {
  return isLocaleKey(text) ? { type, messageKey: text } : { type, message: text };
}

/** Profile-area fallbacks (spec section 8), as locale keys whose English text is the spec's. */
export const PROFILE_FALLBACKS = {
  load: 'profile.errors.load_failed',
  update: 'profile.errors.update_failed',
  changePassword: 'profile.errors.change_password_failed',
  avatar: 'profile.errors.avatar_failed',
  enableTwoFactor: 'profile.errors.enable_2fa_failed',
  verifyTwoFactor: 'profile.errors.verify_2fa_failed',
  disableTwoFactor: 'profile.errors.disable_2fa_failed',
  loadDocuments: 'profile.errors.load_documents_failed',
  uploadDocuments: 'profile.errors.upload_documents_failed',
  deleteDocument: 'profile.errors.delete_document_failed',
  telegram: 'profile.errors.telegram_failed',
} as const;
