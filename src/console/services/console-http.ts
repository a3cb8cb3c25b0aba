/**
 * The console's HTTP client: same origin, the operator's own cookie (`op_session`, path
 * /api/console: the browser sends it only there), the CSRF header contract/console.ts names on
 * every call, 10 s timeout, and the spec's error normalisation (src/services/http.ts
 * `errorFromResponse`). No bearer token ever: the console never holds a trader's session.
 * A 401 on any call but the session's own check and the login tells the console root
 * (`onUnauthorized`), which sends the operator back to the login.
 */
import { ofetch } from 'ofetch';
import * as v from 'valibot';
import { CONSOLE_CSRF_HEADER } from '../../../contract/console';
import { ErrorText } from '../../../contract/envelope';
import { API_TIMEOUT_MS, ApiError, errorFromResponse } from '../../services/http';

export interface ConsoleRequest {
  method?: 'GET' | 'POST';
  body?: Record<string, unknown>;
  query?: Record<string, string | number | undefined>;
  /** Whether a 401 means "the session ended" (default true; false for /me and /login). */
  sessionCall?: boolean;
}

export interface ConsoleHttp {
  /** The envelope's `data` checked with the contract's schema. */
  data<S extends v.GenericSchema>(schema: S, path: string, request?: ConsoleRequest): Promise<v.InferOutput<S>>;
  /** A file from a GET (a CSV export): its bytes and the name the server gave it. */
  file(path: string, query: Record<string, string | number | undefined>): Promise<{ blob: Blob; name: string }>;
}

const $fetch = ofetch.create({ baseURL: '', timeout: API_TIMEOUT_MS, credentials: 'same-origin', retry: 0, ignoreResponseError: true });

export function createConsoleHttp(onUnauthorized: () => void): ConsoleHttp {
  const headers = { accept: 'application/json', [CONSOLE_CSRF_HEADER]: '1' };

  function failed(status: number, body: unknown, sessionCall: boolean): ApiError | null {
    const failure = errorFromResponse(status, body);
    if (failure && failure.status === 401 && sessionCall) onUnauthorized();
    return failure;
  }

  return {
    async data(schema, path, request = {}) {
      let response;
      try {
        response = await $fetch.raw(path, { method: request.method ?? 'GET', body: request.body, query: request.query, headers });
      } catch {
        throw new ApiError(0, ErrorText.requestFailed, { serverMessage: null });
      }
      const body: unknown = response._data;
      const failure = failed(response.status, body, request.sessionCall ?? true);
      if (failure) throw failure;
      const data = typeof body === 'object' && body !== null ? Reflect.get(body, 'data') : undefined;
      const parsed = v.safeParse(schema, data);
      if (!parsed.success) throw new ApiError(400, ErrorText.requestFailed, { serverMessage: null, body });
      return parsed.output;
    },
    async file(path, query) {
      let response;
      try {
        response = await $fetch.raw(path, { query, headers: { [CONSOLE_CSRF_HEADER]: '1' }, responseType: 'blob' });
      } catch {
        throw new ApiError(0, ErrorText.requestFailed, { serverMessage: null });
      }
      if (response.status < 200 || response.status >= 300) {
        let body: unknown = null;
        try {
          body = JSON.parse(await (response._data as Blob).text());
        } catch {}
        throw failed(response.status, body, true) ?? new ApiError(response.status, ErrorText.requestFailed, { serverMessage: null });
      }
      const disposition = response.headers.get('content-disposition') ?? '';
      const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? 'export.csv';
      return { blob: response._data as Blob, name };
    },
  };
}
