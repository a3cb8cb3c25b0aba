/**
 * What the HTTP side of the server is handed: `AppContext` is the infrastructure (`ServerBase`,
 * server/base.ts) plus the typed domain services that server/composition.ts builds, in
 * dependency order, before any route is registered. Nothing is looked up by name at run time.
 * Domain code never takes either: each area declares the narrow deps it needs.
 */
import type { FastifyInstance } from 'fastify';
import type { Server as SocketServer } from 'socket.io';
import type { ServerBase } from './base';
import type { Services } from './composition';

export type { Services } from './composition';

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
