/**
 * Result shapes shared by the areas.
 */

/**
 * The result of a write keyed by the caller's request id: `created` is false when the request
 * was a replay of an earlier identical one and `value` is what that one made (an order, a
 * deposit, a withdrawal). A retried request never writes twice.
 */
export interface Replayable<T> {
  value: T;
  created: boolean;
}
