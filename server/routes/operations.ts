/**
 * Operations (docs/operations.md): the Prometheus metrics and the scheduled backup.
 *
 *   GET /metrics   the Prometheus text format (infra/metrics.ts), only with METRICS_TOKEN set and
 *                  `Authorization: Bearer <METRICS_TOKEN>`; without the token configured the route
 *                  does not exist (404), with a wrong one 401. Or a separate private listener on
 *                  METRICS_HOST:METRICS_PORT (default host 127.0.0.1), started with the server.
 *
 * The scheduled backup's timer starts once the server listens and stops (waiting for a backup
 * in progress) when it closes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerModule } from '../context';
import type { AppContext } from '../context';
import { ErrorText, fail } from '../../contract/envelope';
import { constantTimeEqual } from '../infra/crypto';

/** Each server's private metrics listener (tests run several servers in one process). */
const listeners = new WeakMap<AppContext, http.Server>();

export const operationsModule: ServerModule = {
  name: 'operations',

  routes(app, ctx) {
    const token = ctx.config.metricsToken;
    if (!token) return;
    app.get('/metrics', async (req, reply) => {
      const header = req.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!constantTimeEqual(given, token)) return reply.code(401).header('www-authenticate', 'Bearer').send(fail(ErrorText.unauthorized));
      const { contentType, body } = await ctx.services.metrics.scrape();
      return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
    });
  },

  async start(ctx) {
    ctx.services.backups?.start();
    const port = ctx.config.metricsPort;
    if (port === undefined) return;
    const listener = http.createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      ctx.services.metrics.scrape().then(
        ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body),
        (err: unknown) => {
          ctx.log.error({ err }, 'metrics scrape failed');
          res.writeHead(500, { 'content-type': 'text/plain' }).end('scrape failed\n');
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(port, ctx.config.metricsHost, () => resolve());
    });
    listeners.set(ctx, listener);
    ctx.log.info({ port: (listener.address() as AddressInfo).port }, 'metrics listener started');
  },

  async stop(ctx) {
    await ctx.services.backups?.stop();
    const l = listeners.get(ctx);
    listeners.delete(ctx);
    if (l) await new Promise<void>((resolve) => l.close(() => resolve()));
  },
};
