/**
 * Order routes (spec section 7, Orders) and the `order_update` push. Thin: validate with the
 * contract, call the orders service, wrap with ok(). Rules and maths: docs/orders.md.
 *
 *   POST /api/v2/orders                     place (201; 200 for a client_request_id replay)
 *   GET  /api/platform/orders               list with filters and pagination
 *   GET  /api/platform/orders/:id           one order + indicative close quote
 *   GET  /api/platform/orders/:id/ticks     the order's tick log from entry to exit (capped, paged)
 *   GET  /api/platform/orders/:id/receipt   the order's receipt: ticks, rule, result, chain hashes
 *   POST /api/platform/orders/:id/close     early close at the fair value (idempotent)
 *   GET  /api/v1/orders/all                 every order, newest first, 1000 a page, `truncated`
 */
import type { ServerModule } from '../context';
import { ok } from '../../contract/envelope';
import {
  AllOrdersQuerySchema,
  CloseOrderSchema,
  CreateOrderSchema,
  ListOrdersQuerySchema,
  ORDER_UPDATE_EVENT,
  OrderTicksQuerySchema,
  type OrderUpdateEvent,
} from '../../contract/orders';
import { requireAuth, requireToken } from '../http/auth';
import { IdParamSchema, parseBody, parseInput } from '../http/validate';
import { roomsWithSockets } from '../http/socket-session';
import { userRoom } from '../infra/rooms';
import { Coalescer } from '../http/push-batch';

export const ordersModule: ServerModule = {
  name: 'orders',

  routes(app, ctx) {
    const { orders } = ctx.services;
    const auth = { preHandler: requireAuth(ctx) };

    // The hot route: its session is read inside the order's own transaction (http/auth.ts requireToken).
    // Money routes refuse an admin ("open as user") session: read-only for money (http/auth.ts).
    const money = { preHandler: requireAuth(ctx, { money: true }) };
    app.post('/api/v2/orders', { preHandler: requireToken(ctx, { money: true }) }, async (req, reply) => {
      const input = parseBody(CreateOrderSchema, req.body);
      const { order, created } = await orders.place(req.pendingSession!, input);
      return reply.code(created ? 201 : 200).send(ok({ order }));
    });

    app.get('/api/platform/orders', auth, async (req) => {
      const query = parseInput(ListOrdersQuerySchema, req.query ?? {});
      return ok(await orders.list(req.auth!.userId, query));
    });

    app.get('/api/platform/orders/:id', auth, async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      return ok({ order: await orders.get(req.auth!.userId, id) });
    });

    app.get('/api/platform/orders/:id/ticks', auth, async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      const query = parseInput(OrderTicksQuerySchema, req.query ?? {});
      return ok(await orders.ticks(req.auth!.userId, id, query));
    });

    app.get('/api/platform/orders/:id/receipt', auth, async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      return ok({ receipt: await orders.receipt(req.auth!.userId, id) });
    });

    app.post('/api/platform/orders/:id/close', money, async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      const input = parseBody(CloseOrderSchema, req.body);
      return ok({ order: await orders.close(req.auth!.userId, id, input) });
    });

    app.get('/api/v1/orders/all', auth, async (req) => {
      const query = parseInput(AllOrdersQuerySchema, req.query ?? {});
      return ok(await orders.all(req.auth!.userId, query));
    });
  },

  socket(io, ctx) {
    // Grouped per turn of the event loop (push-batch.ts): one read for all the orders a burst
    // names, and none for users with no socket connected.
    type Item = { orderId: number; userId: number | null; change: OrderUpdateEvent['change'] };
    const batch = new Coalescer<string, Item>(
      async (items) => {
        const present = await roomsWithSockets(ctx, io, [...new Set(items.flatMap((i) => (i.userId === null ? [] : [userRoom(i.userId)])))]);
        const wanted = items.filter((i) => i.userId === null || present.has(userRoom(i.userId)));
        if (wanted.length === 0) return;
        const found = await ctx.services.orders.byIds([...new Set(wanted.map((i) => i.orderId))]);
        for (const item of wanted) {
          const hit = found.get(item.orderId);
          if (!hit) continue;
          const payload: OrderUpdateEvent = { change: item.change, order: hit.order };
          io.to(userRoom(hit.userId)).emit(ORDER_UPDATE_EVENT, payload);
        }
      },
      (err) => ctx.log.error({ err }, 'order push failed'),
    );
    const push = (orderId: number, change: OrderUpdateEvent['change'], userId: number | null) =>
      batch.add(`${orderId}:${change}`, { orderId, userId, change });
    ctx.events.on('order.opened', (event) => push(event.payload.order_id, 'opened', event.userId));
    ctx.events.on('order.settled', (event) => push(event.payload.order_id, 'settled', event.userId));
  },

  start(ctx) {
    return ctx.services.orders.start();
  },

  stop(ctx) {
    return ctx.services.orders.stop();
  },
};
