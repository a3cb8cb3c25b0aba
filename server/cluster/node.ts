/**
 * One node of a cluster (DATABASE_URL on PostgreSQL; docs/cluster.md): ties feed leadership
 * (leadership.ts), the tick bus (tick-bus.ts) and the market service together.
 *
 * - Elected for an epoch: the market leads (`Market.lead`): it continues every pair from the
 *   newest tick handed out, runs the feed, writes the tick log through the fence (the epoch must
 *   still be current inside the write's transaction) and publishes every tick on the bus.
 * - Demoted (lock connection lost, epoch moved on, fence refused a write, node stopping): the
 *   feed stops at once, the turn's unsent ticks still go out, the term's last write goes
 *   through the fence, and the market follows the bus.
 * - Following: every bus message of the current or a newer epoch goes into the market
 *   (`Market.acceptRemote`); the node's own messages are skipped (it ingested them itself).
 *
 * A node without a bus (no REDIS_URL) still takes part in leadership, so two such nodes never
 * both tick; a follower without a bus hears no ticks and is not ready (`feedReady`).
 */
import type { Trx } from '../db';
import type { Market } from '../domain/market/service';
import { FencedError } from '../domain/market/fencing';
import { FeedLeadership, LEASE_NAME, type LeadershipLog, type LockConnection, type Role } from './leadership';
import { TickPublisher, type TickBus, type TickMessage } from './tick-bus';

/** How often a node re-reads which pairs are active. */
export const PAIRS_REFRESH_MS = 2_000;

export interface ClusterNodeOptions {
  nodeId: string;
  market: Market;
  connect: () => Promise<LockConnection>;
  bus: TickBus | null;
  log: LeadershipLog;
  now: () => number;
  /** How long a follower may go without a bus tick and still be ready (ms). */
  staleLimitMs: number;
  pollMs?: number;
  /** Called after the bus and the leadership stopped (closes the Redis connections this node opened). */
  onClose?: () => Promise<void>;
}

export interface ClusterStatus {
  node: string;
  role: Role;
  /** The epoch this node leads, or the newest epoch it has heard of. */
  epoch: number;
}

export class ClusterNode {
  readonly leadership: FeedLeadership;
  private publisher: TickPublisher | null = null;
  private pairsTimer: NodeJS.Timeout | null = null;
  private lastBusTickAt: number | null = null;
  private started = false;

  constructor(private readonly options: ClusterNodeOptions) {
    options.market.joinCluster();
    this.leadership = new FeedLeadership({
      nodeId: options.nodeId,
      connect: options.connect,
      log: options.log,
      now: options.now,
      pollMs: options.pollMs,
      onElected: (epoch) => this.elected(epoch),
      onDemoted: () => this.demoted(),
    });
  }

  get nodeId(): string {
    return this.options.nodeId;
  }

  status(): ClusterStatus {
    const epoch = this.leadership.epoch;
    return { node: this.options.nodeId, role: this.leadership.role, epoch: epoch ?? this.options.market.clusterEpoch };
  }

  /**
   * The `feed` readiness check: the leader's feed runs; a follower heard a tick from the bus
   * within the stale limit. Returns null when ready, else why not.
   */
  feedProblem(): string | null {
    if (!this.started) return 'cluster node not started';
    if (this.leadership.role === 'leader') return this.options.market.clusterRole === 'leader' ? null : 'feed starting';
    if (!this.options.bus) return 'no tick bus (REDIS_URL) and not the feed leader';
    if (this.lastBusTickAt === null) return 'no tick from the bus yet';
    const age = this.options.now() - this.lastBusTickAt;
    return age <= this.options.staleLimitMs ? null : `no tick from the bus for ${age} ms`;
  }

  /** Join: hear the bus, and make the first attempt at the lock (resolves after it). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.options.bus?.subscribe((message) => this.heard(message));
    // Pairs an operator enabled or disabled through another node (its event is delivered once).
    this.pairsTimer = setInterval(() => {
      this.options.market.refreshActive().catch((err: unknown) => this.options.log.warn({ err }, 'cluster: reading the pairs failed'));
    }, PAIRS_REFRESH_MS);
    this.pairsTimer.unref();
    await this.leadership.start();
  }

  /**
   * The node is draining (SIGTERM): give the feed up now, so another node leads while this one
   * finishes its work; it keeps following the bus for its remaining sockets.
   */
  async drain(): Promise<void> {
    await this.leadership.stop();
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    if (this.pairsTimer) clearInterval(this.pairsTimer);
    this.pairsTimer = null;
    await this.leadership.stop();
    await this.options.bus?.close();
    await this.options.onClose?.();
  }

  private heard(message: TickMessage): void {
    if (message.node === this.options.nodeId) return;
    if (message.epoch >= this.options.market.clusterEpoch) this.lastBusTickAt = this.options.now();
    this.options.market.acceptRemote(message.epoch, message.ticks);
  }

  private async elected(epoch: number): Promise<void> {
    const bus = this.options.bus;
    const publisher = bus ? new TickPublisher(bus, this.options.nodeId, epoch) : null;
    this.publisher?.cancel();
    this.publisher = publisher;
    await this.options.market.lead({
      epoch,
      fence: async (trx) => {
        const asked = performance.now();
        await fence(trx, epoch);
        this.leadership.confirm(epoch, asked);
      },
      publish: (tick) => publisher?.add(tick),
      onFenced: () => this.leadership.resign('the tick log refused a write of this epoch'),
      valid: () => this.leadership.leaseValid(),
      // Nobody led before the first term: nothing to wait for.
      handoverMs: epoch === 1 ? 0 : this.leadership.handoverMs(),
    });
  }

  /**
   * The feed stops now; the ticks numbered this turn still go out (tagged with this term's epoch:
   * followers that already heard a newer one drop them), then the term's last write.
   */
  private demoted(): Promise<void> {
    this.publisher?.flush();
    this.publisher = null;
    return this.options.market.follow();
  }
}

/** Inside a tick-log write: refuse it unless `epoch` is still the feed's current epoch. */
export async function fence(trx: Trx, epoch: number): Promise<void> {
  // FOR SHARE: a new leader's bump waits for this write to commit, or this read sees the bump.
  const row = await trx.selectFrom('cluster_leases').select('epoch').where('name', '=', LEASE_NAME).forShare().executeTakeFirst();
  const current = row ? Number(row.epoch) : null;
  if (current !== epoch) throw new FencedError(epoch, current);
}
