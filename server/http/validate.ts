/**
 * Input validation with the contract's valibot schemas. A failure is a 400 whose message is the
 * first problem in plain words and whose `details` list every field's problem.
 */
import * as v from 'valibot';
import { issuesToFieldErrors } from '../../contract/validation';
import { badRequest } from './errors';

export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const details = issuesToFieldErrors(result.issues);
  const first = details[0];
  throw badRequest(first ? first.message : 'Validation failed', details);
}

/** A JSON body must be an object; a missing body counts as an empty object. */
export function parseBody<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  const input = body === undefined || body === null || body === '' ? {} : body;
  if (typeof input !== 'object' || Array.isArray(input)) throw badRequest('Request body must be a JSON object');
  return parseInput(schema, input);
}

/** Route id parameter: a positive integer. */
export const IdParamSchema = v.object({
  id: v.pipe(
    v.string(),
    v.regex(/^[1-9]\d{0,15}$/, 'Id must be a positive whole number'),
    v.transform(Number),
  ),
});
