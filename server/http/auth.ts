/**
 * The bearer-token guard. `requireAuth(ctx)` is a preHandler that accepts only a valid access
 * token of a live session and puts its claims on `request.auth`; anything else is a 401 with
 * the envelope. Routes read `request.auth!.userId`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { AccessClaims } from '../domain/auth/tokens';
import { unauthorized, forbidden } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AccessClaims | null;
  }
}

export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h.trim());
  return m ? m[1] : null;
}

export function requireAuth(ctx: AppContext) {
  return async (req: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(req);
    if (!token) throw unauthorized();
    const claims = await ctx.tokens.verify(token, ctx.now());
    if (!claims || !(await ctx.services.sessions.isActive(claims))) throw unauthorized();
    req.auth = claims;
  };
}

export function requireAdmin(ctx: AppContext) {
  const base = requireAuth(ctx);
  return async (req: FastifyRequest, reply: FastifyReply) => {
    await base(req, reply);
    if (req.auth?.sessionType !== 'admin') throw forbidden();
  };
}
