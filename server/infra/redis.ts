/**
 * The node's Redis connections (REDIS_URL; docs/deploy-redis.md). Without REDIS_URL nothing
 * here is used and everything stays in process.
 *
 * Two ioredis clients:
 *   - `commands`: rate-limit counters (@fastify/rate-limit's Redis store), the cross-node socket
 *     counts (socket-counts.ts), readiness PINGs, and publishing for the socket.io adapter. It
 *     fails fast while Redis is unreachable (no offline queue, a command timeout), so a request
 *     never waits on a dead Redis: callers fall back to their local behaviour.
 *   - `subscriber`: the socket.io adapter's sharded subscriptions (SSUBSCRIBE). It queues while
 *     disconnected and ioredis resubscribes after a reconnect.
 *
 * The socket.io adapter is the sharded Pub/Sub one (@socket.io/redis-adapter's
 * createShardedAdapter, Redis >= 7.0) in "dynamic" mode: every room with sockets on a node is
 * its own channel that node subscribes to, so `io.to(userRoom(id)).emit(...)` reaches only the
 * nodes where that user has a socket. Why not the Redis Streams adapter: docs/deploy-redis.md.
 *
 * `openRedis` connects both clients before the node starts (a bad REDIS_URL or an unreachable
 * Redis stops the start with a clear message); `close()` ends them on shutdown.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { createShardedAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';

/** Prefix of every key and channel this app writes in Redis. */
export const KEY_PREFIX = 'tt:';
/** The socket.io adapter's channel prefix; a room's channel is `${prefix}#/#${room}#` (dynamic mode). */
export const ADAPTER_CHANNEL_PREFIX = 'tt:sio';

/** Time allowed to connect (TCP and the ready check) before a start fails or a reconnect retries. */
export const REDIS_CONNECT_TIMEOUT_MS = 5_000;
/** A command without an answer in this time fails ("Command timed out"). */
export const REDIS_COMMAND_TIMEOUT_MS = 2_000;

export interface RedisInfra {
  /** The address without a password, for logs and errors. */
  readonly where: string;
  readonly commands: Redis;
  readonly subscriber: Redis;
  /** The socket.io adapter constructor for `new Server(http, { adapter })`. */
  socketAdapter(): ReturnType<typeof createShardedAdapter>;
  /**
   * Which of `rooms` have a socket on some node: the number of subscribers of each room's
   * channel (PUBSUB SHARDNUMSUB, one round trip). Rejects when Redis does not answer.
   */
  roomsWithSockets(rooms: readonly string[]): Promise<Set<string>>;
  /** PING with the command timeout; rejects with a clear error when Redis does not answer. */
  ping(): Promise<void>;
  /** Whether both connections are up right now. */
  connected(): boolean;
  close(): Promise<void>;
}

/** The URL with any password replaced, for messages. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'redis://(unparseable address)';
  }
}

/** Reconnect after 100 ms, 200 ms, ... at most 2 s apart, forever (a node outlives a Redis restart). */
const retryStrategy = (times: number) => Math.min(times * 100, 2_000);

function connectOnce(client: Redis, where: string, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis at ${where} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  // ioredis rejects connect() with "Connection is closed."; the socket's own error says why.
  let socketError: Error | null = null;
  const onError = (err: Error) => (socketError ??= err);
  client.on('error', onError);
  const connecting = client.connect().catch((err: unknown) => {
    const why = socketError?.message ?? (err instanceof Error ? err.message : String(err));
    throw new Error(`Redis at ${where} is not reachable: ${why}`, { cause: socketError ?? err });
  });
  return Promise.race([connecting, timeout]).finally(() => {
    clearTimeout(timer);
    client.off('error', onError);
  });
}

/** Log a connection's state changes once each (ioredis emits an error per failed reconnect). */
function watch(client: Redis, name: string, where: string, log: FastifyBaseLogger): void {
  let down = false;
  let lastError = '';
  client.on('error', (err: Error) => {
    lastError = err.message;
    if (!down) log.warn({ redis: where, connection: name, err: err.message }, 'redis connection error');
    down = true;
  });
  client.on('close', () => {
    if (!down && client.status !== 'end') log.warn({ redis: where, connection: name }, 'redis connection lost; reconnecting');
    down = true;
  });
  client.on('ready', () => {
    if (down) log.warn({ redis: where, connection: name, lastError }, 'redis connection back');
    down = false;
  });
}

export async function openRedis(url: string, options: { nodeId: string; log: FastifyBaseLogger; connectTimeoutMs?: number }): Promise<RedisInfra> {
  const where = redactRedisUrl(url);
  const connectTimeout = options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS;
  const common: RedisOptions = {
    lazyConnect: true,
    connectTimeout,
    retryStrategy,
  };
  // Connection names show in CLIENT LIST: which node holds which connection.
  const commands = new Redis(url, {
    ...common,
    connectionName: `tt-${options.nodeId}-commands`.replace(/[^A-Za-z0-9_.:-]/g, '_'),
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
  });
  const subscriber = new Redis(url, {
    ...common,
    connectionName: `tt-${options.nodeId}-subscriber`.replace(/[^A-Za-z0-9_.:-]/g, '_'),
    // Subscriptions made while disconnected wait for the connection; ioredis resubscribes after
    // a reconnect (autoResubscribe, on by default, covers SSUBSCRIBE).
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
  });
  watch(commands, 'commands', where, options.log);
  watch(subscriber, 'subscriber', where, options.log);
  try {
    await Promise.all([connectOnce(commands, where, connectTimeout), connectOnce(subscriber, where, connectTimeout)]);
    // Sharded Pub/Sub needs Redis 7.0; say so here rather than as a failed SSUBSCRIBE later.
    const info = await commands.info('server');
    const version = /redis_version:(\d+)\.(\d+)/.exec(info);
    if (version && Number(version[1]) < 7) throw new Error(`Redis at ${where} is version ${version[1]}.${version[2]}; 7.0 or later is needed (sharded Pub/Sub)`);
  } catch (err) {
    commands.disconnect();
    subscriber.disconnect();
    throw err;
  }

  const channel = (room: string) => `${ADAPTER_CHANNEL_PREFIX}#/#${room}#`;
  let closed: Promise<void> | null = null;
  return {
    where,
    commands,
    subscriber,
    socketAdapter: () => createShardedAdapter(commands, subscriber, { channelPrefix: ADAPTER_CHANNEL_PREFIX, subscriptionMode: 'dynamic' }),
    async roomsWithSockets(rooms) {
      const found = new Set<string>();
      if (rooms.length === 0) return found;
      // Reply: [channel, count, channel, count, ...] in the order asked.
      const reply = (await commands.call('PUBSUB', 'SHARDNUMSUB', ...rooms.map(channel))) as Array<string | number>;
      for (let i = 0; i < rooms.length; i++) if (Number(reply[i * 2 + 1]) > 0) found.add(rooms[i]);
      return found;
    },
    async ping() {
      try {
        await commands.ping();
      } catch (err) {
        throw new Error(`Redis at ${where}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
    },
    connected: () => commands.status === 'ready' && subscriber.status === 'ready',
    close() {
      closed ??= (async () => {
        // QUIT lets Redis finish what was sent; a connection that is down is just dropped.
        await Promise.all(
          [commands, subscriber].map(async (c) => {
            if (c.status === 'ready') await c.quit().catch(() => c.disconnect());
            else c.disconnect();
          }),
        );
      })();
      return closed;
    },
  };
}
