/**
 * Input validation with the contract's valibot schemas, for routes and for the domain alike (a
 * provider's webhook body is parsed where it is verified). A failure is an InvalidInput (400)
 * whose message is the first problem in plain words and whose `details` list every field's.
 */
import * as v from 'valibot';
import { issuesToFieldErrors } from '../../contract/validation';
import { invalid } from './errors';

export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const details = issuesToFieldErrors(result.issues);
  const first = details[0];
  throw invalid(first ? first.message : 'Validation failed', details);
}
