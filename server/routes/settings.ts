/**
 * Front settings (spec section 7, "/api/v2/profile/front-settings", method not shown: PATCH
 * and POST both work). The body holds one or more of currentPair, currentTimeframe,
 * balance_type, current_currency, language, theme; they are merged into the stored settings
 * and the full front_settings come back.
 */
import type { FastifyRequest } from 'fastify';
import type { ServerModule } from '../context';
import { ErrorText, ok } from '../../contract/envelope';
import { FrontSettingsRequestSchema } from '../../contract/auth';
import { parseBody } from '../http/validate';
import { requireAuth } from '../http/auth';
import { NotFound } from '../domain/errors';
import { updateFrontSettings } from '../domain/auth/front-settings';

export const settingsModule: ServerModule = {
  name: 'settings',
  routes(app, ctx) {
    const handler = async (req: FastifyRequest) => {
      const patch = parseBody(FrontSettingsRequestSchema, req.body);
      const now = ctx.now();
      const settings = await ctx.tx((trx) => updateFrontSettings(trx, req.auth!.userId, patch, now));
      if (!settings) throw new NotFound(ErrorText.userNotFound);
      return ok(settings);
    };
    const options = { preHandler: requireAuth(ctx) };
    app.patch('/api/v2/profile/front-settings', options, handler);
    app.post('/api/v2/profile/front-settings', options, handler);
  },
};
