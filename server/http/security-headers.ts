/**
 * The security headers of every answer (Helmet's set: CSP, HSTS in production, frame, referrer
 * and MIME policies), computed ONCE at start.
 *
 * @fastify/helmet builds a new Helmet middleware for every request (parsing the CSP directives
 * each time): about 2 % of the server's CPU in the order placement profile, for headers that
 * never change (docs/performance.md, "Fifth pass"). The same Helmet options are run here once
 * against a recording response, and every request gets the recorded headers. A route that sets
 * its own header (an upload's sandboxed CSP) still replaces the default, as before.
 */
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** The headers Helmet would set for `options`, as a plain map (lower-case names). */
export function securityHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  let failure: unknown;
  helmet(options)({} as never, recorder as never, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

/** Set `securityHeaders(options)` on every answer of `app`. */
export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
