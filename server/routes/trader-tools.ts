/**
 * Trader tools (issue 16): price alerts and the trading journal. Thin routes: validate with
 * contract/alerts.ts and contract/statistics.ts, call the services (ctx.services.alerts,
 * ctx.services.journal), wrap with ok(). Rules: docs/trader-tools.md.
 *
 *   GET    /api/v2/alerts                 the owner's alerts -> {alerts, max_pending}
 *   POST   /api/v2/alerts                 {pair_code, direction, price} -> 201 {alert}
 *   DELETE /api/v2/alerts/:id             -> {deleted: true} (owner only; 404 otherwise)
 *   GET    /api/v2/statistics/me          ?period=today|week|month|all&tz=<device zone> -> the Journal
 *
 * Socket: every `alert.fired` domain event -> price_alert {alert} to the owner's room, plus
 * Telegram / email per the owner's notification settings (domain/alerts/delivery.ts).
 *
 * The AlertsService and the JournalService are built in server/composition.ts; this module
 * starts the alerts service (it listens to the market's tick stream and delivers fired alerts
 * from then on) and stops it.
 */
import type { ServerModule } from '../context';
import { ok } from '../../contract/envelope';
import { CreateAlertSchema, MAX_PENDING_ALERTS } from '../../contract/alerts';
import { JournalQuerySchema } from '../../contract/statistics';
import { requireAuth } from '../http/auth';
import { IdParamSchema, parseBody, parseInput } from '../http/validate';

export const traderToolsModule: ServerModule = {
  name: 'trader-tools',

  routes(app, ctx) {
    const { alerts, journal } = ctx.services;
    const auth = { preHandler: requireAuth(ctx) };

    app.get('/api/v2/alerts', auth, async (req) => ok({ alerts: await alerts.list(req.auth!.userId), max_pending: MAX_PENDING_ALERTS }));

    app.post('/api/v2/alerts', auth, async (req, reply) => {
      const input = parseBody(CreateAlertSchema, req.body);
      const alert = await alerts.create(req.auth!.userId, input);
      return reply.code(201).send(ok({ alert }));
    });

    app.delete('/api/v2/alerts/:id', auth, async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      await alerts.remove(req.auth!.userId, id);
      return ok({ deleted: true });
    });

    app.get('/api/v2/statistics/me', auth, async (req) => {
      const { period, tz } = parseInput(JournalQuerySchema, req.query ?? {});
      return ok(await journal.journal(req.auth!.userId, period, tz));
    });
  },

  async start(ctx) {
    await ctx.services.alerts.start();
  },

  async stop(ctx) {
    await ctx.services.alerts.stop();
  },
};
