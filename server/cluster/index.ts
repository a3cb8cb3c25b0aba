/**
 * Builds this node's cluster part (docs/cluster.md): on PostgreSQL (DATABASE_URL) a ClusterNode
 * with feed leadership on a dedicated lock connection and, with REDIS_URL, the Redis tick bus;
 * on SQLite nothing (null): a single node runs the feed, the writes and every job as before.
 */
import { Redis } from 'ioredis';
import type { ServerBase } from '../context';
import type { Market } from '../domain/market/service';
import { pgLockConnector } from './leadership';
import { ClusterNode } from './node';
import { RedisTickBus, type TickBus } from './tick-bus';

export { ClusterNode } from './node';

export interface ClusterSetup {
  /** Tests: poll faster than LEADER_POLL_MS. */
  pollMs?: number;
}

export function buildClusterNode(base: ServerBase, market: Market, setup: ClusterSetup = {}): ClusterNode | null {
  const { config, log } = base;
  if (!config.databaseUrl) return null;
  let bus: TickBus | null = null;
  const redis: Redis[] = [];
  if (config.redisUrl) {
    const options = { connectionName: `tradeterminal-ticks:${config.nodeId}`, maxRetriesPerRequest: 2, enableOfflineQueue: true };
    const pub = new Redis(config.redisUrl, options);
    const sub = new Redis(config.redisUrl, options);
    for (const r of [pub, sub]) {
      r.on('error', (err: Error) => log.warn({ err: err.message }, 'cluster: tick bus connection error'));
      redis.push(r);
    }
    bus = new RedisTickBus(pub, sub, (err) => log.warn({ err }, 'cluster: tick bus publish failed'));
  }
  const limits = Object.values(config.staleQuoteMs);
  return new ClusterNode({
    nodeId: config.nodeId,
    market,
    connect: pgLockConnector(config.databaseUrl, config.nodeId),
    bus,
    log,
    now: base.now,
    staleLimitMs: Math.max(...limits),
    pollMs: setup.pollMs,
    onClose: async () => {
      await Promise.all(redis.map((r) => r.quit().catch(() => r.disconnect())));
    },
  });
}
