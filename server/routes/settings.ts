/**
 * Front settings (spec section 7, "/api/v2/profile/front-settings", method not shown: PATCH
 * and POST both work). The body holds one or more of currentPair, currentTimeframe,
 * balance_type, current_currency, language, theme; they are merged into the stored settings
 * and the full front_settings come back (ctx.services.accounts, server/domain/auth/accounts.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { ServerModule } from '../context';
import { ok } from '../../contract/envelope';
import { FrontSettingsRequestSchema } from '../../contract/auth';
import { parseBody } from '../http/validate';
import { requireAuth } from '../http/auth';

export const settingsModule: ServerModule = {
  name: 'settings',
  routes(app, ctx) {
    const handler = async (req: FastifyRequest) => {
      const patch = parseBody(FrontSettingsRequestSchema, req.body);
      return ok(await ctx.services.accounts.updateFrontSettings(req.auth!.userId, patch));
    };
    const options = { preHandler: requireAuth(ctx) };
    app.patch('/api/v2/profile/front-settings', options, handler);
    app.post('/api/v2/profile/front-settings', options, handler);
  },
};
