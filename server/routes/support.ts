/**
 * The trader's support center (contract/support.ts, docs/support-center.md). Thin routes: parse
 * with the contract, call ctx.services.support, reply ok(...). Multipart (attachments) is
 * registered in this module's own scope with the identity documents' limits.
 *
 *   GET    /api/v2/support/tickets                         {tickets, unread}
 *   POST   /api/v2/support/tickets                         -> 201 {ticket, messages} (rate-limited)
 *   GET    /api/v2/support/tickets/:id                     {ticket, messages}
 *   POST   /api/v2/support/tickets/:id/messages            {body} -> 201 {ticket, message}
 *   POST   /api/v2/support/tickets/:id/attachments         multipart `files` (1-5) + `body`? -> 201 {ticket, message}
 *   POST   /api/v2/support/tickets/:id/close               {} -> {ticket}
 *   GET    /api/v2/support/tickets/:id/attachments/:fileId the file (attachment, nosniff, owner only)
 *
 * Socket: `support.updated` domain events -> support_update {ticket, message} to the owner's
 * room, plus Telegram / email per the owner's settings (domain/support/delivery.ts, started by
 * the service).
 */
import multipart from '@fastify/multipart';
import type { RouteShorthandOptions } from 'fastify';
import type { ServerModule } from '../context';
import { ok } from '../../contract/envelope';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MAX_FILES,
  AttachmentFieldsSchema,
  AttachmentParamsSchema,
  CreateTicketSchema,
  EmptySchema,
  ReplySchema,
  SupportText,
  TicketParamsSchema,
} from '../../contract/support';
import { requireAuth } from '../http/auth';
import { parseBody, parseInput } from '../http/validate';
import { attachment, fileHeaders, readForm } from './profile';

/** Per-IP limits of ticket creation and uploads (the service also caps new tickets per user an hour). */
export const SUPPORT_LIMITS = {
  create: { max: 10, timeWindow: '1 hour' },
  uploads: { max: 30, timeWindow: '15 minutes' },
} as const;

export const supportModule: ServerModule = {
  name: 'support',

  async routes(app, ctx) {
    const svc = ctx.services.support;
    const limit = (rule: { max: number; timeWindow: string }): RouteShorthandOptions =>
      ctx.config.rateLimit ? { config: { rateLimit: { max: rule.max, timeWindow: rule.timeWindow } } } : {};
    const bearer = { preHandler: requireAuth(ctx) };
    const bearerLimited = (rule: { max: number; timeWindow: string }) => ({ ...limit(rule), preHandler: requireAuth(ctx) });

    await app.register(multipart, {
      limits: { fileSize: ATTACHMENT_MAX_BYTES, files: ATTACHMENT_MAX_FILES, fields: 2, parts: 10, fieldSize: 8 * 1024, headerPairs: 50 },
      throwFileSizeLimit: true,
    });

    app.get('/api/v2/support/tickets', bearer, async (req) => ok(await svc.list(req.auth!.userId)));

    app.post('/api/v2/support/tickets', bearerLimited(SUPPORT_LIMITS.create), async (req, reply) => {
      const input = parseBody(CreateTicketSchema, req.body);
      return reply.code(201).send(ok(await svc.open(req.auth!.userId, input)));
    });

    app.get('/api/v2/support/tickets/:id', bearer, async (req) => {
      const { id } = parseInput(TicketParamsSchema, req.params);
      return ok(await svc.thread(req.auth!.userId, id));
    });

    app.post('/api/v2/support/tickets/:id/messages', bearer, async (req, reply) => {
      const { id } = parseInput(TicketParamsSchema, req.params);
      const { body } = parseBody(ReplySchema, req.body);
      return reply.code(201).send(ok(await svc.reply(req.auth!.userId, id, body)));
    });

    app.post('/api/v2/support/tickets/:id/attachments', bearerLimited(SUPPORT_LIMITS.uploads), async (req, reply) => {
      const { id } = parseInput(TicketParamsSchema, req.params);
      const { files, fields } = await readForm(req, {
        fileFields: ['files', 'files[]'],
        textFields: ['body'],
        maxFiles: ATTACHMENT_MAX_FILES,
        maxFileBytes: ATTACHMENT_MAX_BYTES,
        tooLarge: SupportText.fileTooLarge,
        tooMany: SupportText.tooManyFiles,
      });
      const { body } = parseInput(AttachmentFieldsSchema, fields);
      const posted = await svc.attach(
        req.auth!.userId,
        id,
        files.map((f) => ({ filename: f.filename, data: f.data })),
        body,
      );
      return reply.code(201).send(ok(posted));
    });

    app.post('/api/v2/support/tickets/:id/close', bearer, async (req) => {
      const { id } = parseInput(TicketParamsSchema, req.params);
      parseBody(EmptySchema, req.body);
      return ok({ ticket: await svc.close(req.auth!.userId, id) });
    });

    app.get('/api/v2/support/tickets/:id/attachments/:fileId', bearer, async (req, reply) => {
      const { id, fileId } = parseInput(AttachmentParamsSchema, req.params);
      const file = await svc.readAttachment(req.auth!.userId, id, fileId);
      return fileHeaders(reply, file.mime, attachment(file.name), 'private, no-store').send(file.data);
    });
  },

  start(ctx) {
    ctx.services.support.start();
  },

  stop(ctx) {
    ctx.services.support.stop();
  },
};
