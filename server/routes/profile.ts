/**
 * Profile routes (spec section 7, "Profile, security and documents") and the profile module:
 * it registers @fastify/multipart in its own scope with upload limits (reading the form is the
 * HTTP part kept here) and pushes document status changes to the owner's sockets. The profile
 * service (ctx.services.profile, with its two-factor gate on the login) is built in
 * server/composition.ts; the module's start/stop run its jobs (the Telegram and email notifiers,
 * the pruning of expired codes). Thin routes: validate with contract/profile.ts, call the
 * service, wrap with ok(). Details: docs/profile.md.
 *
 *   GET    /api/v2/user/profile                      the Profile
 *   POST   /api/v2/profile/personal-data             partial update -> the Profile
 *   POST   /api/v2/profile/avatar                    multipart `avatar` (1 image, 5 MB) -> {avatar_url}
 *   GET    /uploads/avatars/:file                    a stored avatar (public, random name)
 *   POST   /api/v2/user/change-password              {old_password, new_password, confirm_password?}
 *   POST   /api/v2/user/2fa/enable                   -> {secret, otpauth_url, qr_code, expires_at}
 *   POST   /api/v2/user/2fa/verify                   {code} -> two-factor on, {recovery_codes} (shown once)
 *   GET    /api/v2/user/2fa/recovery-codes           -> {remaining, total}
 *   POST   /api/v2/user/2fa/recovery-codes           {code} (TOTP) -> a fresh {recovery_codes}; the old set dies
 *   DELETE /api/v2/user/2fa/disable                  {code} (body or query) -> two-factor off
 *   POST   /api/platform/auth/login/2fa              {challenge, code | recovery_code} -> the session (no bearer)
 *   GET    /api/v2/documents/types                   the 10 types with their limits
 *   POST   /api/v2/documents/upload                  multipart `type` + 1-5 `files` -> 201 {document}
 *   GET    /api/v2/user/documents                    {documents}
 *   GET    /api/v2/documents/:id/files/:fileId       download (owner only)
 *   DELETE /api/v2/documents/:id                     owner, unless approved
 *   POST   /api/v2/telegram/link                     -> {code, deep_link, expires_at}
 *   GET    /api/v2/telegram/link                     -> {linked, telegram, pending_code, deep_link, expires_at}
 *   POST   /api/v2/telegram/unlink                   -> the same status
 *   POST   /api/v2/telegram/webhook                  Telegram Update, X-Telegram-Bot-Api-Secret-Token
 *
 * Socket: every `document.status` domain event -> document_status_update {document} to the owner.
 */
import * as v from 'valibot';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { ServerModule } from '../context';
import { ok } from '../../contract/envelope';
import {
  AVATAR_MAX_BYTES,
  ChangePasswordSchema,
  DOCUMENT_MAX_BYTES,
  DOCUMENT_MAX_FILES,
  DOCUMENT_STATUS_UPDATE_EVENT,
  DOCUMENT_TYPE_INFO,
  DocumentFileParamsSchema,
  DocumentParamsSchema,
  DocumentUploadFieldsSchema,
  EmptyBodySchema,
  LoginTwoFactorSchema,
  ProfileText,
  TelegramUpdateSchema,
  TwoFactorCodeSchema,
  personalDataSchema,
} from '../../contract/profile';
import { requireAuth } from '../http/auth';
import { TooLarge, invalid } from '../domain/errors';
import { parseBody, parseInput } from '../http/validate';
import { AVATAR_CONTENT_TYPE } from '../domain/profile/avatar';
import { IP_LIMITS } from './auth';
import { userRoom } from '../infra/rooms';

/** Per-IP limits of the profile's own routes (login/2fa shares the login's). */
export const PROFILE_LIMITS = {
  codes: { max: 30, timeWindow: '15 minutes' },
  uploads: { max: 30, timeWindow: '15 minutes' },
  telegramLink: { max: 20, timeWindow: '15 minutes' },
} as const;

