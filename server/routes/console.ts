/**
 * The operator console's API (issue 27; contract/console.ts lists every route). Thin: the guard
 * (server/http/operator-auth.ts) checks the session cookie, the CSRF header and the role; the
 * route parses with the contract and calls a service. Its own cookie scope: @fastify/cookie is
 * registered in this module's encapsulated scope only, so no trader route ever reads a cookie.
 */
import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ok } from '../../contract/envelope';
import {
  CONSOLE_PERMISSIONS,
  OPERATOR_COOKIE,
  OPERATOR_COOKIE_PATH,
  OPERATOR_SESSION_MAX_MS,
  ChangeRoleSchema,
  CreateOperatorSchema,
  OperatorLoginSchema,
  ReasonSchema,
  roleAllows,
  type ConsolePermission,
} from '../../contract/console';
import type { ServerModule } from '../context';
import { auditActor, checkConsoleCsrf, operatorCookie, requireOperator, requirePermission } from '../http/operator-auth';
import { IdParamSchema, parseBody, parseInput } from '../http/validate';
import { IP_LIMITS } from './auth';

function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string | null): void {
  reply.setCookie(OPERATOR_COOKIE, token ?? '', {
    path: OPERATOR_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: req.protocol === 'https',
    maxAge: token ? Math.floor(OPERATOR_SESSION_MAX_MS / 1000) : 0,
  });
}

export const consoleModule: ServerModule = {
  name: 'console',

  async routes(app, ctx) {
    await app.register(cookie);
    const { operators } = ctx.services;
    const limit = (cfg: { max: number; timeWindow: string }) => (ctx.config.rateLimit ? { config: { rateLimit: cfg } } : {});

    app.post('/api/console/login', limit(IP_LIMITS.login), async (req, reply) => {
      checkConsoleCsrf(req);
      const input = parseBody(OperatorLoginSchema, req.body);
      const result = await operators.login(input, req.ip, typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null);
      setSessionCookie(req, reply, result.token);
      return ok({ operator: result.operator });
    });

    app.post('/api/console/logout', { preHandler: requireOperator(ctx) }, async (req, reply) => {
      const token = operatorCookie(req);
      if (token) await operators.logout(token, auditActor(req));
      setSessionCookie(req, reply, null);
      return ok({ logged_out: true });
    });

    app.get('/api/console/me', { preHandler: requireOperator(ctx) }, async (req) => {
      const op = req.operator!;
      const permissions = (Object.keys(CONSOLE_PERMISSIONS) as ConsolePermission[]).filter((p) => roleAllows(op.role, p));
      return ok({ operator: await operators.get(op.id), permissions, session_expires_at_ms: op.sessionExpiresAt });
    });

    // ---- operators (admin) ----------------------------------------------------------------
    const manage = { preHandler: requirePermission(ctx, 'operators.manage') };
    app.get('/api/console/operators', manage, async () => ok({ operators: await operators.list() }));
    app.post('/api/console/operators', manage, async (req) => {
      const input = parseBody(CreateOperatorSchema, req.body);
      return ok(await operators.create({ username: input.username, role: input.role, email: input.email ?? null }, auditActor(req)));
    });
    app.post('/api/console/operators/:id/role', manage, async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      const input = parseBody(ChangeRoleSchema, req.body);
      return ok({ operator: await operators.setRole(id, input.role, input.reason, auditActor(req)) });
    });
    app.post('/api/console/operators/:id/disable', manage, async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      const { reason } = parseBody(ReasonSchema, req.body);
      return ok({ operator: await operators.disable(id, reason, auditActor(req)) });
    });
  },

  start(ctx) {
    ctx.services.operators.start();
  },

  stop(ctx) {
    ctx.services.operators.stop();
  },
};
