/**
 * The operator console's API (issue 27; contract/console.ts lists every route). Thin: the guard
 * (server/http/operator-auth.ts) checks the session cookie, the CSRF header and the role; the
 * route parses with the contract and calls a service. Its own cookie scope: @fastify/cookie is
 * registered in this module's encapsulated scope only, so no trader route ever reads a cookie.
 */
import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ok } from '../../contract/envelope';
import * as v from 'valibot';
import {
  AdjustmentSchema,
  ApprovalQuerySchema,
  AuditQuerySchema,
  CONSOLE_EXPORT_CAP,
  CONSOLE_PERMISSIONS,
  KycQuerySchema,
  OptionalReasonSchema,
  PairParamSchema,
  PaymentQuerySchema,
  PnlQuerySchema,
  SetRiskLimitSchema,
  UserListQuerySchema,
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
import { auditActor, checkConsoleCsrf, operatorActor, operatorCookie, requireOperator, requirePermission } from '../http/operator-auth';
import { toCsv, type CsvCell } from '../infra/csv';
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

/** The page a list asks for, or the whole export (up to CONSOLE_EXPORT_CAP rows) for `format=csv`. */
function pageFor(q: { page: number; per_page: number; format: 'json' | 'csv' }) {
  return q.format === 'csv' ? { offset: 0, limit: CONSOLE_EXPORT_CAP } : { offset: (q.page - 1) * q.per_page, limit: q.per_page };
}

function pagination(q: { page: number; per_page: number }, total: number) {
  return { page: q.page, per_page: q.per_page, total };
}

/** A list as a CSV attachment (cells that would start a formula are neutralised: server/infra/csv.ts). */
function sendCsv(reply: FastifyReply, name: string, header: readonly string[], rows: readonly (readonly CsvCell[])[]) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}.csv"`)
    .header('x-content-type-options', 'nosniff')
    .send(toCsv(header, rows));
}

