/**
 * The Prometheus metrics (docs/operations.md, "Metrics"; prom-client 15), one registry per server
 * (tests run several in one process). Two kinds:
 *
 * - Counted where it happens, on the hot paths, as cheaply as a labelled counter gets: HTTP
 *   request durations (by route pattern, method, status), orders placed and refused (by reason
 *   and account kind), settlement lag (expiry to settled).
 * - Read when Prometheus scrapes (`collect`): everything that is a state (queues, ages, the
 *   books, exposure, ticks, the cluster role), from `MetricSources` the composition root wires
 *   to the areas. A slow source (the books' sum) is kept for `slowEveryMs` between reads.
 *
 * Labels never carry a user id, a token or an address: routes are their patterns
 * (`/api/platform/orders/:id`), refusals a fixed set of reasons.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The figures read at scrape time; each may be absent (a node without that area, SQLite without a cluster). */
export interface MetricSources {
  socketConnections?: () => number;
  /** Per pair: the feed's name and the newest tick's time (ms), or null before the first. */
  ticks?: () => Array<{ pair: string; feed: string; at: number | null }>;
  /** Expiry (ms) of the open order due first, or null. */
  earliestOpenExpiry?: () => Promise<number | null>;
  outboxBacklog?: () => Promise<number>;
  /** Creation time (ms) of the oldest withdrawal waiting, or null. */
  oldestWaitingWithdrawal?: () => Promise<number | null>;
  kycQueue?: () => Promise<number>;
  supportQueue?: () => Promise<number>;
  /** Per pair: worst-case house loss on open real orders and its limit, USD cents. */
  exposure?: () => Promise<Array<{ pair: string; worstUsdMinor: number; limitUsdMinor: number }>>;
  /** Per currency: every account (users' and house) summed, minor units: 0 when the books balance. */
  booksSum?: () => Promise<Array<{ currency: string; sum: number }>>;
  /** Last backup and last verified restore (ms), or null. */
  lastBackupAt?: () => number | null;
  lastVerifiedRestoreAt?: () => number | null;
  cluster?: () => { node: string; role: string; epoch: number | null };
}

