/**
 * The password reset forms' rules (spec section 5, Password reset: a 6-digit code plus a new
 * password). The new password follows the registration password rule; messages are locale keys.
 */
import * as v from 'valibot';
import { EmailSchema, PasswordSchema } from '../registration/registration.schemas';

export const RESET_CODE_LENGTH = 6;

export const ResetEmailSchema = v.object({ email: EmailSchema });

const NewPasswordFields = {
  newPassword: PasswordSchema,
  passwordConfirmation: v.pipe(v.string('validation.password_confirmation_required'), v.nonEmpty('validation.password_confirmation_required')),
};

/** The one screen after the email: the emailed code, the new password and its confirmation. */
export const ResetCodeFormSchema = v.pipe(
  v.object({
    code: v.pipe(v.string('validation.reset_code_invalid'), v.trim(), v.regex(/^\d{6}$/, 'validation.reset_code_invalid')),
    ...NewPasswordFields,
  }),
  v.forward(
    v.partialCheck([['newPassword'], ['passwordConfirmation']], (input) => input.newPassword === input.passwordConfirmation, 'validation.passwords_do_not_match'),
    ['passwordConfirmation'],
  ),
);

/** The screen reached from an emailed reset link: the new password and its confirmation. */
export const NewPasswordFormSchema = v.pipe(
  v.object(NewPasswordFields),
  v.forward(
    v.partialCheck([['newPassword'], ['passwordConfirmation']], (input) => input.newPassword === input.passwordConfirmation, 'validation.passwords_do_not_match'),
    ['passwordConfirmation'],
  ),
);

export type ResetCodeFormValues = v.InferOutput<typeof ResetCodeFormSchema>;
export type NewPasswordFormValues = v.InferOutput<typeof NewPasswordFormSchema>;
