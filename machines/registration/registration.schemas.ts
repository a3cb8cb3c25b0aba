/**
 * The registration steps' rules (spec section 5, Registration): the contract's own step
 * schemas (contract/auth.ts), so the wizard refuses exactly what the server refuses. The
 * machine guards its steps with them and the view validates each field on blur with them.
 *
 * Messages are the contract's English texts (FieldText, AuthText); the view shows each through
 * its locale key, mapped once in src/i18n/server-texts.ts.
 */
import type * as v from 'valibot';
import { RegisterStep1Schema, RegisterStep2Schema, RegisterStep3Schema } from '../../contract/auth';

export { EMAIL_MAX, PASSWORD_MAX, EmailSchema, FirstNameSchema, LastNameSchema, PasswordSchema, PhoneSchema } from '../../contract/auth';

/** Step 1: username, email, password and its confirmation. */
export const BasicInfoSchema = RegisterStep1Schema;
/** Step 2: first name, last name, phone. */
export const PersonalDetailsSchema = RegisterStep2Schema;
/** Step 3: account currency and the terms. */
export const AccountSettingsSchema = RegisterStep3Schema;

export type BasicInfoValues = v.InferOutput<typeof BasicInfoSchema>;
export type PersonalDetailsValues = v.InferOutput<typeof PersonalDetailsSchema>;
export type AccountSettingsValues = v.InferOutput<typeof AccountSettingsSchema>;

/** The form's starting values (what the view shows before anything is typed). */
export interface RegistrationDraft {
  basicInfo: { username: string; email: string; password: string; password_confirmation: string };
  personalDetails: { first_name: string; last_name: string; phone: string };
  accountSettings: { currency: string; terms_accepted: boolean };
}
