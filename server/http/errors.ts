/**
 * The one place where a failure becomes an HTTP answer. Routes and domain code throw the
 * domain's error classes (server/domain/errors.ts); the app's error handler (app.ts) asks
 * `failureOf` for the status and the spec's envelope. Anything that is not a DomainError is left
 * to the handler (framework 4xx errors keep their status, the rest is a 500).
 */
import { fail, type Envelope } from '../../contract/envelope';
import {
  Conflict,
  DomainError,
  Forbidden,
  InvalidInput,
  NotFound,
  ProviderFailed,
  ProviderTimeout,
  RateLimited,
  TooLarge,
  Unauthenticated,
  Unavailable,
} from '../domain/errors';

/** Status per domain failure; a subclass takes its parent's (the prototype chain is walked). */
const STATUS = new Map<abstract new (...args: never[]) => DomainError, number>([
  [InvalidInput, 400],
  [Unauthenticated, 401],
  [Forbidden, 403],
  [NotFound, 404],
  [Conflict, 409],
  [TooLarge, 413],
  [RateLimited, 429],
  [ProviderFailed, 502],
  [Unavailable, 503],
  [ProviderTimeout, 504],
]);

export function statusOf(error: DomainError): number {
  for (let proto = Object.getPrototypeOf(error); proto && proto !== DomainError.prototype; proto = Object.getPrototypeOf(proto)) {
    const status = STATUS.get(proto.constructor);
    if (status !== undefined) return status;
  }
  return 400;
}

/** The status and envelope for a domain failure, or null for anything else. */
export function failureOf(error: unknown): { status: number; body: Envelope<null> } | null {
  if (!(error instanceof DomainError)) return null;
  return { status: statusOf(error), body: fail(error.message, error.details) };
}
