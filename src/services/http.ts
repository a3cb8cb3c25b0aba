/**
 * The HTTP client of the SPA: one ofetch instance (same origin, 10 s timeout, credentials
 * included) plus the error normalisation of spec section 8, so every caller gets either the
 * parsed body or an ApiError with a status and a message.
 *
 * - A body carrying a non-null `error` or `error_message`, `success: false` or `status: false`
 *   is an ApiError with status 400 even on HTTP 200; its message is error_message, then error,
 *   then message, else "Request failed"; the status then follows the text ("Unauthorized" ->
 *   401, "Forbidden" -> 403, "Not found" -> 404, ...).
 * - An HTTP failure keeps its real status (message from the envelope when present); no
 *   response at all (network error, timeout) is status 0.
 * - Calls carry the session's bearer token unless told not to (login, register, refresh and the
 *   other public auth calls). A 401 on a bearer call triggers ONE token refresh, shared by every
 *   request that fails meanwhile, and one retry with the new token; if the refresh is refused or the
 *   retry is refused again, the session is told to log out locally. A refresh that got no answer
 *   (network failure, timeout, 408, 429, 5xx) leaves the session alone and fails with that status.
 */
import { ofetch, type $Fetch } from 'ofetch';
import * as v from 'valibot';
import { ErrorText, FieldErrorSchema, type FieldError } from '../../contract/envelope';
import { isNoVerdictStatus } from '../../machines/retry-policy';

export const API_TIMEOUT_MS = 10_000;

export class ApiError extends Error {
  /** HTTP-like status: the real one, the one the text implies, 400 for a failed envelope, 0 without a response. */
  readonly status: number;
  /** The text the server gave, or null when `message` is a fallback. */
  readonly serverMessage: string | null;
  /** Per-field problems from the envelope's `details`. */
  readonly details: FieldError[];
  /** The parsed response body, if there was one. */
  readonly body: unknown;

  constructor(status: number, message: string, extra: { serverMessage?: string | null; details?: FieldError[]; body?: unknown } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = extra.serverMessage === undefined ? message : extra.serverMessage;
    this.details = extra.details ?? [];
    this.body = extra.body;
  }
}

/** Error texts that carry a status of their own (spec section 8). */
const STATUS_BY_TEXT: ReadonlyArray<[string, number]> = [
  ['invalid username or password', 401],
  ['unauthorized', 401],
  ['authentication failed', 401],
  ['forbidden', 403],
  ['access denied', 403],
  ['not found', 404],
  ['user not found', 404],
];

export function statusForText(message: string, otherwise: number): number {
  const text = message.trim().toLowerCase();
  return STATUS_BY_TEXT.find(([known]) => known === text)?.[1] ?? otherwise;
}

function field(body: unknown, key: string): unknown {
  return typeof body === 'object' && body !== null ? Reflect.get(body, key) : undefined;
}

