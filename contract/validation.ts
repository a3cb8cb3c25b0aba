/**
 * Helpers for turning valibot issues into the envelope's field errors, used by the server's
 * routes and by the SPA's forms so both sides say the same thing about the same input.
 */
import * as v from 'valibot';
import type { FieldError } from './envelope';

export function issuesToFieldErrors(issues: readonly v.BaseIssue<unknown>[]): FieldError[] {
  return issues.map((issue) => ({
    field: v.getDotPath(issue) ?? '',
    message: issue.message,
  }));
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown): ParseResult<v.InferOutput<S>> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return { ok: true, value: result.output };
  return { ok: false, errors: issuesToFieldErrors(result.issues) };
}

/** A bounded string: every free-text input has an upper bound so no request can store megabytes. */
export const boundedString = (max: number, message = `Must be at most ${max} characters`) =>
  v.pipe(v.string('Must be a string'), v.maxLength(max, message));
