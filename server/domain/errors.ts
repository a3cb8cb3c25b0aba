/**
 * The failures a domain rule reports on purpose. The domain speaks of what went wrong (invalid
 * input, not found, a conflict, a provider that failed), never of HTTP: the app's one error
 * handler (server/http/errors.ts `failureOf`) turns each class into the spec's envelope and its
 * status, and the operator CLI prints its message. An area that needs a failure of its own
 * subclasses one of these (its status follows the parent). Anything that is not a DomainError is
 * a bug: a 500 "Internal server error" with nothing of its internals in the body.
 */
import type { FieldError } from '../../contract/envelope';
import { ErrorText } from '../../contract/envelope';

export abstract class DomainError extends Error {
  constructor(
    message: string,
    /** Per-field messages of a rejected input (the envelope's `details`). */
    readonly details?: FieldError[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The input breaks a rule (spec: 400). */
export class InvalidInput extends DomainError {}
/** No valid session, or wrong credentials for one (401). */
export class Unauthenticated extends DomainError {}
/** The caller may not do this (403). */
export class Forbidden extends DomainError {}
/** What the caller names does not exist, or is not theirs (404). */
export class NotFound extends DomainError {}
/** The state does not allow it: a duplicate, an order already closed, a review already done (409). */
export class Conflict extends DomainError {}
/** An upload over its size limit (413). */
export class TooLarge extends DomainError {}
/** Too many attempts in a window (429). */
export class RateLimited extends DomainError {}
/** An external provider answered with a refusal or an error (502). */
export class ProviderFailed extends DomainError {}
/** A part the request needs is not available right now (503). */
export class Unavailable extends DomainError {}
/** An external provider did not answer in time (504). */
export class ProviderTimeout extends DomainError {}

export const invalid = (message: string, details?: FieldError[]) => new InvalidInput(message, details);
export const unauthenticated = (message: string = ErrorText.unauthorized) => new Unauthenticated(message);
export const forbidden = (message: string = ErrorText.forbidden) => new Forbidden(message);
export const notFound = (message: string = ErrorText.notFound) => new NotFound(message);
export const conflict = (message: string) => new Conflict(message);
export const rateLimited = (message: string = ErrorText.tooManyRequests) => new RateLimited(message);
