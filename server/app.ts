/**
 * Builds the server without listening: Fastify with its plugins, the envelope error handler,
 * the domain services (server/composition.ts), every area module's routes, socket.io on the
 * same HTTP server (websocket transport only), the event dispatcher and the built SPA with a
 * history fallback. `main.ts` listens; tests build one on an ephemeral port with a temp
 * DATA_DIR.
 *
 * With REDIS_URL (server/infra/redis.ts) socket.io uses the sharded Redis adapter, the HTTP rate
 * limits count in Redis and the per-IP socket cap counts across nodes. Shutdown (SIGTERM,
 * main.ts): `ctx.readiness.drain()` makes the node not ready and refuses new requests and
 * sockets; `app.close()` then disconnects this node's sockets (preClose), stops listening and
 * lets requests in flight finish, and finally (onClose) stops the modules' jobs, flushes the
 * market's buffered ticks, and closes socket.io, Redis and the database.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { Server as SocketServer } from 'socket.io';
import type { Config } from './config';
import { loadSecrets } from './secrets';
import { openDatabase, transaction } from './db';
import { EventDispatcher } from './domain/events';
import { AccessTokens } from './infra/tokens';
import type { AppContext, ServerModule } from './context';
import type { ServerBase } from './base';
import { buildServices } from './composition';
import { failureOf } from './http/errors';
import { RateLimited } from './domain/errors';
import { registerSecurityHeaders } from './http/security-headers';
import { installSocketGuard, type SocketCounter } from './http/socket-guard';
import { DRAINING_TEXT, Readiness, feedCheck, registerDrainHooks } from './http/readiness';
import { openRedis, KEY_PREFIX, type RedisInfra } from './infra/redis';
import { RedisSocketCounter } from './infra/socket-counts';
import { sql } from 'kysely';
import { connectSources, hardenedServerOptions, registerHardening } from './http/hardening';
import { spaPages } from './http/spa-pages';
import { fail, ErrorText } from '../contract/envelope';
import type { PriceFeed } from './domain/market/types';
import { defaultModules } from './modules';

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
}

export interface BuildOptions {
  modules?: ServerModule[];
  now?: () => number;
  /** A price feed to use instead of the embedded simulator (tests drive prices with one). */
  marketFeed?: PriceFeed;
  /** Cluster feed leadership poll (ms; docs/cluster.md); tests poll faster than the default. */
  clusterPollMs?: number;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    // Behind a load balancer: req.ip is the client's, from the balancer's X-Forwarded-For (TRUST_PROXY).
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Requests that arrive while the node drains are answered by the drain hook below, in the
    // envelope (Fastify's own closing answer is not), and /api/ready still says why.
    return503OnClosing: false,
    // Over-long request lines and headers, bad URLs: the envelope, not a reset (http/hardening.ts).
    ...hardenedServerOptions,
  });
  // SQLite: WAL checkpoints from a worker thread, never inside a request's commit (db/checkpointer.ts).
  const db = await openDatabase({
    ...config,
    backgroundCheckpoints: true,
    // A checkpoint that fails leaves the WAL growing (the backstop takes over at 50,000 pages): say so.
    onCheckpointError: (message) => app.log.warn({ err: message }, 'background WAL checkpoint failed'),
  });
  // On PostgreSQL the generated secrets live in the database, shared by every node (secrets.ts).
  const secrets = await loadSecrets(config, db).catch(async (err: unknown) => {
    await db.destroy();
    throw err;
  });
  // An unreachable REDIS_URL stops the start (infra/redis.ts says which and why).
  const redis: RedisInfra | null = config.redisUrl
    ? await openRedis(config.redisUrl, { nodeId: config.nodeId, log: app.log }).catch(async (err: unknown) => {
        await db.destroy();
        throw err;
      })
    : null;
  const readiness = new Readiness();
  // On PostgreSQL several nodes share the outbox: each event is claimed once (events.ts).
  const events = new EventDispatcher(db, 250, (err) => app.log.error({ err }, 'event delivery failed'), { claim: config.databaseUrl !== undefined, now: options.now });
  const now = options.now ?? (() => Date.now());
  let markStarted: () => void = () => undefined;
  let markFailed: (err: unknown) => void = () => undefined;
  const started = new Promise<void>((resolve, reject) => {
    markStarted = resolve;
    markFailed = reject;
  });
  started.catch(() => undefined);

  const base: ServerBase = {
    config,
    secrets,
    db,
    log: app.log,
    events,
    tokens: new AccessTokens(secrets.jwtSecret, config.accessTokenTtl),
    now,
    tx: async (fn) => {
      const result = await transaction(db, fn);
      void events.poke();
      return result;
    },
    publicUrl: () => config.publicUrl ?? `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${listeningPort(app, config)}`,
    io: null,
    redis,
    readiness,
    whenStarted: () => started,
  };
  // The composition root: every domain service, typed, before any route exists.
  const ctx: AppContext = Object.assign(base, { services: await buildServices(base, { marketFeed: options.marketFeed, clusterPollMs: options.clusterPollMs }) });

  app.decorateRequest('auth', null);
  app.decorateRequest('pendingSession', null);
  app.decorateRequest('operator', null);
  // Which node answered (behind a balancer): operators read it in logs, the cluster test proves
  // with it that a push crossed nodes (docs/deploy.md).
  // Hooks on every request are callback-style: an async hook costs a promise and its ticks each time.
  app.addHook('onRequest', (_req, reply, done) => {
    reply.header('x-node-id', config.nodeId);
    done();
  });

  readiness.add('database', async () => {
    await sql`select 1`.execute(db);
    return null;
  });
  if (redis) {
    readiness.add('redis', async () => {
      await redis.ping();
      return null;
    });
  }
  // In a cluster the node's feed role is checked first (docs/cluster.md, cluster/node.ts).
  readiness.add('feed', () => ctx.services.cluster?.feedProblem() ?? feedCheck(ctx.services.market, ctx.now()));

  registerDrainHooks(app, readiness);

  // The built SPA's pages (index.html, the prerendered auth.html) and their inline boot script.
  const pages = spaPages(config.distDir);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...pages.scriptHashes],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: connectSources(config.publicUrl),
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: config.env === 'production',
  });

  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new RateLimited(ErrorText.tooManyRequests),
    // Across nodes: the counters in Redis. While Redis does not answer the limits are skipped
    // (fail open, logged by the connection watcher) rather than failing every request.
    ...(redis ? { redis: redis.commands, nameSpace: `${KEY_PREFIX}rl:`, skipOnError: true } : {}),
  });
  registerHardening(app);

  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const failure = failureOf(error);
    if (failure) return reply.status(failure.status).send(failure.body);
    const status = (error as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply.status(status).send(fail(clientErrorText(error as FastifyError, status)));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(fail(ErrorText.internal));
  });

  const modules = options.modules ?? defaultModules();
  for (const m of modules) {
    if (m.routes) await app.register(async (scope) => m.routes!(scope, ctx), { prefix: '' });
  }

  // Static files: the built SPA when it exists, and public/ (logos, payment-method images) always.
  const distDir = config.distDir;
  const hasDist = fs.existsSync(path.join(distDir, 'index.html'));
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      // dist/ holds .br and .gz copies written at build time (scripts/vite-precompress.ts).
      preCompressed: true,
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  } else {
    await app.register(fastifyStatic, { root: path.resolve('public'), wildcard: false, index: false });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    const isApi = url.startsWith('/api/') || url.startsWith('/socket.io');
    if (request.method === 'GET' && !isApi && hasDist && !path.extname(url)) {
      return reply.header('cache-control', 'no-cache').sendFile(pages.pageFor(request.url), distDir);
    }
    return reply.status(404).send(fail(ErrorText.notFound));
  });

  const io = new SocketServer(app.server, {
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: 64 * 1024,
    pingInterval: 25_000,
    pingTimeout: 20_000,
    // Several nodes: io.to(room).emit reaches the room's sockets on every node (infra/redis.ts).
    ...(redis ? { adapter: redis.socketAdapter() } : {}),
  });
  ctx.io = io;
  // The node's id on the websocket upgrade answer too (engine.io's headers event).
  io.engine.on('headers', (headers: Record<string, string>) => {
    headers['x-node-id'] = config.nodeId;
  });
  // A draining node takes no new sockets (the client reconnects, through the balancer, elsewhere).
  io.use((_socket, next) => (readiness.draining ? next(new Error(DRAINING_TEXT)) : next()));
  let socketCounter: RedisSocketCounter | null = null;
  if (redis && config.rateLimit) {
    socketCounter = new RedisSocketCounter(redis.commands, config.nodeId, config.socketCountTtlMs, app.log);
    await socketCounter.start();
  }
  const counter: SocketCounter | undefined = socketCounter ?? undefined;
  // Abuse limits first, so no area's handler ever sees a refused socket or a dropped event.
  installSocketGuard(io, {
    enabled: config.rateLimit,
    socketsPerIp: config.socketsPerIp,
    eventsPerSecond: config.socketEventsPerSecond,
    burst: config.socketEventBurst,
    counter,
    trustedProxies: config.trustProxy,
    onAbuse: (info) => app.log.warn(info, 'socket limit hit'),
  });
  for (const m of modules) m.socket?.(io, ctx);

  // Fastify resolves listen() before onListen hooks finish: callers that need the background
  // jobs running (tests, the banner) await ctx.whenStarted().
  app.addHook('onListen', async () => {
    try {
      await events.start();
      for (const m of modules) await m.start?.(ctx);
      markStarted();
    } catch (err) {
      markFailed(err);
      throw err;
    }
  });
  // Before the listener closes: draining (if main.ts did not say so already), and this node's
  // sockets are told to go (a disconnect packet; the client's socket machine reconnects, through
  // the balancer, to another node). io.local: only this node's sockets, not the cluster's.
  app.addHook('preClose', async () => {
    readiness.drain();
    io.local.disconnectSockets(true);
  });
  // After the requests in flight finished (Fastify closes the listener and waits for them first).
  app.addHook('onClose', async () => {
    for (const m of [...modules].reverse()) await m.stop?.(ctx);
    await new Promise<void>((resolve) => io.close(() => resolve()));
    await events.stop();
    await socketCounter?.stop();
    await redis?.close();
    await db.destroy();
  });

  await app.ready();
  return { app, ctx };
}

function listeningPort(app: FastifyInstance, config: Config): number {
  const addr = app.server.address();
  if (addr && typeof addr === 'object') return addr.port;
  return config.port;
}

function clientErrorText(error: FastifyError, status: number): string {
  const code = error.code ?? '';
  if (status === 413 || code === 'FST_ERR_CTP_BODY_TOO_LARGE') return ErrorText.payloadTooLarge;
  if (status === 415 || code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return ErrorText.unsupportedMediaType;
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'Request body must be a JSON object';
  if (error instanceof SyntaxError || /JSON/i.test(code) || /JSON/.test(error.message)) return ErrorText.malformedJson;
  if (status === 404) return ErrorText.notFound;
  if (status === 429) return ErrorText.tooManyRequests;
  return error.message || ErrorText.requestFailed;
}
