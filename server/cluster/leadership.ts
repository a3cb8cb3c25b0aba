/**
 * Feed leadership (docs/cluster.md, "Leadership"): exactly one node of a cluster runs the price
 * feed. The leader holds a PostgreSQL session advisory lock on a connection of its own (not one
 * of the pool's): the lock lives exactly as long as that connection, so a node that dies (kill
 * -9, a cut network) frees it when PostgreSQL notices the connection is gone.
 *
 * Every node polls `pg_try_advisory_lock` every `pollMs`; the one that gets it bumps the epoch of
 * the `feed` row of `cluster_leases` (migration 011) on the same connection and is leader for
 * that epoch. The epoch is the fencing token: the tick log's writes check it in their own
 * transaction (market service, `fence`), so a leader that was paused while another took over can
 * never write a tick after it. While leading, the node checks its connection and the epoch every
 * `pollMs`; an error on the connection, a failed check or a newer epoch makes it step down at
 * once (`onDemoted` stops the feed synchronously).
 *
 * A leader cannot know the instant it loses the lock (its connection may die between two
 * checks), so leadership is also a lease in time: the leader only ticks while its last
 * confirmation (taking the lock, or a check that saw its epoch) is at most `leaseMs()` old
 * (3 polls, on the monotonic clock: a test's fake wall clock does not move it), and a new leader
 * waits `handoverMs()` (4 polls) after taking the lock before its first tick. Whatever the old leader numbered before its lease ran out has by then reached the
 * bus, and the new term continues after it.
 */
import type { ClientConfig } from 'pg';
import pg from 'pg';

/** The advisory lock key of the feed (any fixed 64-bit number; "ttfeed" in ASCII). */
export const FEED_LOCK_KEY = 0x747466656564;
export const LEASE_NAME = 'feed';
export const LEADER_POLL_MS = 300;

/** The few things leadership needs from a dedicated database connection (a pg.Client). */
export interface LockConnection {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  on(event: 'error' | 'end', listener: (err?: Error) => void): unknown;
  end(): Promise<void>;
}

export interface LeadershipLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface LeadershipOptions {
  nodeId: string;
  connect: () => Promise<LockConnection>;
  log: LeadershipLog;
  /** Took the lock for `epoch`: start the feed. A throw steps down again. */
  onElected: (epoch: number) => Promise<void>;
  /**
   * Lost (or gave up) the lock: stop the feed now (synchronously). The promise (the last write of
   * the term) is awaited before a node that is stopping releases the lock.
   */
  onDemoted: (reason: string) => void | Promise<void>;
  pollMs?: number;
  now?: () => number;
}

export type Role = 'leader' | 'follower';

export class FeedLeadership {
  private conn: LockConnection | null = null;
  private connecting: Promise<LockConnection> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private stopped = true;
  private leaderEpoch: number | null = null;
  private stopping: Promise<void> | null = null;
  /** The feed start of the latest election (start() waits for it). */
  private electing: Promise<void> | null = null;
  /** When the lock and epoch were last confirmed (performance.now()). */
  private confirmedAt = 0;
  /** Bumped when the connection is dropped: a late answer on an old connection is ignored. */
  private generation = 0;
  private readonly pollMs: number;

  constructor(private readonly options: LeadershipOptions) {
    this.pollMs = options.pollMs ?? LEADER_POLL_MS;
  }

  /** How long a confirmation lets the leader tick. */
  leaseMs(): number {
    return 3 * this.pollMs;
  }

  /** How long a new leader waits before its first tick (longer than any old leader's lease). */
  handoverMs(): number {
    return 4 * this.pollMs;
  }

  /** Whether this node leads and its lease is current: it may number ticks now. */
  leaseValid(): boolean {
    return this.leaderEpoch !== null && performance.now() - this.confirmedAt <= this.leaseMs();
  }

  get role(): Role {
    return this.leaderEpoch === null ? 'follower' : 'leader';
  }

  /** The epoch this node leads, or null when it follows. */
  get epoch(): number | null {
    return this.leaderEpoch;
  }

  /** Start polling; resolves after the first attempt (a node alone on its database leads by then). */
  start(): Promise<void> {
    if (!this.stopped) return Promise.resolve();
    this.stopped = false;
    this.timer = setInterval(() => void this.step(), this.pollMs);
    this.timer.unref();
    return this.step().then(() => this.electing ?? undefined);
  }

  /** Step down (the feed stops), release the lock and close the connection (once; callers share it). */
  stop(): Promise<void> {
    this.stopping ??= this.release().finally(() => {
      this.stopping = null;
    });
    return this.stopping;
  }

  private async release(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // The term's last ticks are written while the lock (and so the epoch) is still this node's.
    await this.demote('node stopping');
    const conn = this.conn;
    this.conn = null;
    this.generation += 1;
    if (conn) {
      // Closing the session releases the lock; the explicit unlock only makes it immediate.
      await conn.query('select pg_advisory_unlock($1)', [FEED_LOCK_KEY]).catch(() => undefined);
      await conn.end().catch(() => undefined);
    }
  }

