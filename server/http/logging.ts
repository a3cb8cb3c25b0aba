/**
 * The server's log (docs/operations.md, "Logs"): Fastify's pino logger, one JSON object per line
 * on stdout, at LOG_LEVEL. Every request has an id (the balancer's `x-request-id` when it sends
 * one, else a random UUID), echoed in the `x-request-id` response header, and every line logged
 * for the request carries it (`reqId`) and, once the token is checked, the user's id (`userId`).
 *
 * What never reaches the log: request bodies and headers are not logged at all (so no password,
 * 2FA code, card number or document); addresses are logged with their query values for secrets
 * replaced (`?token=` of the admin link and the reset link, `code`, `secret`...); and the redact
 * list below censors those names wherever a log call passes them in an object.
 */
import crypto from 'node:crypto';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Where the log lines go instead of stdout (tests capture them). */
export interface LogStream {
  write(line: string): void;
}

/** Query parameters whose values are secrets. */
const SECRET_PARAMS = /^(token|access_token|refresh_token|code|otp|secret|password|signature|sig|key|api_key)$/i;

/** The address with the values of secret query parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as sent (it is not a known secret's name).
      }
      return eq >= 0 && SECRET_PARAMS.test(decoded) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/** Names censored wherever they appear in a logged object (pino `redact`). */
export const REDACT_PATHS = [
  'password',
  'token',
  'refreshToken',
  'refresh_token',
  'accessToken',
  'secret',
  'code',
  'authorization',
  'cookie',
  '*.password',
  '*.token',
  '*.refreshToken',
  '*.refresh_token',
  '*.accessToken',
  '*.secret',
  '*.code',
  '*.authorization',
  '*.cookie',
  '*.card_number',
  '*.requisites',
];

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Fastify's logger and request-id options for a level (and, in tests, a stream to capture). */
export function loggingOptions(level: string, stream?: LogStream): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'requestIdHeader'> {
  return {
    logger:
      level === 'silent'
        ? false
        : {
            level,
            ...(stream ? { stream } : {}),
            redact: { paths: REDACT_PATHS, censor: '[redacted]' },
            serializers: {
              req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
              res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            },
          },
    // The balancer's id when it is a plain token (nginx: proxy_set_header X-Request-Id $request_id),
    // else a fresh UUID. Read by genReqId, not by Fastify's requestIdHeader, which takes any value.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    },
  };
}

/** Add the user's id to every later line of this request's log (no-op when logging is off). */
export function bindUser(req: FastifyRequest, userId: number): void {
  const log = req.log as { setBindings?: (b: Record<string, unknown>) => void };
  log.setBindings?.({ userId });
}
