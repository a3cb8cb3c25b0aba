/**
 * Builds this node's cluster part (docs/cluster.md): on PostgreSQL (DATABASE_URL) a ClusterNode
 * with feed leadership on a dedicated lock connection and, with REDIS_URL, the tick bus on the
 * node's Redis (server/infra/redis.ts: ticks are published on its command connection and heard
 * on a subscriber connection of the bus's own, beside the socket.io adapter's); on SQLite
 * nothing (null): a single node runs the feed, the writes and every job as before.
 */
import type { ServerBase } from '../base';
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
  const { config, log, redis } = base;
  if (!config.databaseUrl) return null;
  let bus: TickBus | null = null;
  let closeBus = async () => undefined as void;
  if (redis) {
    const sub = redis.subscriber.duplicate({ connectionName: `tradeterminal-ticks:${config.nodeId}` });
    sub.on('error', (err: Error) => log.warn({ err: err.message }, 'cluster: tick bus connection error'));
    bus = new RedisTickBus(redis.commands, sub, (err) => log.warn({ err: err instanceof Error ? err.message : err }, 'cluster: tick bus publish failed'));
    // disconnect, not quit: a quit waits for an answer a Redis that is down never sends.
    closeBus = async () => {
      sub.disconnect();
    };
  }
  return new ClusterNode({
    nodeId: config.nodeId,
    market,
    connect: pgLockConnector(config.databaseUrl, config.nodeId),
    bus,
    log,
    now: base.now,
    staleLimitMs: Math.max(...Object.values(config.staleQuoteMs)),
    pollMs: setup.pollMs,
    onClose: closeBus,
  });
}
