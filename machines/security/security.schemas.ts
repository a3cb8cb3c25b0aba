/**
 * The security forms' rules. The new password follows the one password rule of registration
 * and reset (contract/auth.ts's PasswordSchema, issue 26: at least 8 characters with a lowercase
 * and an uppercase letter, a digit and a symbol, no spaces; its English texts are shown through
 * their locale keys, src/i18n/server-texts.ts), plus what the change adds (contract/profile.ts,
 * ChangePasswordSchema): old, new and confirm required, new and confirm equal, new different
 * from the current password. The two-factor code is 6 digits (spaces allowed, as an
 * authenticator app shows "123 456"); a recovery code is 10 letters and digits (a dash and
 * spaces allowed, any case). Other messages are locale keys.
 */
import * as v from 'valibot';
import { RecoveryCodeSchema } from '../../contract/profile';
import { PASSWORD_MAX, PasswordSchema } from '../registration/registration.schemas';

export const PasswordChangeFormSchema = v.pipe(
  v.object({
    oldPassword: v.pipe(v.string('profile.validation.old_password_required'), v.nonEmpty('profile.validation.old_password_required'), v.maxLength(PASSWORD_MAX, 'validation.password_max_length')),
    newPassword: PasswordSchema,
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

export const RecoveryCodeFormSchema = v.object({
  code: v.pipe(v.string('auth.recovery_code_invalid'), v.check((s) => v.is(RecoveryCodeSchema, s), 'auth.recovery_code_invalid')),
});
export type RecoveryCodeFormValues = v.InferOutput<typeof RecoveryCodeFormSchema>;
