/**
 * Money routes (spec section 7, Money), the provider webhooks, the sandbox checkout page and
 * the payment socket events. Thin: validate with contract/payments.ts, call the payments
 * service, wrap with ok(). Rules and flows: docs/money.md.
 *
 *   GET  /api/v2/payments/methods?currency=&direction=   catalogue (bearer)
 *   POST /api/v2/transactions/deposit                     create a deposit (201; 200 on replay)
 *   POST /api/v2/payments/deposit/confirmation            payer confirms a manual deposit
 *   POST /api/v2/transactions/withdrawal                  create a withdrawal, amount held
 *   POST /api/v2/payments/reset-demo-balance              demo balance back to 10,000
 *   GET  /api/v2/transactions                             filtered, paginated history
 *   GET  /api/v2/transactions/export.csv                  same filters, CSV
 *   GET  /api/v2/transactions/:id                         one transaction (owner only)
 *   POST /api/v2/payments/webhooks/crypto                 crypto-address provider (HMAC-SHA256, x-signature)
 *   POST /api/v2/payments/webhooks/oxapay                 payment-link provider (HMAC-SHA512, hmac)
 *   POST /api/v2/payments/webhooks/oxapay/payout          OxaPay payouts, live mode (HMAC-SHA512 with the payout key)
 *   GET  /checkout/sandbox/:invoice, POST .../pay|cancel  the payment-link sandbox checkout
 *
 * Socket: get_payment_methods [{currency?, direction?}] -> init_payment_systems
 * {payment_systems, rates}; every `payment.status` domain event -> payment_status_update to the owner, every
 * `payment.polling` event (a crypto/link deposit watched or no longer) -> polling_status to the owner.
 */
import * as v from 'valibot';
import type { FastifyReply } from 'fastify';
import type { ServerModule } from '../context';
import { ok } from '../../contract/envelope';
import {
  CheckoutFormSchema,
  CheckoutParamsSchema,
  DemoResetSchema,
  DepositConfirmationSchema,
  DepositRequestSchema,
  GET_PAYMENT_METHODS_EVENT,
  GetPaymentMethodsSchema,
  INIT_PAYMENT_SYSTEMS_EVENT,
  PAYMENT_STATUS_UPDATE_EVENT,
  PaymentMethodsQuerySchema,
  TransactionListQuerySchema,
  WithdrawalRequestSchema,
  PaymentStatusUpdateEventSchema,
  type PaymentStatusUpdateEvent,
} from '../../contract/payments';
import { requireAuth } from '../http/auth';
import { IdParamSchema, parseBody, parseInput } from '../http/validate';
import type { SandboxPage } from '../domain/payments/providers/payment-link';
import { userRoom } from '../infra/rooms';
import { socketPayload } from '../http/socket-handlers';
import type { PollingStatus } from '../../contract/socket';

/** Largest webhook body accepted (provider callbacks are a few hundred bytes). */
const WEBHOOK_BODY_LIMIT = 64 * 1024;

const sendPage = (reply: FastifyReply, page: SandboxPage) =>
  reply.code(page.status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page.html);

