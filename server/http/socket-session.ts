/**
 * The socket's session: which user a socket belongs to once it provided a valid access token
 * (provide_token, get_userdata), the user rooms pushes go to, and the sweep that drops sockets
 * whose token expired or whose session ended.
 *
 * Pushes to a user go to the user's room with `io.to(userRoom(id))`: with REDIS_URL the
 * socket.io adapter carries them to whichever node holds the user's sockets.
 * `roomsWithSockets` tells which users have a socket anywhere (so no read is made for users
 * with none): this node's rooms alone, or every node's through Redis.
 *
 * `SocketSessions` is made once per app by the core module (server/routes/core.ts) and holds the
 * sweep's timer (start()/stop()); a socket's own state lives on the socket (`socketSession`).
 */
import type { Server as SocketServer, Socket } from 'socket.io';
import type { AppContext } from '../context';
import type { ServerBase } from '../base';
import { ErrorText } from '../../contract/envelope';
import type { AccessClaims, AccessTokens } from '../infra/tokens';
import type { DomainLog } from '../domain/log';
import { familyKey, type SessionCheck } from '../domain/auth/sessions';

import { userRoom } from '../infra/rooms';

/**
 * Which of `rooms` have a socket on some node. One node: its own rooms. With Redis: the rooms'
 * subscriber counts (sharded adapter, one round trip); if Redis does not answer, every room is
 * assumed to have one (a read too many, never a push lost for that reason).
 */
export async function roomsWithSockets(ctx: Pick<ServerBase, 'redis' | 'log'>, io: SocketServer, rooms: readonly string[]): Promise<Set<string>> {
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

export interface SocketSessionDeps {
  io: SocketServer;
  tokens: AccessTokens;
  sessions: Pick<SessionCheck, 'isActive' | 'activeFamilies'>;
  now: () => number;
  log: DomainLog;
}

/** The socket sessions of one app: authenticating a socket by its token, and the periodic sweep. */
export class SocketSessions {
  private sweepTimer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly deps: SocketSessionDeps) {}

  /**
   * The user a token stands for, joining the socket to that user's room; a token that is not (or no
   * longer) valid takes the socket out of any room an earlier token put it in.
   */
  async authenticate(socket: Socket, token: string): Promise<number | null> {
    const claims = await this.deps.tokens.verify(token, this.deps.now());
    if (!claims || !(await this.deps.sessions.isActive(claims))) {
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
   * all sockets are checked in one read (per 500 sessions), not one per socket. Answers how many
   * sockets were dropped.
   */
  async sweep(): Promise<number> {
    const now = this.deps.now();
    const checked: Array<{ socket: Socket; claims: AccessClaims | null; expired: boolean }> = [];
    const live: AccessClaims[] = [];
    for (const socket of this.deps.io.sockets.sockets.values()) {
      const { userId, claims } = socketSession(socket);
      if (userId === null) continue;
      const expired = !claims || (claims.expiresAt !== undefined && claims.expiresAt <= now);
      checked.push({ socket, claims, expired });
      if (!expired) live.push(claims);
    }
    const alive = live.length ? await this.deps.sessions.activeFamilies(live) : new Set<string>();
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

  /** Sweep every SOCKET_SESSION_SWEEP_MS (a failure is logged) until stop(). */
  start(): void {
    const timer = setInterval(() => {
      this.sweep().catch((err: unknown) => this.deps.log.error({ err }, 'socket session sweep failed'));
    }, SOCKET_SESSION_SWEEP_MS);
    timer.unref();
    this.sweepTimer = timer;
  }

  stop(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
  }
}

/** The socket sessions of a running app on its socket.io server (the clock read at each use: tests may replace ctx.now). */
export function appSocketSessions(ctx: AppContext, io: SocketServer): SocketSessions {
  return new SocketSessions({ io, tokens: ctx.tokens, sessions: ctx.services.sessions, now: () => ctx.now(), log: ctx.log });
}

/** One sweep now, outside the timer (tests); see `SocketSessions.sweep`. */
export function sweepSocketSessions(ctx: AppContext, io: SocketServer): Promise<number> {
  return appSocketSessions(ctx, io).sweep();
}

/** The socket stops being the user's: it leaves the user's room and hears no more pushes. */
async function forgetSocketUser(socket: Socket): Promise<void> {
  const session = socketSession(socket);
  if (session.userId !== null) await socket.leave(userRoom(session.userId));
  session.userId = null;
  session.claims = null;
}
