/**
 * Helpers of every area's socket handlers: a handler that never rejects (a failure is logged and
 * answered with `error_message`, internals never reach the client) and a payload checked with
 * its contract schema.
 */
import * as v from 'valibot';
import type { Socket } from 'socket.io';
import { ErrorText } from '../../contract/envelope';
import type { DomainLog } from '../domain/log';

/**
 * An async socket handler that never rejects: a failure is logged and answered with
 * `error_message {event, message: 'Request failed'}` (internals never reach the client).
 */
export function socketHandler(ctx: { log: DomainLog }, socket: Socket, event: string, handle: (raw: unknown) => Promise<unknown>) {
  return (raw: unknown) => {
    handle(raw).catch((err: unknown) => {
      ctx.log.error({ err, event }, 'socket handler failed');
      socket.emit('error_message', { event, message: ErrorText.requestFailed });
    });
  };
}

/**
 * A socket event's payload checked with its contract schema: the output, or null after telling
 * the client (`error_message` with the event and "Invalid payload").
 */
export function socketPayload<S extends v.GenericSchema>(socket: Socket, event: string, schema: S, raw: unknown): v.InferOutput<S> | null {
  const parsed = v.safeParse(schema, raw);
  if (parsed.success) return parsed.output;
  socket.emit('error_message', { event, message: ErrorText.invalidPayload });
  return null;
}