const FileIdSchema = v.object({ id: v.pipe(v.string(), v.regex(/^[1-9]\d{0,15}$/, 'Id must be a positive whole number'), v.transform(Number)) });

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

    const c = ctx.services.console;
    const perm = (p: ConsolePermission) => ({ preHandler: requirePermission(ctx, p) });

    // ---- dashboard and users ----------------------------------------------------------------
    app.get('/api/console/dashboard', perm('users.read'), async () => ok(await c.dashboard()));

    app.get('/api/console/users', perm('users.read'), async (req, reply) => {
      const q = parseInput(UserListQuerySchema, req.query);
      const { users, total } = await c.users(q, pageFor(q));
      if (q.format === 'csv') {
        return sendCsv(reply, 'users', ['id', 'username', 'email', 'nickname', 'first_name', 'last_name', 'currency', 'created_at', 'blocked', 'blocked_reason'], users.map((u) => [
          u.id, u.username, u.email, u.nickname, u.first_name, u.last_name, u.currency, new Date(u.created_at_ms).toISOString(), u.blocked_at_ms !== null, u.blocked_reason,
        ]));
      }
      return ok({ users, pagination: pagination(q, total) });
    });
    app.get('/api/console/users/:id', perm('users.read'), async (req) => ok(await c.userDetail(parseInput(IdParamSchema, req.params).id)));
    app.post('/api/console/users/:id/block', perm('users.block'), async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      const { reason } = parseBody(ReasonSchema, req.body);
      return ok({ user: await c.setBlocked(id, true, reason, operatorActor(req)) });
    });
    app.post('/api/console/users/:id/unblock', perm('users.block'), async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      const { reason } = parseBody(ReasonSchema, req.body);
      return ok({ user: await c.setBlocked(id, false, reason, operatorActor(req)) });
    });
    app.post('/api/console/users/:id/open-as', perm('users.open_as'), async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      const { reason } = parseBody(ReasonSchema, req.body);
      return ok(await c.openAs(id, reason, operatorActor(req)));
    });
    app.post('/api/console/users/:id/adjustments', perm('balance.adjust'), async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      const input = parseBody(AdjustmentSchema, req.body);
      return ok({ approval: await c.requestAdjustment(id, input, operatorActor(req)) });
    });

    // ---- KYC --------------------------------------------------------------------------------
    app.get('/api/console/kyc', perm('kyc.read'), async (req, reply) => {
      const q = parseInput(KycQuerySchema, req.query);
      const { documents, total } = await c.kyc(q, pageFor(q));
      if (q.format === 'csv') {
        return sendCsv(reply, 'kyc', ['id', 'user_id', 'type', 'status', 'rejection_reason', 'files', 'created_at'], documents.map((d) => [
          d.id, d.user_id, d.type, d.status, d.rejection_reason, d.files.map((f) => f.name).join(' | '), new Date(d.created_at_ms).toISOString(),
        ]));
      }
      return ok({ documents, pagination: pagination(q, total) });
    });
    app.get('/api/console/kyc/files/:id', perm('kyc.read'), async (req, reply) => {
      const { id } = parseInput(FileIdSchema, req.params);
      const file = await c.kycFile(id, operatorActor(req));
      // Served for download only, never rendered inline (a crafted file cannot run in the console's origin).
      const ascii = file.name.replace(/[^A-Za-z0-9._-]/g, '_');
      return reply
        .header('content-type', file.mime)
        .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'no-store')
        .send(file.data);
    });
    app.post('/api/console/kyc/:id/approve', perm('kyc.decide'), async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      const { reason } = parseBody(OptionalReasonSchema, req.body);
      return ok({ document: await c.decideKyc(id, true, reason, operatorActor(req)) });
    });
    app.post('/api/console/kyc/:id/reject', perm('kyc.decide'), async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      const { reason } = parseBody(ReasonSchema, req.body);
      return ok({ document: await c.decideKyc(id, false, reason, operatorActor(req)) });
    });

    // ---- deposits and withdrawals -----------------------------------------------------------
    app.get('/api/console/payments', perm('payments.read'), async (req, reply) => {
      const q = parseInput(PaymentQuerySchema, req.query);
      const { payments, total } = await c.payments(q, pageFor(q));
      if (q.format === 'csv') {
        return sendCsv(reply, 'payments', ['id', 'user_id', 'type', 'status', 'method', 'currency', 'amount_minor', 'requisites', 'late_payment', 'four_eyes', 'created_at'], payments.map((p) => [
          p.id, p.user_id, p.type, p.status, p.method, p.currency, p.amount_minor, p.requisites, p.late_payment, p.needs_second_approval, new Date(p.created_at_ms).toISOString(),
        ]));
      }
      return ok({ payments, pagination: pagination(q, total) });
    });
    app.post('/api/console/payments/:id/approve', perm('payments.decide'), async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      const { reason } = parseBody(OptionalReasonSchema, req.body);
      return ok(await c.approvePayment(id, reason, operatorActor(req)));
    });
    app.post('/api/console/payments/:id/reject', perm('payments.decide'), async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      const { reason } = parseBody(ReasonSchema, req.body);
      return ok(await c.rejectPayment(id, reason, operatorActor(req)));
    });

    // ---- four eyes ----------------------------------------------------------------------------
    // Any operator may list; approving and rejecting check the request kind's permission in the service.
    app.get('/api/console/approvals', { preHandler: requireOperator(ctx) }, async (req, reply) => {
      const q = parseInput(ApprovalQuerySchema, req.query);
      const { approvals, total } = await c.approvals(q, { page: q.format === 'csv' ? 1 : q.page, per_page: q.format === 'csv' ? CONSOLE_EXPORT_CAP : q.per_page });
      if (q.format === 'csv') {
        return sendCsv(reply, 'approvals', ['id', 'kind', 'status', 'target', 'requested_by', 'reason', 'decided_by', 'decision_reason', 'created_at'], approvals.map((a) => [
          a.id, a.kind, a.status, `${a.target_type}:${a.target_id}`, a.requested_by_name, a.request_reason, a.decided_by_name, a.decision_reason, new Date(a.created_at_ms).toISOString(),
        ]));
      }
      return ok({ approvals, pagination: pagination(q, total) });
    });
    app.post('/api/console/approvals/:id/approve', { preHandler: requireOperator(ctx) }, async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      const { reason } = parseBody(OptionalReasonSchema, req.body);
      return ok({ approval: await c.approve(id, reason, operatorActor(req)) });
    });
    app.post('/api/console/approvals/:id/reject', { preHandler: requireOperator(ctx) }, async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      const { reason } = parseBody(ReasonSchema, req.body);
      return ok({ approval: await c.reject(id, reason, operatorActor(req)) });
    });

    // ---- books, P&L, exposure, risk, pairs --------------------------------------------------------
    app.get('/api/console/books', perm('books.read'), async () => ok(await c.books()));
    app.get('/api/console/pnl', perm('books.read'), async (req, reply) => {
      const q = parseInput(PnlQuerySchema, req.query);
      const pnl = await c.pnl(q.from, q.to);
      if (q.format === 'csv') {
        return sendCsv(reply, 'pnl', ['day', 'currency', 'orders', 'stakes_minor', 'payouts_minor', 'house_result_minor'], pnl.series.map((p) => [
          p.day, p.currency, p.orders, p.stakes_minor, p.payouts_minor, p.house_result_minor,
        ]));
      }
      return ok(pnl);
    });
    app.get('/api/console/exposure', perm('books.read'), async () => ok(await c.exposure()));
    app.get('/api/console/risk', perm('risk.read'), async () => ok(await c.risk()));
    app.post('/api/console/risk/:pair', perm('risk.write'), async (req) => {
      const { pair } = parseInput(PairParamSchema, req.params);
      const input = parseBody(SetRiskLimitSchema, req.body);
      return ok(await c.setRiskLimit(pair, input.limit_usd, input.reason, operatorActor(req)));
    });
    app.get('/api/console/pairs', perm('risk.read'), async () => ok(await c.pairs()));
    app.post('/api/console/pairs/:pair/disable', perm('pairs.write'), async (req) => {
      const { pair } = parseInput(PairParamSchema, req.params);
      const { reason } = parseBody(ReasonSchema, req.body);
      return ok(await c.setPairEnabled(pair, false, reason, operatorActor(req)));
    });
    app.post('/api/console/pairs/:pair/enable', perm('pairs.write'), async (req) => {
      const { pair } = parseInput(PairParamSchema, req.params);
      const { reason } = parseBody(ReasonSchema, req.body);
      return ok(await c.setPairEnabled(pair, true, reason, operatorActor(req)));
    });

    // ---- audit ---------------------------------------------------------------------------------
    app.get('/api/console/audit', perm('audit.read'), async (req, reply) => {
      const q = parseInput(AuditQuerySchema, req.query);
      const { entries, total } = await c.audit(q, pageFor(q));
      if (q.format === 'csv') {
        return sendCsv(reply, 'audit', ['id', 'time', 'source', 'operator', 'role', 'action', 'target_type', 'target_id', 'reason', 'ip', 'os_user', 'before', 'after', 'hash'], entries.map((e) => [
          e.id, new Date(e.created_at_ms).toISOString(), e.source, e.operator_name, e.role, e.action, e.target_type, e.target_id, e.reason, e.ip, e.os_user,
          e.before === null ? null : JSON.stringify(e.before), e.after === null ? null : JSON.stringify(e.after), e.hash,
        ]));
      }
      return ok({ entries, pagination: pagination(q, total) });
    });
    app.get('/api/console/audit/verify', perm('audit.read'), async () => ok(await c.verify()));

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
