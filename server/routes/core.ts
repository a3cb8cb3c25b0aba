/**
 * Core routes and socket handlers: health and readiness, the currency list, and the socket's
 * session (provide_token, get_userdata, ping/pong) plus update_balances after every balance
 * change.
 *
 * Pushes to a user go to the user's room with `io.to(userRoom(id))`: with REDIS_URL the
 * socket.io adapter carries them to whichever node holds the user's sockets.
 * `roomsWithSockets` tells which users have a socket anywhere (so no read is made for users
 * with none): this node's rooms alone, or every node's through Redis.
 */
import * as v from 'valibot';
import type { Server as SocketServer, Socket } from 'socket.io';
import type { AppContext, ServerModule } from '../context';
import { ErrorText, fail, ok } from '../../contract/envelope';
import { CURRENCIES, DEFAULT_CURRENCY } from '../../contract/currencies';
import { GetUserdataSchema, ProvideTokenSchema } from '../../contract/socket';
import { getBalances } from '../domain/ledger';
import { Coalescer } from '../domain/push-batch';
import { parseFrontSettings } from '../domain/users';
import type { AccessClaims } from '../infra/tokens';
import { familyKey } from '../domain/auth/sessions';
import { SharedPackets } from '../http/shared-packets';

export const userRoom = (userId: number) => `user:${userId}`;

/**
 * Which of `rooms` have a socket on some node. One node: its own rooms. With Redis: the rooms'
 * subscriber counts (sharded adapter, one round trip); if Redis does not answer, every room is
 * assumed to have one (a read too many, never a push lost for that reason).
 */
export async function roomsWithSockets(ctx: AppContext, io: SocketServer, rooms: readonly string[]): Promise<Set<string>> {
  const local = io.sockets.adapter.rooms;
  if (!ctx.redis) return new Set(rooms.filter((r) => local.has(r)));
  try {
    return await ctx.redis.roomsWithSockets(rooms);
  } catch (err) {
    ctx.log.warn({ err: err instanceof Error ? err.message : err }, 'room presence from Redis failed; pushing to every room');
    return new Set(rooms);
  }
}

/** Per-socket state: who the socket belongs to once it provided a valid token, and that token's claims. */
export interface SocketSession {
  userId: number | null;
  claims: AccessClaims | null;
}

export function socketSession(socket: Socket): SocketSession {
  const data = socket.data as { session?: SocketSession };
  return (data.session ??= { userId: null, claims: null });
}

/** How often open sockets are re-checked against their token's expiry and session (logout, revocation). */
export const SOCKET_SESSION_SWEEP_MS = 10_000;

/** The socket stops being the user's: it leaves the user's room and hears no more pushes. */
async function forgetSocketUser(socket: Socket): Promise<void> {
  const session = socketSession(socket);
  if (session.userId !== null) await socket.leave(userRoom(session.userId));
  session.userId = null;
  session.claims = null;
}

/**
 * The user a token stands for, joining the socket to that user's room; a token that is not (or no
 * longer) valid takes the socket out of any room an earlier token put it in.
 */
async function authenticateSocket(ctx: AppContext, socket: Socket, token: string): Promise<number | null> {
  const claims = await ctx.tokens.verify(token, ctx.now());
  if (!claims || !(await ctx.services.sessions.isActive(claims))) {
    await forgetSocketUser(socket);
    return null;
  }
  const session = socketSession(socket);
  if (session.userId !== claims.userId) {
    if (session.userId !== null) await socket.leave(userRoom(session.userId));
    session.userId = claims.userId;
    await socket.join(userRoom(claims.userId));
  }
  session.claims = claims;
  return claims.userId;
}

/**
 * Sockets whose token expired or whose session ended (logout, password change, refresh-token
 * reuse) leave the user's room and are told `error_message {event: 'provide_token', message:
 * 'Unauthorized'}`, so a live client refreshes its token and provides it again. The sessions of
 * all sockets are checked in one read (per 500 sessions), not one per socket.
 */
