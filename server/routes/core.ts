/**
 * Core routes and socket handlers: health and readiness, the currency list, and the socket's
 * session (provide_token, get_userdata, ping/pong) plus update_balances after every balance
 * change. The socket session itself (who a socket belongs to, the user rooms, the sweep of
 * ended sessions) is server/http/socket-session.ts, made once per app here; the user's data
 * comes from ctx.services.accounts.
 */
import type { ServerModule } from '../context';
import { ErrorText, fail, ok } from '../../contract/envelope';
import { CURRENCIES } from '../../contract/currencies';
import { GetUserdataSchema, ProvideTokenSchema } from '../../contract/socket';
import { Coalescer } from '../http/push-batch';
import { SharedPackets } from '../http/shared-packets';
import { appSocketSessions, roomsWithSockets, socketSession, type SocketSessions } from '../http/socket-session';
import { userRoom } from '../infra/rooms';
import { socketHandler, socketPayload } from '../http/socket-handlers';

/** The core module of one app (its socket sessions and their sweep belong to that app). */
export function coreModule(): ServerModule {
  let sockets: SocketSessions | null = null;
  return {
    name: 'core',
    routes(app, ctx) {
      // Alive: the process answers (a draining node is still alive).
      // In a cluster the answer also names the node's feed role and epoch (docs/cluster.md).
      app.get('/api/health', async () => {
        const cluster = ctx.services.cluster;
        return ok(cluster ? { status: 'ok', ...cluster.status() } : { status: 'ok', node: ctx.config.nodeId });
      });
      // Ready for traffic: database, Redis (when configured) and a fresh price feed, and not
      // draining; otherwise 503 naming each failing part in `details`.
      app.get('/api/ready', async (_req, reply) => {
        const report = await ctx.readiness.report();
        if (report.ready) return ok({ status: 'ready', node: ctx.config.nodeId, checks: report.checks });
        const names = report.problems.map((p) => (p.field === 'node' ? p.message : p.field)).join(', ');
        return reply.status(503).send(fail(`Not ready: ${names}`, report.problems));
      });
      app.get('/api/v2/currencies', async () => ok({ currencies: CURRENCIES }));
    },
    socket(io, ctx) {
      const { accounts } = ctx.services;
      const sessions = appSocketSessions(ctx, io);
      sockets = sessions;
      // The currency list never changes: encoded once (http/shared-packets.ts).
      const shared = new SharedPackets(io);
      io.on('connection', (socket) => {
        socketSession(socket);
        shared.send(socket, 'init_valuts', 'currencies', () => ({ valuts_data: [...CURRENCIES] }));

        socket.on(
          'provide_token',
          socketHandler(ctx, socket, 'provide_token', async (raw) => {
            const payload = socketPayload(socket, 'provide_token', ProvideTokenSchema, raw);
            if (!payload) return;
            const userId = await sessions.authenticate(socket, payload.token);
            if (userId === null) socket.emit('error_message', { event: 'provide_token', message: ErrorText.unauthorized });
          }),
        );

        socket.on(
          'get_userdata',
          socketHandler(ctx, socket, 'get_userdata', async (raw) => {
            const payload = socketPayload(socket, 'get_userdata', GetUserdataSchema, raw);
            if (!payload) return;
            const userId = await sessions.authenticate(socket, payload.token);
            if (userId === null) return socket.emit('error_message', { event: 'get_userdata', message: ErrorText.unauthorized });
            const userdata = await accounts.userdata(userId);
            // With the market's rate table (fx.ts: source and time per currency), so the SPA compares
            // balances in different currencies at the platform's prices (machines/balance/default-currency.ts).
            if (userdata) socket.emit('userdata', { userdata, valuts: [...CURRENCIES], rates: ctx.services.fx.table() });
          }),
        );

        socket.on('ping', () => socket.emit('pong', { time: ctx.now() }));
      });

      // One update_balances per user per turn of the event loop (a burst of settlements changes
      // a user's balance many times), and no read for a user with no socket connected.
      const balancesPush = new Coalescer<number, number>(
        async (userIds) => {
          const present = await roomsWithSockets(ctx, io, userIds.map(userRoom));
          for (const userId of userIds) {
            if (!present.has(userRoom(userId))) continue;
            const balances = await accounts.balances(userId);
            io.to(userRoom(userId)).emit('update_balances', { balances });
          }
        },
        (err) => ctx.log.error({ err }, 'balances push failed'),
      );
      ctx.events.on('balances.changed', (event) => {
        if (event.userId !== null) balancesPush.add(event.userId, event.userId);
      });
    },
    start() {
      sockets?.start();
    },
    stop() {
      sockets?.stop();
    },
  };
}
