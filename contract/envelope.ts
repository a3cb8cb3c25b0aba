/**
 * The response envelope of every REST call (spec section 8):
 *   { success, data, error, error_message }
 * A failure carries the same text in `error` and `error_message`; validation failures add
 * `details` (one entry per offending field) so forms can show the message next to the field.
 */
import * as v from 'valibot';

export const FieldErrorSchema = v.object({
  field: v.string(),
  message: v.string(),
});
export type FieldError = v.InferOutput<typeof FieldErrorSchema>;

export const envelopeSchema = <T extends v.GenericSchema>(data: T) =>
  v.object({
    success: v.boolean(),
    data: v.nullable(data),
    error: v.nullable(v.string()),
    error_message: v.nullable(v.string()),
    details: v.optional(v.array(FieldErrorSchema)),
  });

export interface Envelope<T> {
  success: boolean;
  data: T | null;
  error: string | null;
  error_message: string | null;
  details?: FieldError[];
}

export const ok = <T>(data: T): Envelope<T> => ({ success: true, data, error: null, error_message: null });

export const fail = (message: string, details?: FieldError[]): Envelope<null> => ({
  success: false,
  data: null,
  error: message,
  error_message: message,
  ...(details && details.length ? { details } : {}),
});

/** Texts the server and client share verbatim (spec section 8). */
export const ErrorText = {
  requestFailed: 'Request failed',
  validationFailed: 'Validation failed',
  malformedJson: 'Malformed JSON body',
  payloadTooLarge: 'Request body too large',
  unsupportedMediaType: 'Unsupported content type',
  notFound: 'Not found',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  tooManyRequests: 'Too many requests, please try again later',
  /** A node that is draining (SIGTERM) answers new requests and sockets with this (503). */
  serverShuttingDown: 'Server is shutting down, please retry',
  internal: 'Internal server error',
  missingCredentials: 'Missing credentials',
  invalidCredentials: 'Invalid credentials',
  userNotFound: 'User not found',
  invalidResetToken: 'Invalid reset token or expired, try to send reset link again',
  insufficientBalance: 'Insufficient balance',
  pairNotFound: 'Pair not found',
  websocketRequired: 'WebSocket connection required',
  /** A socket event whose payload does not match its schema. */
  invalidPayload: 'Invalid payload',
} as const;
