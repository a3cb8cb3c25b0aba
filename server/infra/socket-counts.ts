/**
 * Open sockets per client IP, counted across every node in Redis (the SOCKETS_PER_IP cap of
 * server/http/socket-guard.ts when REDIS_URL is set).
 *
 * Each node keeps its own counts in its own hash, `tt:{sockets}:node:<NODE_ID>` (field: IP,
 * value: open sockets), and is listed in the sorted set `tt:{sockets}:nodes` scored with the
 * time of its last heartbeat. A handshake runs one Lua script: drop the nodes whose heartbeat
 * is older than the TTL, add up the IP's count over the nodes left, and count the socket on
 * this node only if the total is under the cap. A node that dies without cleaning up stops
 * heartbeating: after SOCKET_COUNT_TTL_MS its sockets no longer count (its hash expires too),
 * so a crashed node never leaks the IPs' quota. A clean shutdown removes its counts at once.
 *
 * The keys share the hash tag `{sockets}`, so on a Redis Cluster they live in one slot (the
 * script reads other nodes' hashes by name).
 *
 * While Redis does not answer, a handshake is judged on this node's own counts (the cap holds
 * per node, not across nodes) and the node rewrites its whole hash from memory once Redis is
 * back, so the shared counts are right again after an outage.
 */
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { SocketCounter } from '../http/socket-guard';
import { KEY_PREFIX } from './redis';

const NODES_KEY = `${KEY_PREFIX}{sockets}:nodes`;
const nodeKey = (nodeId: string) => `${KEY_PREFIX}{sockets}:node:${nodeId}`;

/** Milliseconds since the epoch on Redis' own clock (one clock for every node). */
const NOW = `local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// KEYS[1] nodes set, KEYS[2] this node's hash; ARGV: ip, cap, nodeId, ttlMs, node key prefix.
const ACQUIRE = `
${NOW}
local ttl = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl)
redis.call('ZADD', KEYS[1], now, ARGV[3])
local total = 0
for _, node in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local c = redis.call('HGET', ARGV[5] .. node, ARGV[1])
  if c then total = total + tonumber(c) end
end
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[2], ttl)
return 1
`;

// KEYS[1] this node's hash; ARGV: ip.
const RELEASE = `
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if left <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return left
`;

// KEYS[1] nodes set, KEYS[2] this node's hash; ARGV: nodeId, ttlMs, rewrite ('1' or '0'), then ip, count pairs.
const HEARTBEAT = `
${NOW}
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl * 4)
if ARGV[3] == '1' then
  redis.call('DEL', KEYS[2])
  for i = 4, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
end
redis.call('PEXPIRE', KEYS[2], ttl)
return 1
`;

export class RedisSocketCounter implements SocketCounter {
  /** This node's open sockets per IP (the truth the Redis hash mirrors). */
  private readonly local = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  /** Rewrite the whole hash on the next heartbeat (after an outage or a start). */
  private rewrite = true;
  private degraded = false;
  private stopped = false;

  constructor(
    private readonly redis: Redis,
    private readonly nodeId: string,
    private readonly ttlMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    redis.on('ready', () => {
      this.rewrite = true;
    });
  }

  /** Register this node (and clear counts a previous run under the same NODE_ID left) and heartbeat every TTL/3. */
  async start(): Promise<void> {
    await this.heartbeat();
    this.timer = setInterval(() => void this.heartbeat(), Math.max(50, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  async acquire(ip: string, cap: number): Promise<boolean> {
    if (this.stopped) return false;
    let allowed: boolean;
    try {
      const r = await this.redis.eval(ACQUIRE, 2, NODES_KEY, nodeKey(this.nodeId), ip, cap, this.nodeId, this.ttlMs, `${KEY_PREFIX}{sockets}:node:`);
      allowed = Number(r) === 1;
      if (this.degraded) {
        this.degraded = false;
        this.log.warn('socket counts: back on Redis');
      }
    } catch (err) {
      // Redis down: this node's own count decides; the next heartbeat that reaches Redis
      // rewrites this node's hash, so the socket is counted there too.
      if (!this.degraded) this.log.warn({ err: err instanceof Error ? err.message : err }, 'socket counts: Redis unavailable, counting on this node only');
      this.degraded = true;
      this.rewrite = true;
      allowed = (this.local.get(ip) ?? 0) < cap;
    }
    if (allowed) this.local.set(ip, (this.local.get(ip) ?? 0) + 1);
    return allowed;
  }

  release(ip: string): void {
    const left = (this.local.get(ip) ?? 1) - 1;
    if (left <= 0) this.local.delete(ip);
    else this.local.set(ip, left);
    if (this.stopped) return;
    this.redis.eval(RELEASE, 1, nodeKey(this.nodeId), ip).catch(() => {
      this.rewrite = true;
    });
  }

  private async heartbeat(): Promise<void> {
    if (this.stopped) return;
    const rewrite = this.rewrite;
    const pairs = rewrite ? [...this.local].flatMap(([ip, n]) => [ip, String(n)]) : [];
    try {
      this.rewrite = false;
      await this.redis.eval(HEARTBEAT, 2, NODES_KEY, nodeKey(this.nodeId), this.nodeId, this.ttlMs, rewrite ? '1' : '0', ...pairs);
    } catch (err) {
      this.rewrite = true;
      this.log.debug({ err }, 'socket counts heartbeat failed');
    }
  }

  /** Stop heartbeating and remove this node's counts (a clean shutdown frees its IPs' quota at once). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.redis
      .multi()
      .zrem(NODES_KEY, this.nodeId)
      .del(nodeKey(this.nodeId))
      .exec()
      .catch(() => undefined);
  }
}