// ---- multipart --------------------------------------------------------------------------------

interface FormFile {
  field: string;
  filename: string;
  data: Buffer;
}

export interface FormSpec {
  fileFields: readonly string[];
  textFields: readonly string[];
  maxFiles: number;
  maxFileBytes: number;
  tooLarge: string;
  tooMany: string;
}

/**
 * Read a multipart form into memory within the spec's limits. Files are buffered (at most
 * maxFiles x maxFileBytes) because each is decoded and re-encoded before anything is stored.
 */
export async function readForm(req: FastifyRequest, spec: FormSpec): Promise<{ files: FormFile[]; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw invalid(ProfileText.notMultipart);
  const files: FormFile[] = [];
  const fields: Record<string, string> = {};
  const limits = {
    fileSize: spec.maxFileBytes,
    files: spec.maxFiles,
    fields: spec.textFields.length + 2,
    parts: spec.maxFiles + spec.textFields.length + 4,
    fieldSize: 1024,
    fieldNameSize: 64,
    headerPairs: 50,
  };
  try {
    for await (const part of req.parts({ limits })) {
      const name = part.fieldname.slice(0, 64);
      if (part.type === 'file') {
        if (!spec.fileFields.includes(part.fieldname)) {
          part.file.resume();
          throw invalid(`${ProfileText.unexpectedField}: ${name}`, [{ field: name, message: ProfileText.unexpectedField }]);
        }
        files.push({ field: part.fieldname, filename: part.filename ?? '', data: await part.toBuffer() });
      } else {
        if (!spec.textFields.includes(part.fieldname) || part.valueTruncated) {
          throw invalid(`${ProfileText.unexpectedField}: ${name}`, [{ field: name, message: ProfileText.unexpectedField }]);
        }
        if (fields[part.fieldname] !== undefined) throw invalid(ProfileText.duplicateField, [{ field: name, message: ProfileText.duplicateField }]);
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new TooLarge(spec.tooLarge);
    if (code === 'FST_FILES_LIMIT') throw invalid(spec.tooMany);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PROTO_VIOLATION') throw invalid(ProfileText.unexpectedField);
    throw err;
  }
  return { files, fields };
}

// ---- download headers -------------------------------------------------------------------------

/** Headers of a user file served back: our own content type, never sniffed, never run as a page. */
export function fileHeaders(reply: FastifyReply, contentType: string, disposition: string, cache: string): FastifyReply {
  return reply
    .type(contentType)
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', disposition)
    .header('cache-control', cache)
    .header('content-security-policy', "default-src 'none'; sandbox");
}

/** attachment; filename="ascii fallback"; filename*=UTF-8''exact (RFC 6266 / 5987). */
export function attachment(name: string): string {
  const ascii = name.replace(/[^A-Za-z0-9._() -]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const AvatarParamsSchema = v.object({ file: v.pipe(v.string(), v.maxLength(64)) });

/** Body or query of DELETE /2fa/disable: whichever carries the code. */
function disableInput(req: FastifyRequest): unknown {
  const body = req.body;
  if (body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length > 0) return body;
  return req.query ?? {};
}

export const profileModule: ServerModule = {
  name: 'profile',

  async routes(app, ctx) {
    const { profile: svc, auth } = ctx.services;
    const limit = (rule: { max: number; timeWindow: string }): RouteShorthandOptions =>
      ctx.config.rateLimit ? { config: { rateLimit: { max: rule.max, timeWindow: rule.timeWindow } } } : {};
    const bearer = { preHandler: requireAuth(ctx) };
    const bearerLimited = (rule: { max: number; timeWindow: string }) => ({ ...limit(rule), preHandler: requireAuth(ctx) });
    const personalSchema = personalDataSchema(ctx.now);

    // Multipart only in this scope, with the strictest limits as defaults; each route narrows them.
    await app.register(multipart, {
      limits: { fileSize: DOCUMENT_MAX_BYTES, files: DOCUMENT_MAX_FILES, fields: 4, parts: 12, fieldSize: 1024, headerPairs: 50 },
      throwFileSizeLimit: true,
    });

    // ---- personal data --------------------------------------------------------------------

    app.get('/api/v2/user/profile', bearer, async (req) => ok(await svc.getProfile(req.auth!.userId)));

    app.post('/api/v2/profile/personal-data', bearer, async (req) => {
      const patch = parseBody(personalSchema, req.body);
      return ok(await svc.updatePersonalData(req.auth!.userId, patch));
    });

    // ---- avatar ---------------------------------------------------------------------------

    app.post('/api/v2/profile/avatar', bearerLimited(PROFILE_LIMITS.uploads), async (req) => {
      const { files } = await readForm(req, {
        fileFields: ['avatar'],
        textFields: [],
        maxFiles: 1,
        maxFileBytes: AVATAR_MAX_BYTES,
        tooLarge: ProfileText.avatarTooLarge,
        tooMany: ProfileText.oneImageOnly,
      });
      if (files.length !== 1) throw invalid(ProfileText.avatarRequired);
      return ok({ avatar_url: await svc.saveAvatar(req.auth!.userId, files[0].data) });
    });

    app.get('/uploads/avatars/:file', async (req, reply) => {
      const { file } = parseInput(AvatarParamsSchema, req.params);
      const data = await svc.readAvatar(file);
      // A random name never gets new content, so the browser may keep it for good.
      return fileHeaders(reply, AVATAR_CONTENT_TYPE, 'inline; filename="avatar.webp"', 'public, max-age=31536000, immutable').send(data);
    });

    // ---- password -------------------------------------------------------------------------

    app.post('/api/v2/user/change-password', bearerLimited(IP_LIMITS.sensitive), async (req) => {
      const input = parseBody(ChangePasswordSchema, req.body);
      await svc.changePassword(req.auth!, input);
      return ok({ message: ProfileText.passwordChanged });
    });

    // ---- two-factor -----------------------------------------------------------------------

    app.post('/api/v2/user/2fa/enable', bearerLimited(PROFILE_LIMITS.codes), async (req) => {
      parseBody(EmptyBodySchema, req.body);
      return ok(await svc.enableTwoFactor(req.auth!.userId));
    });

    app.post('/api/v2/user/2fa/verify', bearerLimited(PROFILE_LIMITS.codes), async (req) => {
      const { code } = parseBody(TwoFactorCodeSchema, req.body);
      const recovery_codes = await svc.verifyTwoFactor(req.auth!.userId, code);
      return ok({ two_factor_enabled: true, message: ProfileText.twoFactorEnabled, recovery_codes });
    });

    app.get('/api/v2/user/2fa/recovery-codes', bearer, async (req) => ok(await svc.recoveryCodesStatus(req.auth!.userId)));

    app.post('/api/v2/user/2fa/recovery-codes', bearerLimited(PROFILE_LIMITS.codes), async (req) => {
      const { code } = parseBody(TwoFactorCodeSchema, req.body);
      const recovery_codes = await svc.regenerateRecoveryCodes(req.auth!.userId, code);
      return ok({ two_factor_enabled: true, message: ProfileText.recoveryCodesRegenerated, recovery_codes });
    });

    app.delete('/api/v2/user/2fa/disable', bearerLimited(PROFILE_LIMITS.codes), async (req) => {
      const { code } = parseInput(TwoFactorCodeSchema, disableInput(req));
      await svc.disableTwoFactor(req.auth!.userId, code);
      return ok({ two_factor_enabled: false, message: ProfileText.twoFactorDisabled });
    });

    // The second step of a login with two-factor on (the first answered {two_factor_required, challenge}).
    app.post('/api/platform/auth/login/2fa', limit(IP_LIMITS.login), async (req) => {
      const { challenge, factor } = parseBody(LoginTwoFactorSchema, req.body);
      const userId = await svc.completeTwoFactorLogin(challenge, factor);
      return ok(await auth.openSession(userId, 'user'));
    });

    // ---- documents ------------------------------------------------------------------------

    app.get('/api/v2/documents/types', async () => ok({ types: DOCUMENT_TYPE_INFO }));

    app.post('/api/v2/documents/upload', bearerLimited(PROFILE_LIMITS.uploads), async (req, reply) => {
      const { files, fields } = await readForm(req, {
        fileFields: ['files', 'files[]'],
        textFields: ['type'],
        maxFiles: DOCUMENT_MAX_FILES,
        maxFileBytes: DOCUMENT_MAX_BYTES,
        tooLarge: ProfileText.fileTooLarge,
        tooMany: ProfileText.tooManyFiles,
      });
      const { type } = parseInput(DocumentUploadFieldsSchema, fields);
      const document = await svc.uploadDocument(
        req.auth!.userId,
        type,
        files.map((f) => ({ filename: f.filename, data: f.data })),
      );
      return reply.code(201).send(ok({ document }));
    });

    app.get('/api/v2/user/documents', bearer, async (req) => ok({ documents: await svc.listDocuments(req.auth!.userId) }));

    app.get('/api/v2/documents/:id/files/:fileId', bearer, async (req, reply) => {
      const { id, fileId } = parseInput(DocumentFileParamsSchema, req.params);
      const file = await svc.readDocumentFile(req.auth!.userId, id, fileId);
      return fileHeaders(reply, file.mime, attachment(file.name), 'private, no-store').send(file.data);
    });

    app.get('/api/v2/documents/:id', bearer, async (req) => {
      const { id } = parseInput(DocumentParamsSchema, req.params);
      return ok({ document: await svc.getDocument(req.auth!.userId, id) });
    });

    app.delete('/api/v2/documents/:id', bearer, async (req) => {
      const { id } = parseInput(DocumentParamsSchema, req.params);
      await svc.deleteDocument(req.auth!.userId, id);
      return ok({ message: ProfileText.documentDeleted });
    });

    // ---- telegram -------------------------------------------------------------------------

    app.post('/api/v2/telegram/link', bearerLimited(PROFILE_LIMITS.telegramLink), async (req) => {
      parseBody(EmptyBodySchema, req.body);
      return ok(await svc.createTelegramLink(req.auth!.userId));
    });

    app.get('/api/v2/telegram/link', bearer, async (req) => ok(await svc.telegramLinkStatus(req.auth!.userId)));

    app.post('/api/v2/telegram/unlink', bearer, async (req) => {
      parseBody(EmptyBodySchema, req.body);
      return ok(await svc.unlinkTelegram(req.auth!.userId));
    });

    // Telegram authenticates its webhook calls with the secret given to setWebhook; checked
    // before the body is even parsed.
    app.post(
      '/api/v2/telegram/webhook',
      {
        onRequest: async (req) => {
          svc.checkWebhookSecret(req.headers['x-telegram-bot-api-secret-token']);
        },
      },
      async (req) => {
        const update = parseBody(TelegramUpdateSchema, req.body);
        const outcome = await svc.handleTelegramUpdate(update);
        return ok({ handled: outcome.kind });
      },
    );
  },

  socket(io, ctx) {
    const svc = ctx.services.profile;
    ctx.events.on('document.status', async (event) => {
      if (event.userId === null) return;
      const update = await svc.documentStatusUpdate(event);
      if (update) io.to(userRoom(event.userId)).emit(DOCUMENT_STATUS_UPDATE_EVENT, update);
    });
  },

  start(ctx) {
    ctx.services.profile.start();
  },

  stop(ctx) {
    ctx.services.profile.stop();
  },
};
