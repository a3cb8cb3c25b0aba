/**
 * Request parsing for routes: a JSON body and an id parameter, on top of the domain's
 * `parseInput` (server/domain/parse.ts), which every route and webhook uses.
 */
import * as v from 'valibot';
import { invalid } from '../domain/errors';
import { parseInput } from '../domain/parse';

export { parseInput };

/** A JSON body must be an object; a missing body counts as an empty object. */
export function parseBody<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  const input = body === undefined || body === null || body === '' ? {} : body;
  if (typeof input !== 'object' || Array.isArray(input)) throw invalid('Request body must be a JSON object');
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
