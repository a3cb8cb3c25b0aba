/**
 * The one helper every REST module of the SPA (api.ts, trading-api.ts, money-api.ts,
 * profile-api.ts, ...) builds its calls on: send through the http client, turn a failure
 * without server text into the call's fallback message (spec section 8; a server text always
 * wins), apply the section 5 response checks (`success`, `data`) and the contract's schema.
 * Retries are not made here: see machines/retry-policy.ts.
 */
import * as v from 'valibot';
import { ApiError, type HttpClient, type RequestOptions } from './http';

/** A key of an object-like answer, or undefined. */
export function field(body: unknown, key: string): unknown {
  return typeof body === 'object' && body !== null ? Reflect.get(body, key) : undefined;
}

/** An error without server text gets the call's fallback message; a server text stays. */
export function withFallback(error: unknown, fallback: string): ApiError {
  if (error instanceof ApiError) {
    if (error.serverMessage !== null) return error;
    return new ApiError(error.status, fallback, { serverMessage: null, details: error.details, body: error.body });
  }
  return new ApiError(0, fallback, { serverMessage: null });
}

/** A 2xx answer that fails the section 5 checks or the contract's shape. */
export const unexpected = (fallback: string, body: unknown) => new ApiError(400, fallback, { serverMessage: null, body });

/** `value` checked with `schema`, or the call's fallback error. */
export function checked<S extends v.GenericSchema>(schema: S, fallback: string, value: unknown, body: unknown = value): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (!result.success) throw unexpected(fallback, body);
  return result.output;
}

export function apiClient(http: HttpClient) {
  /** The raw answer (any 2xx body); a failure carries the server's text or `fallback`. */
  async function call(fallback: string, path: string, options: RequestOptions): Promise<unknown> {
    try {
      return await http.request<unknown>(path, options);
    } catch (error) {
      throw withFallback(error, fallback);
    }
  }

  /** The envelope's `data` of an answer with `success: true` (and, with requireData, a data). */
  async function data(fallback: string, path: string, options: RequestOptions, requireData = false): Promise<unknown> {
    const body = await call(fallback, path, options);
    const value = field(body, 'data');
    if (field(body, 'success') !== true || (requireData && (value === null || value === undefined))) throw unexpected(fallback, body);
    return value;
  }

  /** The envelope's `data` (success required) checked with the contract's schema. */
  async function parsed<S extends v.GenericSchema>(schema: S, fallback: string, path: string, options: RequestOptions): Promise<v.InferOutput<S>> {
    return checked(schema, fallback, await data(fallback, path, options));
  }

  return { call, data, parsed };
}