/** Why an order was refused: a fixed set (the metrics' label), never the message itself. */
export const REFUSAL_REASONS = ['invalid', 'insufficient_balance', 'pair_unavailable', 'market_closed', 'risk_limit', 'duplicate', 'unauthenticated', 'forbidden', 'rate_limited', 'other'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

const seconds = (ms: number) => ms / 1000;

export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'route' | 'method' | 'status'>;
  readonly ordersPlaced: Counter<'account'>;
  readonly ordersRefused: Counter<'reason' | 'account'>;
  readonly settlementLag: Histogram;
  private scrapes = 0;
  private books: { at: number; rows: Array<{ currency: string; sum: number }> } | null = null;

  constructor(
    private readonly sources: MetricSources,
    private readonly now: () => number = Date.now,
    private readonly slowEveryMs = 60_000,
  ) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'tt_http_request_duration_seconds',
      help: 'HTTP request duration by route pattern, method and status',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.ordersPlaced = new Counter({ name: 'tt_orders_placed_total', help: 'Orders accepted, by account kind (real, demo)', labelNames: ['account'], registers });
    this.ordersRefused = new Counter({ name: 'tt_orders_refused_total', help: 'Orders refused, by reason and account kind', labelNames: ['reason', 'account'], registers });
    this.settlementLag = new Histogram({
      name: 'tt_settlement_lag_seconds',
      help: "Time from an order's expiry to its settlement",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
      registers,
    });
    this.gauges(registers);
  }

  private gauges(registers: Registry[]): void {
    const s = this.sources;
    const now = this.now;
    const ageOf = (t: number | null) => (t === null ? 0 : Math.max(0, seconds(now() - t)));
    new Gauge({
      name: 'tt_socket_connections',
      help: 'Open socket.io connections on this node',
      registers,
      collect() {
        this.set(s.socketConnections?.() ?? 0);
      },
    });
    new Gauge({
      name: 'tt_tick_age_seconds',
      help: "Age of each pair's newest tick, by feed (a pair without a tick yet is absent)",
      labelNames: ['pair', 'feed'],
      registers,
      collect() {
        this.reset();
        for (const t of s.ticks?.() ?? []) if (t.at !== null) this.set({ pair: t.pair, feed: t.feed }, Math.max(0, seconds(now() - t.at)));
      },
    });
    new Gauge({
      name: 'tt_oldest_unsettled_order_age_seconds',
      help: 'How long past its expiry the oldest open order is (0 when none is overdue)',
      registers,
      async collect() {
        const expiry = (await s.earliestOpenExpiry?.()) ?? null;
        this.set(expiry === null || expiry > now() ? 0 : seconds(now() - expiry));
      },
    });
    new Gauge({
      name: 'tt_outbox_backlog',
      help: 'Domain events recorded and not yet delivered (socket pushes, notifications)',
      registers,
      async collect() {
        this.set((await s.outboxBacklog?.()) ?? 0);
      },
    });
    new Gauge({
      name: 'tt_pending_withdrawal_oldest_age_seconds',
      help: 'Age of the oldest withdrawal still pending or processing (0 when none)',
      registers,
      async collect() {
        this.set(ageOf((await s.oldestWaitingWithdrawal?.()) ?? null));
      },
    });
    new Gauge({
      name: 'tt_queue_size',
      help: 'Work waiting for an operator, by queue (kyc, support)',
      labelNames: ['queue'],
      registers,
      async collect() {
        this.set({ queue: 'kyc' }, (await s.kycQueue?.()) ?? 0);
        if (s.supportQueue) this.set({ queue: 'support' }, await s.supportQueue());
      },
    });
    // Both exposure gauges from one read per scrape (a scrape collects every metric at once).
    const exposure = this.perScrape(async () => (await s.exposure?.()) ?? []);
    new Gauge({
      name: 'tt_exposure_usd',
      help: "Worst-case house loss on each pair's open real orders, USD",
      labelNames: ['pair'],
      registers,
      async collect() {
        this.reset();
        for (const e of await exposure()) this.set({ pair: e.pair }, e.worstUsdMinor / 100);
      },
    });
    new Gauge({
      name: 'tt_exposure_limit_usd',
      help: 'Risk limit of each pair: the largest worst-case house loss allowed, USD',
      labelNames: ['pair'],
      registers,
      async collect() {
        this.reset();
        for (const e of await exposure()) this.set({ pair: e.pair }, e.limitUsdMinor / 100);
      },
    });
    const booksSum = () => this.booksSum();
    new Gauge({
      name: 'tt_books_sum_minor',
      help: 'Every account of a currency summed, minor units: anything but 0 means the books do not balance',
      labelNames: ['currency'],
      registers,
      async collect() {
        this.reset();
        for (const b of await booksSum()) this.set({ currency: b.currency }, b.sum);
      },
    });
    new Gauge({
      name: 'tt_last_backup_timestamp_seconds',
      help: 'Unix time of the newest backup this node took (0: none yet)',
      registers,
      collect() {
        this.set(seconds(s.lastBackupAt?.() ?? 0));
      },
    });
    new Gauge({
      name: 'tt_last_verified_restore_timestamp_seconds',
      help: 'Unix time of the newest restore whose checks all passed (0: none recorded)',
      registers,
      collect() {
        this.set(seconds(s.lastVerifiedRestoreAt?.() ?? 0));
      },
    });
    new Gauge({
      name: 'tt_cluster_role',
      help: "This node's role in the cluster (1 on the row of its role)",
      labelNames: ['node', 'role'],
      registers,
      collect() {
        this.reset();
        const c = s.cluster?.();
        if (c) for (const role of ['leader', 'follower']) this.set({ node: c.node, role }, c.role === role ? 1 : 0);
      },
    });
    new Gauge({
      name: 'tt_cluster_epoch',
      help: 'The feed leadership epoch this node knows',
      labelNames: ['node'],
      registers,
      collect() {
        this.reset();
        const c = s.cluster?.();
        if (c && c.epoch !== null) this.set({ node: c.node }, c.epoch);
      },
    });
  }

  /** `read` once per scrape, however many gauges ask for it. */
  private perScrape<T>(read: () => Promise<T>): () => Promise<T> {
    let memo: { scrape: number; value: Promise<T> } | null = null;
    return () => {
      if (!memo || memo.scrape !== this.scrapes) memo = { scrape: this.scrapes, value: read() };
      return memo.value;
    };
  }

  /** The books' sum per currency, read at most once per slowEveryMs (a scan of every balance). */
  private async booksSum(): Promise<Array<{ currency: string; sum: number }>> {
    if (!this.sources.booksSum) return [];
    if (!this.books || this.now() - this.books.at >= this.slowEveryMs) {
      this.books = { at: this.now(), rows: await this.sources.booksSum() };
    }
    return this.books.rows;
  }

  /** The text Prometheus scrapes, and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    this.scrapes += 1;
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  observeSettled(lagMs: number): void {
    this.settlementLag.observe(Math.max(0, seconds(lagMs)));
  }
}