export async function sweepSocketSessions(ctx: AppContext, io: SocketServer): Promise<number> {
  const now = ctx.now();
  const checked: Array<{ socket: Socket; claims: AccessClaims | null; expired: boolean }> = [];
  const live: AccessClaims[] = [];
  for (const socket of io.sockets.sockets.values()) {
    const { userId, claims } = socketSession(socket);
    if (userId === null) continue;
    const expired = !claims || (claims.expiresAt !== undefined && claims.expiresAt <= now);
    checked.push({ socket, claims, expired });
    if (!expired) live.push(claims);
  }
  const alive = live.length ? await ctx.services.sessions.activeFamilies(live) : new Set<string>();
  let dropped = 0;
  for (const { socket, claims, expired } of checked) {
    if (!expired && claims && alive.has(familyKey(claims))) continue;
    // A token provided while the sessions were read was checked on its own; leave that socket be.
    const current = socketSession(socket);
    if (current.claims !== claims || current.userId === null) continue;
    await forgetSocketUser(socket);
    socket.emit('error_message', { event: 'provide_token', message: ErrorText.unauthorized });
    dropped++;
  }
  return dropped;
}

/**
 * An async socket handler that never rejects: a failure is logged and answered with
 * `error_message {event, message: 'Request failed'}` (internals never reach the client).
 */
export function socketHandler(ctx: AppContext, socket: Socket, event: string, handle: (raw: unknown) => Promise<unknown>) {
  return (raw: unknown) => {
    handle(raw).catch((err: unknown) => {
      ctx.log.error({ err, event }, 'socket handler failed');
      socket.emit('error_message', { event, message: ErrorText.requestFailed });
    });
  };
}

/**
 * A socket event's payload checked with its contract schema: the output, or null after telling
 * the client (`error_message` with the event and "Invalid payload").
 */
export function socketPayload<S extends v.GenericSchema>(socket: Socket, event: string, schema: S, raw: unknown): v.InferOutput<S> | null {
  const parsed = v.safeParse(schema, raw);
  if (parsed.success) return parsed.output;
  socket.emit('error_message', { event, message: ErrorText.invalidPayload });
  return null;
}

export async function userdataFor(ctx: AppContext, userId: number) {
  const user = await ctx.db
    .selectFrom('users')
    .select(['currency', 'front_settings'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return null;
  const fs = parseFrontSettings(user.front_settings);
  const balances = await getBalances(ctx.db, userId, [user.currency]);
  return {
    userdata: { balances, currency_code: fs.current_currency ?? user.currency ?? DEFAULT_CURRENCY },
    valuts: [...CURRENCIES],
  };
}

export const coreModule: ServerModule = {
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
          const userId = await authenticateSocket(ctx, socket, payload.token);
          if (userId === null) socket.emit('error_message', { event: 'provide_token', message: ErrorText.unauthorized });
        }),
      );

      socket.on(
        'get_userdata',
        socketHandler(ctx, socket, 'get_userdata', async (raw) => {
          const payload = socketPayload(socket, 'get_userdata', GetUserdataSchema, raw);
          if (!payload) return;
          const userId = await authenticateSocket(ctx, socket, payload.token);
          if (userId === null) return socket.emit('error_message', { event: 'get_userdata', message: ErrorText.unauthorized });
          const data = await userdataFor(ctx, userId);
          if (data) socket.emit('userdata', data);
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
          const balances = await getBalances(ctx.db, userId);
          io.to(userRoom(userId)).emit('update_balances', { balances });
        }
      },
      (err) => ctx.log.error({ err }, 'balances push failed'),
    );
    ctx.events.on('balances.changed', (event) => {
      if (event.userId !== null) balancesPush.add(event.userId, event.userId);
    });
  },
  start(ctx) {
    const io = ctx.io;
    if (!io) return;
    const timer = setInterval(() => {
      sweepSocketSessions(ctx, io).catch((err: unknown) => ctx.log.error({ err }, 'socket session sweep failed'));
    }, SOCKET_SESSION_SWEEP_MS);
    timer.unref();
    sweepTimers.set(ctx, timer);
  },
  stop(ctx) {
    clearInterval(sweepTimers.get(ctx));
    sweepTimers.delete(ctx);
  },
};

/** One sweep timer per running app (tests run several in one process). */
const sweepTimers = new WeakMap<AppContext, ReturnType<typeof setInterval>>();
