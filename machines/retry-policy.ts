/**
 * The client's one retry policy. Every retry in the SPA follows it:
 *
 * 1. Only idempotent requests are sent again (placing and closing an order, creating a
 *    deposit), **unchanged** (the same client_request_id, the same body), **once**, after
 *    `RETRY_DELAY_MS`, and only when **no answer came at all** (status 0: offline, reset,
 *    aborted, timed out): src/services/retry.ts `retryOnce`. Any HTTP answer, a 5xx included, is
 *    shown; the person's Retry is then a new attempt with a new id (the server may have recorded
 *    the failed one, e.g. a deposit the provider refused is stored as failed and answered 502).
 * 2. A session gets **no verdict** from no answer, 408, 429 or a 5xx (`isNoVerdict`): a stored
 *    session at start-up is then asked about again on the `SESSION_RECONNECT_DELAYS_MS`
 *    schedule until a verdict comes (machines/session), and a token refresh with no verdict
 *    leaves the session alone (src/services/http.ts). Only a verdict (401, another 4xx) ends it.
 * 3. A 401 on a bearer call is refreshed once by the http client and the request repeated once.
 *
 * Pure (machines and src both read it).
 */

/** The pause before an idempotent request is sent once more. */
export const RETRY_DELAY_MS = 500;

/** Rule 1: whether a failure (anything carrying a numeric `status`) got no answer at all. */
export function isUnanswered(error: unknown): boolean {
  return typeof error === 'object' && error !== null && Reflect.get(error, 'status') === 0;
}

/** Rule 2: whether an HTTP status (0 = no response) is no verdict on a session: 0, 408, 429, 5xx. */
export function isNoVerdictStatus(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

/** Rule 2 for a failure carrying a numeric `status`. */
export function isNoVerdict(error: unknown): boolean {
  const status: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, 'status') : undefined;
  return typeof status === 'number' && isNoVerdictStatus(status);
}
