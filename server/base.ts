/**
 * The server's infrastructure, built once by app.ts before any service: configuration, secrets,
 * the database and its write transaction, the event dispatcher, the token signer, the clock,
 * socket.io, Redis and the readiness checks. It imports nothing from the areas
 * (server/domain/<area>/), so the composition root (composition.ts) can take it and hand each
 * area the narrow part it needs without a cycle.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Server as SocketServer } from 'socket.io';
import type { Config } from './config';
import type { Secrets } from './secrets';
import type { DB, RunTx } from './db';
import type { EventDispatcher } from './domain/events';
import type { AccessTokens } from './infra/tokens';
import type { RedisInfra } from './infra/redis';
import type { Readiness } from './http/readiness';

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
  tx: RunTx;
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
