/**
 * Trader tools (issue 16): price alerts and the trading journal. Thin routes: validate with
 * contract/alerts.ts and contract/statistics.ts, call the domain, wrap with ok(). Rules:
 * docs/trader-tools.md.
 *
 *   GET    /api/v2/alerts                 the owner's alerts -> {alerts, max_pending}
 *   POST   /api/v2/alerts                 {pair_code, direction, price} -> 201 {alert}
 *   DELETE /api/v2/alerts/:id             -> {deleted: true} (owner only; 404 otherwise)
 *   GET    /api/v2/statistics/me          ?period=today|week|month|all -> the Journal
 *
 * Socket: every `alert.fired` domain event -> price_alert {alert} to the owner's room, plus
 * Telegram / email per the owner's notification settings (domain/alerts/delivery.ts).
 *
 * The AlertsService is built in server/composition.ts (ctx.services.alerts); this module starts
 * it (it listens to the market's tick stream from then on) and the delivery listener.
 */
import type { AppContext, ServerModule } from '../context';
import { ok } from '../../contract/envelope';
import { CreateAlertSchema, MAX_PENDING_ALERTS } from '../../contract/alerts';
import { JournalQuerySchema } from '../../contract/statistics';
import { requireAuth } from '../http/auth';
import { IdParamSchema, parseBody, parseInput } from '../http/validate';
import { startAlertDelivery } from '../domain/alerts/delivery';
import { buildJournal } from '../domain/statistics/journal';
import { userRoom } from './core';

const running = new WeakMap<AppContext, () => void>();

export const traderToolsModule: ServerModule = {
  name: 'trader-tools',

  routes(app, ctx) {
    const alerts = ctx.services.alerts;
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
      const { period } = parseInput(JournalQuerySchema, req.query ?? {});
      return ok(await buildJournal(ctx.db, req.auth!.userId, period, ctx.now()));
    });
  },

  async start(ctx) {
    const alerts = ctx.services.alerts;
    await alerts.start();
    if (running.has(ctx)) return;
    running.set(
      ctx,
      startAlertDelivery({
        db: ctx.db,
        events: ctx.events,
        alerts,
        log: ctx.log,
        emitToUser: (userId, event, payload) => {
          ctx.io?.to(userRoom(userId)).emit(event, payload);
        },
        telegram: ctx.services.profile.sender,
        mailer: ctx.services.mailer,
      }),
    );
  },

  async stop(ctx) {
    running.get(ctx)?.();
    running.delete(ctx);
    await ctx.services.alerts.stop();
  },
};
