/**
 * The form validation the app's forms share (@modular-forms/react with valibot schemas).
 *
 * modular-forms' own valiForm parses with `abortPipeEarly`, which skips a schema's cross-field
 * checks (v.forward(v.partialCheck(...)): "passwords do not match") as soon as ANY field of the
 * form has a problem, so a mismatched confirmation went unflagged on blur while, say, the
 * username was still empty. This runs every check and keeps the first problem of each field,
 * so the mismatch shows on blur like every other rule (spec section 5, "Forms validate on blur").
 */
import * as v from 'valibot';
import type { FieldValues, ValidateForm } from '@modular-forms/react';

export function validateForm<TValues extends FieldValues>(schema: v.GenericSchema | v.GenericSchemaAsync): ValidateForm<TValues> {
  return async (values) => {
    const result = await v.safeParseAsync(schema, values);
    const errors: Record<string, string> = {};
    for (const issue of result.issues ?? []) {
      const path = v.getDotPath(issue);
      if (path !== null && !(path in errors)) errors[path] = issue.message;
    }
    return errors as Awaited<ReturnType<ValidateForm<TValues>>>;
  };
}
