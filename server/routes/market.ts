/**
 * The market area: starts and stops the market service's feed (ctx.services.market) and the
 * cluster node, serves the public pair list, candle history and sealed tick-log batches over
 * REST, and registers the live socket events (http/market-socket.ts: init_pairs, pairs_rates,
 * pair_status, pairs, select_pair with init_candles, price_update and new_price).
 *
 * A factory: each app gets its own socket side (its rates push runs between start and stop).
 */
import type { ServerModule } from '../context';
import { ok } from '../../contract/envelope';
import { CandlesQuerySchema } from '../../contract/market';
import { IdParamSchema, parseInput } from '../http/validate';
import { MarketSockets } from '../http/market-socket';

export function marketModule(): ServerModule {
  let sockets: MarketSockets | null = null;
  return {
    name: 'market',

    routes(app, ctx) {
      const m = ctx.services.market;
      app.get('/api/v2/pairs', async () => ok({ pairs: m.listPairs() }));

      // A sealed batch of the tick log, so anyone can recompute a receipt's hashes (docs/market.md).
      app.get('/api/v2/ticks/batches/:id', async (request) => {
        const { id } = parseInput(IdParamSchema, request.params);
        return ok(await m.tickBatch(id));
      });

      app.get('/api/v2/candles', async (request) => {
        const query = parseInput(CandlesQuerySchema, request.query);
        return ok({ candles: await m.candleHistory(query.pair_code, query.timeframe, query.limit) });
      });
    },

    socket(io, ctx) {
      sockets = new MarketSockets(io, ctx.services.market, ctx.events, ctx.log);
    },

    async start(ctx) {
      ctx.services.market.start();
      // Feed leadership and the tick bus (docs/cluster.md; null on SQLite). A node alone on its
      // database leads once this resolves (tests push prices right after the server started).
      const cluster = ctx.services.cluster;
      if (cluster) {
        await cluster.start();
        ctx.readiness.onDrain(() => void cluster.drain());
      }
      // pairs_rates to every socket of this node, every second.
      sockets?.start();
    },

    async stop(ctx) {
      sockets?.stop();
      await ctx.services.cluster?.stop();
      await ctx.services.market.stop();
    },
  };
}
