/**
 * `retryOnce`: the one way the SPA repeats a request (machines/retry-policy.ts, rule 1): an
 * idempotent request that got no answer at all is sent once more, unchanged, after a pause.
 */
import { isUnanswered, RETRY_DELAY_MS } from '../../machines/retry-policy';

export async function retryOnce<T>(request: () => Promise<T>, delayMs: number = RETRY_DELAY_MS): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (!isUnanswered(error)) throw error;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return request();
  }
}
