/**
 * HTTP hardening that belongs to no single route (issue 12, docs/security.md):
 *
 * - `connectSources(config)`: the CSP connect-src list. 'self' (which in CSP Level 3 also
 *   covers ws:/wss: to the page's own host and port) plus, when PUBLIC_URL is set, that origin
 *   and its ws:/wss: form. Never a bare `ws:`/`wss:` (any host).
 * - `registerHardening(app)`: one onRequest hook answering a request line over MAX_URL_LENGTH
 *   with 414 and the envelope, and one onSend hook giving every /api/ response that has not
 *   chosen its own caching `Cache-Control: no-store` (every authenticated JSON answer — /auth/me,
 *   profile, orders, transactions, documents — and the token-issuing ones).
 * - `clientErrorHandler`: what Node's HTTP parser refuses before Fastify sees a request (headers
 *   or request line over Node's maxHeaderSize, 16 KiB; malformed requests; header timeouts)
 *   answers with the spec's envelope and status (414 when the request line itself is too long,
 *   431 for headers, 408, 400) and then closes gracefully: it half-closes after the answer and
 *   discards what the client still sends for a moment, so the client reads the answer instead
 *   of a connection reset.
 * - `frameworkErrors`: Fastify's own router refusals (a bad %-encoding, a path parameter over
 *   maxParamLength) in the envelope too.
 */
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail, ErrorText } from '../../contract/envelope';

/** Longest request target (path and query) accepted, in characters. */
export const MAX_URL_LENGTH = 8 * 1024;
/** Longest path parameter the router accepts (Fastify's maxParamLength; its default is 100). */
export const MAX_PARAM_LENGTH = 200;
/** How long a refused connection may keep sending before it is cut. */
const DRAIN_MS = 3_000;

export const HardeningText = {
  uriTooLong: 'Request URI too long',
  headersTooLarge: 'Request headers too large',
  requestTimeout: 'Request timeout',
  badRequest: 'Bad request',
} as const;

export function connectSources(publicUrl: string | undefined): string[] {
  const sources = ["'self'"];
  if (!publicUrl) return sources;
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    return sources;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return sources;
  const ws = url.protocol === 'https:' ? 'wss:' : 'ws:';
  sources.push(url.origin, `${ws}//${url.host}`);
  return sources;
}

export function registerHardening(app: FastifyInstance): void {
  // Callback-style: these run on every request (an async hook costs a promise and its ticks).
  app.addHook('onRequest', (req, reply, done) => {
    if (req.raw.url && req.raw.url.length > MAX_URL_LENGTH) {
      reply.status(414).header('connection', 'close').send(fail(HardeningText.uriTooLong));
      return;
    }
    done();
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}

const REQUEST_LINE = /^[A-Z]{3,10} \S/;

/** Whether the chunk the parser failed on shows an unfinished or over-long request line. */
function requestLineTooLong(raw: unknown): boolean {
  if (!Buffer.isBuffer(raw)) return false;
  const head = raw.subarray(0, Math.min(raw.length, MAX_URL_LENGTH + 64)).toString('latin1');
  if (!REQUEST_LINE.test(head)) return false;
  const end = head.indexOf('\r\n');
  return end === -1 || end > MAX_URL_LENGTH;
}

const answered = new WeakSet<Socket>();

export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
  answered.add(socket);
  let status = 400;
  let message: string = HardeningText.badRequest;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    [status, message] = requestLineTooLong(err.rawPacket) ? [414, HardeningText.uriTooLong] : [431, HardeningText.headersTooLarge];
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'HPE_HEADER_TIMEOUT') {
    [status, message] = [408, HardeningText.requestTimeout];
  }
  this.log.debug({ code: err.code, status }, 'client error');
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(fail(message));
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' }[status];
  // Half-close after the answer and read (and drop) whatever the client still sends, so it gets
  // the answer instead of a reset; cut the connection after DRAIN_MS whatever happens.
  socket.on('data', () => undefined);
  socket.on('error', () => undefined);
  socket.resume();
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), DRAIN_MS).unref();
}

/** Fastify's router refusals (FST_ERR_BAD_URL, FST_ERR_MAX_PARAM_LENGTH, ...) in the envelope. */
export function frameworkErrors(error: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const message = status === 414 ? HardeningText.uriTooLong : status === 404 ? ErrorText.notFound : HardeningText.badRequest;
  void reply.status(status).send(fail(message));
}

/** The Fastify constructor options this module stands for. */
export const hardenedServerOptions = {
  routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
  clientErrorHandler,
  frameworkErrors,
} as const;