/** error_message, then error, then message: the first non-empty text. */
export function envelopeMessage(body: unknown): string | null {
  for (const key of ['error_message', 'error', 'message']) {
    const value = field(body, key);
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

/** Whether a response body says the call failed (spec section 8). */
export function isFailedEnvelope(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const error = field(body, 'error');
  const errorMessage = field(body, 'error_message');
  return (error !== null && error !== undefined) || (errorMessage !== null && errorMessage !== undefined) || field(body, 'success') === false || field(body, 'status') === false;
}

function detailsOf(body: unknown): FieldError[] {
  const parsed = v.safeParse(v.array(FieldErrorSchema), field(body, 'details'));
  return parsed.success ? parsed.output : [];
}

/** The ApiError a response stands for, or null when it is a success. */
export function errorFromResponse(httpStatus: number, body: unknown): ApiError | null {
  const message = envelopeMessage(body);
  if (httpStatus < 200 || httpStatus >= 300) {
    return new ApiError(httpStatus, message ?? ErrorText.requestFailed, { serverMessage: message, details: detailsOf(body), body });
  }
  if (isFailedEnvelope(body)) {
    const text = message ?? ErrorText.requestFailed;
    return new ApiError(statusForText(text, 400), text, { serverMessage: message, details: detailsOf(body), body });
  }
  return null;
}

export interface RefreshedTokens {
  token: string;
  refreshToken: string | null;
}

/** How the client reaches the session: wired by create-app-actor to the session actor. */
export interface HttpAuth {
  getToken(): string | null;
  getRefreshToken(): string | null;
  /** Exchanges the refresh token for new tokens (a call made without the bearer token). */
  refresh(refreshToken: string): Promise<RefreshedTokens>;
  onTokensRefreshed(tokens: RefreshedTokens): void;
  /** A 401 the refresh could not cure: log out locally. */
  onUnauthorized(): void;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Send the bearer token (default true). */
  auth?: boolean;
  /** On a 401, refresh once and retry (default true for bearer calls). */
  recoverUnauthorized?: boolean;
  signal?: AbortSignal;
  /** Milliseconds before this call gives up (status 0); default the client's (API_TIMEOUT_MS). Uploads pass a longer one. */
  timeout?: number;
}

export interface HttpClient {
  /** The parsed body of a successful response; throws ApiError otherwise. */
  request<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  setAuth(auth: HttpAuth | null): void;
}

export interface HttpClientOptions {
  /** '' (same origin) in the SPA; an absolute address in tests. */
  baseURL?: string;
  timeout?: number;
  fetch?: typeof globalThis.fetch;
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const $fetch: $Fetch = ofetch.create(
    {
      baseURL: options.baseURL ?? '',
      timeout: options.timeout ?? API_TIMEOUT_MS,
      credentials: 'include',
      retry: 0,
      // Every status comes back as a response; the normalisation above decides.
      ignoreResponseError: true,
    },
    options.fetch ? { fetch: options.fetch } : {},
  );
  let auth: HttpAuth | null = null;
  let refreshing: Promise<string> | null = null;

  async function send<T>(path: string, opts: RequestOptions, token: string | null): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    let response;
    try {
      response = await $fetch.raw(path, {
        method: opts.method ?? 'GET',
        body: opts.body as Record<string, unknown> | BodyInit | undefined,
        query: opts.query,
        headers,
        signal: opts.signal,
        // Only when given: an explicit undefined would replace the client's default.
        ...(opts.timeout !== undefined ? { timeout: opts.timeout } : {}),
      });
    } catch (error) {
      // No response: offline, DNS, refused, timed out or aborted.
      throw new ApiError(0, ErrorText.requestFailed, { serverMessage: null, body: error instanceof Error ? error.message : undefined });
    }
    const body: unknown = response._data;
    const failure = errorFromResponse(response.status, body);
    if (failure) throw failure;
    return body as T;
  }

  /** One refresh for every request that hit a 401 with the same token. */
  function refreshOnce(usedToken: string): Promise<string> {
    const bridge = auth;
    if (!bridge) return Promise.reject(new ApiError(401, ErrorText.unauthorized));
    const current = bridge.getToken();
    // Someone else refreshed while this request was out: just use the new token.
    if (current && current !== usedToken) return Promise.resolve(current);
    if (!refreshing) {
      refreshing = (async () => {
        const refreshToken = bridge.getRefreshToken();
        if (!refreshToken) throw new ApiError(401, 'Token refresh failed', { serverMessage: null });
        const tokens = await bridge.refresh(refreshToken);
        bridge.onTokensRefreshed(tokens);
        return tokens.token;
      })().finally(() => {
        refreshing = null;
      });
    }
    return refreshing;
  }

  return {
    setAuth(next) {
      auth = next;
    },
    async request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
      const bearer = opts.auth !== false;
      const usedToken = bearer ? (auth?.getToken() ?? null) : null;
      try {
        return await send<T>(path, opts, usedToken);
      } catch (error) {
        const recover = bearer && opts.recoverUnauthorized !== false && usedToken !== null && auth !== null;
        if (!(error instanceof ApiError) || error.status !== 401 || !recover) throw error;
        let token: string;
        try {
          token = await refreshOnce(usedToken);
        } catch (refreshError) {
          // A refresh the server never answered (status 0, 408, 429, 5xx) is no verdict on the
          // session: the caller gets that failure and the session stays.
          if (refreshError instanceof ApiError && isNoVerdictStatus(refreshError.status)) throw refreshError;
          auth?.onUnauthorized();
          throw error;
        }
        try {
          return await send<T>(path, opts, token);
        } catch (retryError) {
          if (retryError instanceof ApiError && retryError.status === 401) auth?.onUnauthorized();
          throw retryError;
        }
      }
    },
  };
}
