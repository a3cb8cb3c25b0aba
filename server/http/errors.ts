/**
 * Errors a route may throw on purpose. The error handler (app.ts) turns an HttpError into the
 * spec's envelope with its status; anything else becomes a 500 "Internal server error" with
 * nothing of its internals in the body (the log keeps them).
 */
import type { FieldError } from '../../contract/envelope';
import { ErrorText } from '../../contract/envelope';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: FieldError[],
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: FieldError[]) => new HttpError(400, message, details);
export const unauthorized = (message: string = ErrorText.unauthorized) => new HttpError(401, message);
export const forbidden = (message: string = ErrorText.forbidden) => new HttpError(403, message);
export const notFound = (message: string = ErrorText.notFound) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooManyRequests = (message: string = ErrorText.tooManyRequests) => new HttpError(429, message);
