/**
 * Starts the server: reads the configuration, builds the app, listens on one port (SPA, REST
 * API and socket.io), prints the address and the demo login, and shuts down cleanly on
 * SIGINT/SIGTERM: not ready at once (draining), then app.close() (server/app.ts: sockets told
 * to go, requests in flight finished, jobs stopped, buffers flushed, Redis and the database
 * closed) and exit 0; if that takes longer than SHUTDOWN_GRACE_MS the process exits 1.
 */
import { loadConfig, type Config } from './config';
import { buildApp } from './app';
import { marketBannerLine } from './domain/market/feeds/select';
import { paymentsBannerLine, paymentsStartProblem } from './domain/payments/mode';

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
  const paymentsProblem = paymentsStartProblem(config);
  if (paymentsProblem) {
    console.error(paymentsProblem);
    process.exit(1);
  }
  const { app, ctx } = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });
  await ctx.whenStarted();
  const url = ctx.publicUrl();
  const { demoLogin } = ctx.services;
  const banner = [
    '',
    `  TradeTerminal is running at ${url}`,
    ...(demoLogin ? [`  Demo login: ${demoLogin.username} / ${demoLogin.password}`] : []),
    `  Data directory: ${config.dataDir}`,
    marketBannerLine(config),
    paymentsBannerLine(config.paymentsMode, config.oxapayApiUrl),
    '',
  ];
  console.log(banner.join('\n'));

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    ctx.readiness.drain();
    console.log(`  ${signal}: draining (node ${config.nodeId}, grace ${config.shutdownGraceMs} ms)`);
    app.log.info({ signal }, 'shutting down');
    const overdue = setTimeout(() => {
      console.error(`  Shutdown took longer than SHUTDOWN_GRACE_MS (${config.shutdownGraceMs} ms); exiting anyway`);
      process.exit(1);
    }, config.shutdownGraceMs);
    overdue.unref();
    try {
      await app.close();
      console.log('  Stopped cleanly');
      process.exit(0);
    } catch (err) {
      console.error(err);
      process.exit(1);
    }
  };
  // A promise nobody awaited (a listener, a timer) must not take the whole server down: log it.
  // Request and socket handlers answer their own failures; this is the last line.
  process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled rejection'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
