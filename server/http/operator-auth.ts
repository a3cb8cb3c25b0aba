/**
 * The operator console's guard (issue 27). `requireOperator(ctx, ...roles)` is a preHandler for
 * /api/console/* routes:
 *
 * 1. CSRF: a state-changing request (anything but GET/HEAD/OPTIONS) must carry `x-console: 1`.
 *    A cross-site form or image cannot set a custom header, and a cross-site fetch that sets one
 *    needs a CORS preflight this server never grants. (The cookie is SameSite=Strict as well.)
 * 2. Credentials: only the `op_session` cookie. A bearer token (a trader's) is refused with 401,
 *    never read; a missing, revoked, idle (15 min) or expired (8 h) session is a 401.
 * 3. Role: `roles` empty lets any operator in; otherwise the operator's role must be one of them,
 *    and admin passes every check. A refused attempt is a 403 AND an audit row (`forbidden`).
 *
 * The operator goes on `request.operator`; `auditActor(req)` is who the audit rows name.
 * `requirePermission(ctx, permission)` is the same with the roles of CONSOLE_PERMISSIONS.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CONSOLE_CSRF_HEADER,
  CONSOLE_PERMISSIONS,
  ConsoleText,
  OPERATOR_COOKIE,
  type ConsolePermission,
  type OperatorRole,
} from '../../contract/console';
import type { AppContext } from '../context';
import type { AuditActor } from '../domain/audit/service';
import { forbidden, unauthenticated } from '../domain/errors';
import type { OperatorIdentity } from '../domain/operators/service';

declare module 'fastify' {
  interface FastifyRequest {
    operator: OperatorIdentity | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The CSRF rule alone (the login route has no session yet but needs it too). */
export function checkConsoleCsrf(req: FastifyRequest): void {
  if (!SAFE_METHODS.has(req.method) && req.headers[CONSOLE_CSRF_HEADER] !== '1') throw forbidden(ConsoleText.csrfMissing);
}

/** The session token of the request's console cookie, if any. */
export function operatorCookie(req: FastifyRequest): string | null {
  const cookies = (req as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies;
  const value = cookies?.[OPERATOR_COOKIE];
  return typeof value === 'string' && value.length > 0 && value.length <= 128 ? value : null;
}

export function auditActor(req: FastifyRequest): AuditActor {
  const op = req.operator;
  if (!op) throw unauthenticated(ConsoleText.sessionExpired);
  return { operatorId: op.id, name: op.username, role: op.role, source: 'console', ip: req.ip };
}

function guard(ctx: AppContext, roles: readonly OperatorRole[], attempted: string) {
  return async (req: FastifyRequest, _reply: FastifyReply) => {
    checkConsoleCsrf(req);
    // A trader's bearer token never opens the console (and is never even verified here).
    if (req.headers.authorization !== undefined) throw unauthenticated();
    const token = operatorCookie(req);
    const operator = token ? await ctx.services.operators.authenticate(token) : null;
    if (!operator) throw unauthenticated(ConsoleText.sessionExpired);
    req.operator = operator;
    if (roles.length === 0 || operator.role === 'admin' || roles.includes(operator.role)) return;
    const id = (req.params as Record<string, string> | undefined)?.id ?? (req.params as Record<string, string> | undefined)?.pair ?? null;
    await ctx.services.operators.recordForbidden(auditActor(req), attempted, { type: 'route', id: id ? `${req.routeOptions.url}#${id}` : (req.routeOptions.url ?? null) });
    throw forbidden();
  };
}

/** Any live operator session; with `roles`, one of them (admin always passes). */
export function requireOperator(ctx: AppContext, ...roles: OperatorRole[]) {
  return guard(ctx, roles, roles.length ? roles.join('|') : 'operator');
}

/** The roles that hold `permission` (CONSOLE_PERMISSIONS; admin always). An empty list there means admin only. */
export function requirePermission(ctx: AppContext, permission: ConsolePermission) {
  const roles = CONSOLE_PERMISSIONS[permission] as readonly OperatorRole[];
  return guard(ctx, roles.length ? roles : ['admin'], permission);
}