export const paymentsModule: ServerModule = {
  name: 'payments',

  async routes(app, ctx) {
    const { payments } = ctx.services;
    const auth = { preHandler: requireAuth(ctx) };

    app.get('/api/v2/payments/methods', auth, async (req) => {
      const q = parseInput(PaymentMethodsQuerySchema, req.query ?? {});
      return ok(await payments.methodsPayload(q));
    });

    // Money routes refuse an admin ("open as user") session: read-only for money (http/auth.ts).
    const money = { preHandler: requireAuth(ctx, { money: true }) };
    app.post('/api/v2/transactions/deposit', money, async (req, reply) => {
      const input = parseBody(DepositRequestSchema, req.body);
      const { result, created } = await payments.createDeposit(req.auth!.userId, input);
      return reply.code(created ? 201 : 200).send(ok(result));
    });

    app.post('/api/v2/payments/deposit/confirmation', money, async (req) => {
      const { transaction_id } = parseBody(DepositConfirmationSchema, req.body);
      return ok(await payments.confirmDeposit(req.auth!.userId, transaction_id));
    });

    app.post('/api/v2/transactions/withdrawal', money, async (req, reply) => {
      const input = parseBody(WithdrawalRequestSchema, req.body);
      const { result, created } = await payments.createWithdrawal(req.auth!.userId, input);
      return reply.code(created ? 201 : 200).send(ok(result));
    });

    app.post('/api/v2/payments/reset-demo-balance', auth, async (req) => {
      const { currency } = parseBody(DemoResetSchema, req.body);
      return ok(await payments.resetDemoBalance(req.auth!.userId, currency));
    });

    app.get('/api/v2/transactions', auth, async (req) => {
      const q = parseInput(TransactionListQuerySchema, req.query ?? {});
      return ok(await payments.list(req.auth!.userId, q));
    });

    app.get('/api/v2/transactions/export.csv', auth, async (req, reply) => {
      const q = parseInput(TransactionListQuerySchema, req.query ?? {});
      const csv = await payments.csv(req.auth!.userId, q);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="transactions.csv"')
        .header('cache-control', 'no-store')
        .send(csv);
    });

    app.get('/api/v2/transactions/:id', auth, async (req) => {
      const { id } = parseInput(IdParamSchema, req.params);
      return ok({ transaction: await payments.get(req.auth!.userId, id) });
    });

    // Provider callbacks: the signature covers the exact bytes sent, so this scope keeps the
    // raw body (no JSON parser) and the adapter parses it only after the signature matched.
    await app.register(async (hooks) => {
      hooks.removeAllContentTypeParsers();
      hooks.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) => done(null, body));
      const raw = (body: unknown) => (Buffer.isBuffer(body) ? body : Buffer.alloc(0));

      hooks.post('/api/v2/payments/webhooks/crypto', async (req, reply) => {
        await payments.webhook('crypto_address', raw(req.body), req.headers);
        return reply.type('text/plain; charset=utf-8').send('ok');
      });
      hooks.post('/api/v2/payments/webhooks/oxapay', async (req, reply) => {
        await payments.webhook('oxapay_link', raw(req.body), req.headers);
        // OxaPay counts a delivery as done only on a 200 with the body "ok".
        return reply.type('text/plain; charset=utf-8').send('ok');
      });
      // Live mode: OxaPay's payout callback, signed with the payout key (oxapay/payouts.ts).
      hooks.post('/api/v2/payments/webhooks/oxapay/payout', async (req, reply) => {
        await payments.payoutWebhook(raw(req.body), req.headers);
        return reply.type('text/plain; charset=utf-8').send('ok');
      });
    });

    // The payment-link provider's hosted checkout (sandbox): HTML forms, url-encoded posts.
    await app.register(async (page) => {
      page.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      });
      page.get('/checkout/sandbox/:invoice', async (req, reply) => {
        const { invoice } = parseInput(CheckoutParamsSchema, req.params);
        return sendPage(reply, await payments.checkoutPage(invoice));
      });
      for (const action of ['pay', 'cancel'] as const) {
        page.post(`/checkout/sandbox/:invoice/${action}`, async (req, reply) => {
          const { invoice } = parseInput(CheckoutParamsSchema, req.params);
          const { token } = parseBody(CheckoutFormSchema, req.body);
          return sendPage(reply, await payments.checkoutAction(invoice, action, token));
        });
      }
    });
  },

  socket(io, ctx) {
    io.on('connection', (socket) => {
      socket.on(GET_PAYMENT_METHODS_EVENT, async (raw: unknown) => {
        const query = socketPayload(socket, GET_PAYMENT_METHODS_EVENT, GetPaymentMethodsSchema, typeof raw === 'function' ? undefined : raw);
        if (!query) return;
        try {
          socket.emit(INIT_PAYMENT_SYSTEMS_EVENT, await ctx.services.payments.methodsPayload(query));
        } catch (err) {
          ctx.log.error({ err }, 'get_payment_methods failed');
          socket.emit('error_message', { event: GET_PAYMENT_METHODS_EVENT, message: 'Request failed' });
        }
      });
    });

    ctx.events.on('payment.status', (event) => {
      if (event.userId === null) return;
      const parsed = v.safeParse(PaymentStatusUpdateEventSchema, {
        transaction: { id: event.payload.transaction_id, status: event.payload.status, transaction_type: event.payload.transaction_type },
      });
      if (!parsed.success) return ctx.log.warn({ event }, 'payment.status event with an unknown status');
      const payload: PaymentStatusUpdateEvent = parsed.output;
      io.to(userRoom(event.userId)).emit(PAYMENT_STATUS_UPDATE_EVENT, payload);
    });
    // polling_status: the watch of a crypto/link deposit started or ended (payments/polling.ts).
    ctx.events.on('payment.polling', (event) => {
      if (event.userId === null) return;
      const payload: PollingStatus = { transaction_id: event.payload.transaction_id, polling: event.payload.polling };
      io.to(userRoom(event.userId)).emit('polling_status', payload);
    });
  },

  start(ctx) {
    return ctx.services.payments.start();
  },

  stop(ctx) {
    return ctx.services.payments.stop();
  },
};
