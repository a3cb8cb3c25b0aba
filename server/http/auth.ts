/**
 * The bearer-token guards. `requireAuth(ctx)` is a preHandler that accepts only a valid access
 * token of a live session and puts its claims on `request.auth`; anything else is a 401 with
 * the envelope. Routes read `request.auth!.userId`.
 *
 * `requireToken(ctx)` is for a route that opens a write transaction anyway (order placement):
 * it checks the token (signature, expiry) and leaves the session's liveness read to that
 * transaction, through `request.pendingSession.verify(trx)`, the only way to the claims. On
 * SQLite a read before the transaction is a read transaction of its own (17-18 us, and the
 * request waits on it); inside, the read and the transaction's begin cost 18.8 us together
 * against 22 us, and the paced p99 at 2,000 orders/s fell (docs/performance.md, "Twelfth
 * pass"). A dead session is still a 401 and writes nothing.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Trx } from '../db';
import type { AccessClaims } from '../infra/tokens';
import { unauthenticated, forbidden } from '../domain/errors';
import { ConsoleText } from '../../contract/console';

/** A valid access token whose session is checked by `verify`, on the caller's transaction. */
export interface PendingSession {
  /** The token's claims once its session reads as live on `db`; a 401 otherwise. */
  verify(db: Trx): Promise<AccessClaims>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AccessClaims | null;
    pendingSession: PendingSession | null;
  }
}

export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h.trim());
  return m ? m[1] : null;
}

/** The claims of the request's bearer token when it is valid (signature, expiry); a 401 otherwise. */
async function tokenClaims(ctx: AppContext, req: FastifyRequest): Promise<AccessClaims> {
  const token = bearerToken(req);
  if (!token) throw unauthenticated();
  const claims = await ctx.tokens.verify(token, ctx.now());
  if (!claims) throw unauthenticated();
  return claims;
}

/**
 * Options of a guard. `money`: the route moves money (orders, deposits, withdrawals), which an
 * admin session (an operator's "open as user", issue 27) may not do: it is read-only for money,
 * and such a request is a 403 with ConsoleText.adminReadOnly.
 */
export interface GuardOptions {
  money?: boolean;
}

function checkMoney(claims: AccessClaims, options: GuardOptions): void {
  if (options.money && claims.sessionType === 'admin') throw forbidden(ConsoleText.adminReadOnly);
}

export function requireAuth(ctx: AppContext, options: GuardOptions = {}) {
  return async (req: FastifyRequest, _reply: FastifyReply) => {
    const claims = await tokenClaims(ctx, req);
    if (!(await ctx.services.sessions.isActive(claims))) throw unauthenticated();
    checkMoney(claims, options);
    req.auth = claims;
  };
}

export function requireToken(ctx: AppContext, options: GuardOptions = {}) {
  return async (req: FastifyRequest, _reply: FastifyReply) => {
    const claims = await tokenClaims(ctx, req);
    checkMoney(claims, options);
    req.pendingSession = {
      verify: async (db) => {
        if (!(await ctx.services.sessions.isActive(claims, db))) throw unauthenticated();
        return claims;
      },
    };
  };
}

export function requireAdmin(ctx: AppContext) {
  const base = requireAuth(ctx);
  return async (req: FastifyRequest, reply: FastifyReply) => {
    await base(req, reply);
    if (req.auth?.sessionType !== 'admin') throw forbidden();
  };
}
