/**
 * The security forms' rules (spec section 5, "Profile password change": old, new and confirm
 * are required, new at least 6 characters, new and confirm equal), plus what the server adds
 * (contract/profile.ts, ChangePasswordSchema): at most 128 characters, not only spaces, and
 * different from the current password. The two-factor code is 6 digits (spaces allowed, as an
 * authenticator app shows "123 456"). Messages are locale keys.
 */
import * as v from 'valibot';
import { CHANGE_PASSWORD_MIN } from '../../contract/profile';
import { PASSWORD_MAX } from '../registration/registration.schemas';

export const PasswordChangeFormSchema = v.pipe(
  v.object({
    oldPassword: v.pipe(v.string('profile.validation.old_password_required'), v.nonEmpty('profile.validation.old_password_required'), v.maxLength(PASSWORD_MAX, 'validation.password_max_length')),
    newPassword: v.pipe(
      v.string('profile.validation.new_password_required'),
      v.nonEmpty('profile.validation.new_password_required'),
      v.minLength(CHANGE_PASSWORD_MIN, 'profile.validation.new_password_min_length'),
      v.maxLength(PASSWORD_MAX, 'validation.password_max_length'),
      v.check((s) => s.trim().length > 0, 'profile.validation.new_password_blank'),
    ),
    confirmPassword: v.pipe(v.string('validation.password_confirmation_required'), v.nonEmpty('validation.password_confirmation_required')),
  }),
  v.forward(
    v.partialCheck([['newPassword'], ['confirmPassword']], (o) => o.newPassword === o.confirmPassword, 'validation.passwords_do_not_match'),
    ['confirmPassword'],
  ),
  v.forward(
    v.partialCheck([['oldPassword'], ['newPassword']], (o) => o.oldPassword !== o.newPassword, 'profile.validation.new_password_same'),
    ['newPassword'],
  ),
);
export type PasswordChangeFormValues = v.InferOutput<typeof PasswordChangeFormSchema>;

export const TwoFactorCodeFormSchema = v.object({
  code: v.pipe(
    v.string('profile.validation.code_invalid'),
    v.transform((s) => s.replace(/\s+/g, '')),
    v.regex(/^\d{6}$/, 'profile.validation.code_invalid'),
  ),
});
export type TwoFactorCodeFormValues = v.InferOutput<typeof TwoFactorCodeFormSchema>;
