/**
 * Whether this node should get traffic (GET /api/ready) and its shutdown state.
 *
 * A registry of named checks: each answers null when its part is fine, or a short text saying
 * what is wrong. The app adds `database`, `redis` (when REDIS_URL is set) and `feed`; other
 * parts add theirs the same way (`ctx.readiness.add('feed-leader', check)`). Every check runs
 * with a time limit, so a hung dependency makes the node not ready instead of hanging the probe.
 *
 * `drain()` (SIGTERM, server/main.ts) makes the node not ready at once ('draining') and tells
 * whoever registered with `onDrain` to stop taking new work (new sockets are refused, background
 * jobs stop claiming); the rest of the shutdown is Fastify's close (server/app.ts).
 */
import type { FastifyInstance } from 'fastify';
import { ErrorText, fail, type FieldError } from '../../contract/envelope';

/** The answer to requests and sockets that arrive while the node shuts down. */
export const DRAINING_TEXT = ErrorText.serverShuttingDown;

/** null: fine; a string: what is wrong. */
export type ReadinessCheck = () => Promise<string | null> | string | null;

/** Time limit of one check. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

export interface ReadinessReport {
  ready: boolean;
  /** 'ok' or what is wrong, per check. */
  checks: Record<string, string>;
  /** The failing checks, in the envelope's `details` form. */
  problems: FieldError[];
}

export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();
  private readonly drainListeners = new Set<() => void>();
  private drainingSince: number | null = null;

  constructor(private readonly timeoutMs = READINESS_CHECK_TIMEOUT_MS) {}

  /** Add (or replace) a named check. */
  add(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  /** Not ready from now on; every drain listener runs once (a throwing one does not stop the others). */
  drain(): void {
    if (this.drainingSince !== null) return;
    this.drainingSince = Date.now();
    for (const listener of this.drainListeners) {
      try {
        listener();
      } catch {
        // A listener's failure must not keep the node from shutting down.
      }
    }
  }

  /** Run `listener` when the node starts draining (at once if it already is). */
  onDrain(listener: () => void): () => void {
    if (this.draining) listener();
    else this.drainListeners.add(listener);
    return () => this.drainListeners.delete(listener);
  }

  async report(): Promise<ReadinessReport> {
    const names = [...this.checks.keys()];
    const results = await Promise.all(names.map((name) => this.run(this.checks.get(name)!)));
    const checks: Record<string, string> = {};
    const problems: FieldError[] = [];
    if (this.draining) problems.push({ field: 'node', message: 'draining' });
    names.forEach((name, i) => {
      const problem = results[i];
      checks[name] = problem ?? 'ok';
      if (problem) problems.push({ field: name, message: problem });
    });
    return { ready: problems.length === 0, checks, problems };
  }

  private async run(check: ReadinessCheck): Promise<string | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`no answer within ${this.timeoutMs} ms`), this.timeoutMs);
    });
    try {
      return await Promise.race([Promise.resolve().then(check), timeout]);
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** What the feed check needs of the market service. */
export interface FeedState {
  listPairs(): Array<{ pair_code: string; is_active?: boolean | null }>;
  latestTick(pairCode: string): { time: number } | undefined;
  staleLimitMs(pairCode: string): number;
}

/**
 * The price feed is reachable when at least one active pair has a tick within its stale-quote
 * limit (STALE_QUOTE_MS): a node that just started, or whose feed is cut off, is not ready.
 */
export function feedCheck(market: FeedState, now: number): string | null {
  const active = market.listPairs().filter((p) => p.is_active !== false);
  if (active.length === 0) return 'no active pairs';
  for (const p of active) {
    const t = market.latestTick(p.pair_code);
    if (t && now - t.time <= market.staleLimitMs(p.pair_code)) return null;
  }
  return 'no fresh tick on any active pair';
}

/**
 * While draining, a request that still arrives on an open connection is refused in the envelope
 * (503, DRAINING_TEXT) and every answer asks to close the connection; /api/health and
 * /api/ready answer as usual.
 */
export function registerDrainHooks(app: FastifyInstance, readiness: Readiness): void {
  // Callback-style: these run on every request (an async hook costs a promise and its ticks).
  app.addHook('onRequest', (req, reply, done) => {
    if (!readiness.draining) return done();
    const url = req.url.split('?')[0];
    if (url === '/api/health' || url === '/api/ready') return done();
    reply.status(503).header('connection', 'close').send(fail(DRAINING_TEXT));
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (readiness.draining) reply.header('connection', 'close');
    done(null, payload);
  });
}
