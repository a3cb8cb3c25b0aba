/**
 * What every part of the server is handed: configuration, secrets, the database, the event
 * dispatcher, the token signer, the clock and the services the area modules create.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Server as SocketServer } from 'socket.io';
import type { Config } from './config';
import type { Secrets } from './secrets';
import type { DB, Trx } from './db';
import type { EventDispatcher } from './domain/events';
import type { AccessClaims, AccessTokens } from './domain/auth/tokens';

/** Services the area modules put on the context in their `init`; each optional until its module runs. */
export interface Services {
  [name: string]: unknown;
}

export interface AppContext {
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
  /** Whether the session an access token belongs to is still alive (set by the auth module). */
  isSessionActive: (claims: AccessClaims) => Promise<boolean>;
  /** Base address a browser reaches this server at (for links in emails and checkout pages). */
  publicUrl: () => string;
  io: SocketServer | null;
  services: Services;
  /** Resolves once every module's background jobs have started (after listen). */
  whenStarted: () => Promise<void>;
}

/** An area of the server: its services, routes, socket handlers and background jobs. */
export interface ServerModule {
  name: string;
  /** Create services and seed data; runs before routes are registered. */
  init?(ctx: AppContext): Promise<void> | void;
  routes?(app: FastifyInstance, ctx: AppContext): Promise<void> | void;
  /** Register socket.io handlers (io.on('connection', ...)). */
  socket?(io: SocketServer, ctx: AppContext): void;
  /** Start background jobs once the server listens. */
  start?(ctx: AppContext): Promise<void> | void;
  stop?(ctx: AppContext): Promise<void> | void;
}