  /** One poll: followers try the lock, the leader checks it still leads. */
  private async step(): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    const generation = this.generation;
    try {
      const conn = await this.connection();
      if (this.stopped || generation !== this.generation) return;
      if (this.leaderEpoch === null) await this.tryLead(conn, generation);
      else await this.check(conn, generation);
    } catch (err) {
      if (generation === this.generation) this.drop(err instanceof Error ? err.message : String(err));
    } finally {
      this.busy = false;
    }
  }

  private async tryLead(conn: LockConnection, generation: number): Promise<void> {
    const got = await conn.query('select pg_try_advisory_lock($1) as ok', [FEED_LOCK_KEY]);
    if (got.rows[0]?.ok !== true || this.stopped || generation !== this.generation) return;
    const now = (this.options.now ?? Date.now)();
    const bumped = await conn.query(
      `insert into cluster_leases (name, epoch, holder, taken_at) values ($1, 1, $2, $3)
       on conflict (name) do update set epoch = cluster_leases.epoch + 1, holder = excluded.holder, taken_at = excluded.taken_at
       returning epoch`,
      [LEASE_NAME, this.options.nodeId, now],
    );
    const epoch = Number(bumped.rows[0]?.epoch);
    if (!Number.isSafeInteger(epoch) || epoch < 1) throw new Error('cluster_leases returned no epoch');
    if (this.stopped || generation !== this.generation) return;
    this.leaderEpoch = epoch;
    this.confirmedAt = performance.now();
    this.options.log.info({ node: this.options.nodeId, epoch, role: 'leader' }, 'cluster: this node leads the feed');
    // Not awaited by the poll: the checks that keep the lease current go on while the feed starts.
    this.electing = Promise.resolve()
      .then(() => this.options.onElected(epoch))
      .catch((err: unknown) => {
        this.options.log.error({ err, epoch }, 'cluster: starting the feed failed; giving the lock up');
        if (this.leaderEpoch === epoch) this.drop('feed start failed');
      });
  }

  private async check(conn: LockConnection, generation: number): Promise<void> {
    const asked = performance.now();
    const res = await conn.query('select epoch from cluster_leases where name = $1', [LEASE_NAME]);
    if (generation !== this.generation || this.leaderEpoch === null) return;
    const epoch = Number(res.rows[0]?.epoch);
    if (epoch !== this.leaderEpoch) this.drop(`epoch moved on to ${epoch}`);
    // The lock was held when the query was sent (the session lives as long as the connection).
    else this.confirmedAt = asked;
  }

  private async connection(): Promise<LockConnection> {
    if (this.conn) return this.conn;
    if (!this.connecting) {
      const generation = this.generation;
      this.connecting = this.options
        .connect()
        .then((conn) => {
          const lost = (err?: Error) => {
            if (this.conn === conn) this.drop(err ? `lock connection error: ${err.message}` : 'lock connection closed');
          };
          conn.on('error', lost);
          conn.on('end', () => lost());
          if (generation === this.generation && !this.stopped) this.conn = conn;
          else void conn.end().catch(() => undefined);
          return conn;
        })
        .finally(() => {
          this.connecting = null;
        });
    }
    return this.connecting;
  }

  /**
   * The fence of a tick-log write read `epoch` as current in a query sent at `at`
   * (performance.now()): no other node had bumped it then, so the lease holds from `at` too.
   */
  confirm(epoch: number, at: number): void {
    if (this.leaderEpoch === epoch && at > this.confirmedAt) this.confirmedAt = at;
  }

  /** Give the lead up now (the fence refused a write): the connection closes, the lock frees. */
  resign(reason: string): void {
    if (this.leaderEpoch !== null) this.drop(reason);
  }

  /** The connection is unusable: step down now, close it; the next poll connects again. */
  private drop(reason: string): void {
    this.generation += 1;
    void this.demote(reason);
    const conn = this.conn;
    this.conn = null;
    if (conn) void conn.end().catch(() => undefined);
  }

  private demote(reason: string): Promise<void> {
    if (this.leaderEpoch === null) return Promise.resolve();
    const epoch = this.leaderEpoch;
    this.leaderEpoch = null;
    this.options.log.warn({ node: this.options.nodeId, epoch, role: 'follower', reason }, 'cluster: this node stepped down from leading the feed');
    try {
      return Promise.resolve(this.options.onDemoted(reason)).catch((err: unknown) => this.options.log.error({ err }, 'cluster: stepping down failed'));
    } catch (err) {
      this.options.log.error({ err }, 'cluster: stopping the feed failed');
      return Promise.resolve();
    }
  }
}

/** A dedicated pg.Client for the lock: short timeouts, TCP keep-alive, named in pg_stat_activity. */
export function pgLockConnector(databaseUrl: string, nodeId: string): () => Promise<LockConnection> {
  return async () => {
    const config: ClientConfig = {
      connectionString: databaseUrl,
      connectionTimeoutMillis: 2_000,
      query_timeout: 2_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 1_000,
      application_name: `tradeterminal-lock:${nodeId}`.slice(0, 63),
    };
    const client = new pg.Client(config);
    // An error before the listeners are attached must not crash the process.
    client.on('error', () => undefined);
    await client.connect();
    return client as unknown as LockConnection;
  };
}
