/**
 * What every part of the server is handed. `ServerBase` is the infrastructure (configuration,
 * secrets, the database, the event dispatcher, the token signer, the clock); `AppContext` adds
 * the typed domain services that server/composition.ts builds, in dependency order, before any
 * route is registered. Nothing is looked up by name at run time.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Server as SocketServer } from 'socket.io';
import type { Config } from './config';
import type { Secrets } from './secrets';
import type { DB, Trx } from './db';
import type { EventDispatcher } from './domain/events';
import type { AccessTokens } from './domain/auth/tokens';
import type { Services } from './composition';
import type { RedisInfra } from './infra/redis';
import type { Readiness } from './http/readiness';

export type { Services } from './composition';

export interface ServerBase {
  config: Config;
  secrets: Secrets;
  db: DB;
  log: FastifyBaseLogger;
  events: EventDispatcher;
  tokens: AccessTokens;
  /** Milliseconds since the epoch; tests may replace it. */
  now: () => number;
  /** One write transaction; the event dispatcher is poked after it commits. */
  tx: <T>(fn: (trx: Trx) => Promise<T>) => Promise<T>;
  /** Base address a browser reaches this server at (for links in emails and checkout pages). */
  publicUrl: () => string;
  io: SocketServer | null;
  /** The node's Redis connections when REDIS_URL is set (server/infra/redis.ts); null: one node, all in process. */
  redis: RedisInfra | null;
  /** GET /api/ready's checks and the draining state (server/http/readiness.ts); parts add their checks. */
  readiness: Readiness;
  /** Resolves once every module's background jobs have started (after listen). */
  whenStarted: () => Promise<void>;
}

export interface AppContext extends ServerBase {
  /** Every domain service, built by server/composition.ts before routes are registered. */
  services: Services;
}

/**
 * An area of the server: its routes, socket handlers and background jobs. Modules create no
 * services (server/composition.ts does); they take what they use from `ctx.services`.
 */
export interface ServerModule {
  name: string;
  routes?(app: FastifyInstance, ctx: AppContext): Promise<void> | void;
  /** Register socket.io handlers (io.on('connection', ...)). */
  socket?(io: SocketServer, ctx: AppContext): void;
  /** Start background jobs once the server listens. */
  start?(ctx: AppContext): Promise<void> | void;
  stop?(ctx: AppContext): Promise<void> | void;
}
