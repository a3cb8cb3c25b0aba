/**
 * Socket abuse limits (docs/performance.md, docs/security.md), installed on the socket.io
 * server before any area registers its handlers:
 *   - a cap on open sockets per client IP (SOCKETS_PER_IP): one more is refused at the handshake
 *     (the client gets connect_error "Too many requests, please try again later");
 *   - a token bucket per socket on EVERY incoming event (SOCKET_EVENTS_PER_SECOND refill,
 *     SOCKET_EVENT_BURST capacity): over the limit the event is dropped unseen by the handlers
 *     and the client told once per burst with `error_message {event, message}`; a socket that
 *     keeps going (DISCONNECT_AFTER_DROPS drops within DROP_WINDOW_MS) is told and disconnected.
 * RATE_LIMIT=false (load tests on a private machine) turns both off, like the HTTP limits.
 *
 * The per-IP count lives behind `SocketCounter`: in this process by default, in Redis across
 * every node when REDIS_URL is set (server/infra/socket-counts.ts). The token bucket is always
 * local: a socket lives on one node.
 */
import type { Server as SocketServer, Socket } from 'socket.io';
import { ErrorText } from '../../contract/envelope';
import type { SocketError } from '../../contract/socket';
import { clientIp } from './client-ip';

export const DISCONNECT_AFTER_DROPS = 50;
export const DROP_WINDOW_MS = 10_000;

/** Open sockets per IP: `acquire` counts one more unless `cap` are open already; `release` forgets one. */
export interface SocketCounter {
  acquire(ip: string, cap: number): Promise<boolean> | boolean;
  release(ip: string): void;
}

/** The count in this process (one node). */
export class LocalSocketCounter implements SocketCounter {
  private readonly perIp = new Map<string, number>();

  acquire(ip: string, cap: number): boolean {
    const open = this.perIp.get(ip) ?? 0;
    if (open >= cap) return false;
    this.perIp.set(ip, open + 1);
    return true;
  }

  release(ip: string): void {
    const left = (this.perIp.get(ip) ?? 1) - 1;
    if (left <= 0) this.perIp.delete(ip);
    else this.perIp.set(ip, left);
  }
}

export interface SocketGuardOptions {
  enabled: boolean;
  /** Where open sockets per IP are counted (default: in this process). */
  counter?: SocketCounter;
  socketsPerIp: number;
  eventsPerSecond: number;
  burst: number;
  now?: () => number;
  onAbuse?: (info: { ip: string; socket: string; reason: 'ip_cap' | 'event_rate' }) => void;
  /** Balancers whose X-Forwarded-For names the client (TRUST_PROXY); none by default. */
  trustedProxies?: readonly string[];
}

/** A token bucket: `capacity` tokens, refilled at `perSecond`; take() spends one if there is one. */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.at = now;
  }

  take(now: number): boolean {
    if (now > this.at) {
      this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) / 1000) * this.perSecond);
      this.at = now;
    }
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** The client's address: the connection's, or through a trusted balancer's X-Forwarded-For (http/client-ip.ts), like the HTTP side. */
export const socketIp = (socket: Socket, trusted: ReadonlySet<string> = new Set()) =>
  clientIp(socket.handshake.address, socket.handshake.headers['x-forwarded-for'], trusted);

function tell(socket: Socket, event: string): void {
  const payload: SocketError = { event, message: ErrorText.tooManyRequests };
  socket.emit('error_message', payload);
}

export function installSocketGuard(io: SocketServer, options: SocketGuardOptions): void {
  if (!options.enabled) return;
  const now = options.now ?? Date.now;
  const counter = options.counter ?? new LocalSocketCounter();
  const trusted = new Set(options.trustedProxies ?? []);

  io.use((socket, next) => {
    const ip = socketIp(socket, trusted);
    Promise.resolve(counter.acquire(ip, options.socketsPerIp)).then(
      (allowed) => {
        if (!allowed) {
          options.onAbuse?.({ ip, socket: socket.id, reason: 'ip_cap' });
          return next(new Error(ErrorText.tooManyRequests));
        }
        // The client may have gone while the count was asked (a remote counter): release at once.
        if (socket.conn.readyState !== 'open') {
          counter.release(ip);
          return next(new Error(ErrorText.tooManyRequests));
        }
        // Once, on whichever comes first: the socket's disconnect, or its connection closing
        // (which also covers a socket dropped before socket.io finished connecting it).
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          counter.release(ip);
        };
        socket.once('disconnect', release);
        socket.conn.once('close', release);
        next();
      },
      () => next(new Error(ErrorText.tooManyRequests)),
    );
  });

  io.on('connection', (socket) => {
    const bucket = new TokenBucket(options.burst, options.eventsPerSecond, now());
    let told = false;
    let drops: number[] = [];
    socket.use(([event], next) => {
      const t = now();
      if (bucket.take(t)) {
        told = false;
        return next();
      }
      const name = typeof event === 'string' ? event : 'unknown';
      drops.push(t);
      drops = drops.filter((d) => t - d <= DROP_WINDOW_MS);
      if (drops.length >= DISCONNECT_AFTER_DROPS) {
        options.onAbuse?.({ ip: socketIp(socket, trusted), socket: socket.id, reason: 'event_rate' });
        tell(socket, name);
        socket.disconnect(true);
        return;
      }
      if (!told) {
        told = true;
        tell(socket, name);
      }
      // Dropped: next() is not called, so no handler sees the event.
    });
  });
}
