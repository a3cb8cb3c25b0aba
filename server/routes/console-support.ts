/**
 * The operator's support inbox (contract/support.ts, docs/support-center.md). Every route is
 * guarded by `requireOperator(ctx, 'support')` (server/http/operator-auth.ts: the op_session
 * cookie, the x-console CSRF header on writes, trader tokens refused; admin passes; any other
 * role is a 403 with an audit row). Decision: tickets hold traders' personal data and their
 * money questions, so only support (and admin) read them; finance, compliance and risk are
 * refused. Each action appends its audit row in the transaction of the change (the service).
 * @fastify/cookie is registered in this module's own scope, like the console module's.
 *
 *   GET  /api/console/support/tickets                         the inbox (filters, sort, page)
 *   GET  /api/console/support/tickets/:id                     thread with notes + trader context
 *   POST /api/console/support/tickets/:id/assign              {operator_id | null}
 *   POST /api/console/support/tickets/:id/messages            {body, internal}
 *   POST /api/console/support/tickets/:id/status              {status}
 *   GET  /api/console/support/tickets/:id/attachments/:fileId the file (attachment, nosniff)
 */
import cookie from '@fastify/cookie';
import type { ServerModule } from '../context';
import { ok } from '../../contract/envelope';
import { AssignSchema, AttachmentParamsSchema, InboxQuerySchema, OperatorReplySchema, StatusChangeSchema, TicketParamsSchema } from '../../contract/support';
import { auditActor, requireOperator } from '../http/operator-auth';
import { parseBody, parseInput } from '../http/validate';
import { attachment, fileHeaders } from './profile';

export const consoleSupportModule: ServerModule = {
  name: 'console-support',

  async routes(app, ctx) {
    await app.register(cookie);
    const svc = ctx.services.support;
    const support = { preHandler: requireOperator(ctx, 'support') };

    app.get('/api/console/support/tickets', support, async (req) => ok(await svc.inbox(auditActor(req), parseInput(InboxQuerySchema, req.query ?? {}))));

    app.get('/api/console/support/tickets/:id', support, async (req) => {
      const { id } = parseInput(TicketParamsSchema, req.params);
      return ok(await svc.consoleThread(auditActor(req), id));
    });

    app.post('/api/console/support/tickets/:id/assign', support, async (req) => {
      const { id } = parseInput(TicketParamsSchema, req.params);
      const { operator_id } = parseBody(AssignSchema, req.body);
      return ok({ ticket: await svc.assign(auditActor(req), id, operator_id) });
    });

    app.post('/api/console/support/tickets/:id/messages', support, async (req, reply) => {
      const { id } = parseInput(TicketParamsSchema, req.params);
      const { body, internal } = parseBody(OperatorReplySchema, req.body);
      return reply.code(201).send(ok(await svc.operatorPost(auditActor(req), id, body, internal)));
    });

    app.post('/api/console/support/tickets/:id/status', support, async (req) => {
      const { id } = parseInput(TicketParamsSchema, req.params);
      const { status } = parseBody(StatusChangeSchema, req.body);
      return ok({ ticket: await svc.setStatus(auditActor(req), id, status) });
    });

    app.get('/api/console/support/tickets/:id/attachments/:fileId', support, async (req, reply) => {
      const { id, fileId } = parseInput(AttachmentParamsSchema, req.params);
      const file = await svc.readAttachment(null, id, fileId);
      return fileHeaders(reply, file.mime, attachment(file.name), 'private, no-store').send(file.data);
    });
  },
};
