/**
 * The market area: starts and stops the market service's feed (ctx.services.market), serves the
 * public pair list and candle history over REST, and runs the live socket events:
 *   on connect    -> init_pairs {pairs}, pairs_rates {rates}
 *   every second  -> pairs_rates to everyone (written with each socket's next tick, http/tick-broadcast.ts)
 *   pair_status   -> {pair_code, quotes: live|delayed} to everyone when a pair's quotes go stale or resume
 *   pairs         -> {pairs} (init_pairs' shape) to everyone when an operator enables or disables a pair
 *   select_pair   -> leaves the previous pair's rooms, answers init_candles, then joins
 *                    `pair:<code>` (price_update on every tick) and `pair:<code>:<tf>`
 *                    (new_price: the live candle of that timeframe on every tick)
 * A socket only ever gets ticks and candles of the pair it selected (plus the rates map).
 */
import * as v from 'valibot';
import type { Server as SocketServer, Socket } from 'socket.io';
import type { AppContext, ServerModule } from '../context';
import { ok, ErrorText } from '../../contract/envelope';
import { CandlesQuerySchema, MarketErrorText, type PairStatus, type Rate } from '../../contract/market';
import { batchWithTicks } from '../domain/market/tick-chain';
import { SelectPairSchema, type NewPrice, type PairsChanged, type PairsRates, type PriceUpdate, type SocketError } from '../../contract/socket';
import { TIMEFRAMES, type Timeframe } from '../../contract/user';
import { IdParamSchema, parseInput } from '../http/validate';
import { notFound } from '../domain/errors';
import type { Market } from '../domain/market/service';
import { MAX_CANDLES } from '../domain/market/candles';
import { InitCandlesPackets } from '../http/init-candles-packets';
import { broadcastTick, TickPiggyback, type TickRoomMessage } from '../http/tick-broadcast';
import { SharedPackets } from '../http/shared-packets';

export const RATES_INTERVAL_MS = 1000;
/**
 * pairs_rates rides on a socket's next tick write (http/tick-broadcast.ts TickPiggyback); a socket
 * with no tick within this long gets it on its own.
 */
export const RATES_GRACE_MS = 120;

export const priceRoom = (pairCode: string) => `pair:${pairCode}`;
export const candleRoom = (pairCode: string, timeframe: Timeframe) => `pair:${pairCode}:${timeframe}`;

interface MarketSocketState {
  pair: string | null;
  timeframe: Timeframe | null;
  /** Bumped by every accepted select_pair, so a slow answer to an older one is dropped. */
  selection: number;
}

function marketState(socket: Socket): MarketSocketState {
  const data = socket.data as { market?: MarketSocketState };
  return (data.market ??= { pair: null, timeframe: null, selection: 0 });
}

function sendError(socket: Socket, event: string, message: string): void {
  const payload: SocketError = { event, message };
  socket.emit('error_message', payload);
}

/** A select_pair payload checked against the contract and the pairs, or null after telling the client. */
function validSelection(m: Market, socket: Socket, raw: unknown): { pair_code: string; timeframe: Timeframe } | null {
  const parsed = v.safeParse(SelectPairSchema, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    sendError(socket, 'select_pair', issue.path?.length ? issue.message : ErrorText.invalidPayload);
    return null;
  }
  const { pair_code, timeframe } = parsed.output;
  const pair = m.getPair(pair_code);
  const problem = !pair || pair.is_active === false ? ErrorText.pairNotFound : !pair.timeframes.includes(timeframe) ? 'Unknown timeframe' : null;
  if (problem) {
    sendError(socket, 'select_pair', problem);
    return null;
  }
  return { pair_code, timeframe };
}

async function selectPair(
  ctx: AppContext,
  m: Market,
  answers: InitCandlesPackets,
  socket: Socket,
  selected: { pair_code: string; timeframe: Timeframe },
): Promise<void> {
  const { pair_code, timeframe } = selected;
  const state = marketState(socket);
  const selection = ++state.selection;
  // Leave at once: no event of the previous pair reaches the socket after it asked to switch.
  if (state.pair) {
    void socket.leave(priceRoom(state.pair));
    if (state.timeframe) void socket.leave(candleRoom(state.pair, state.timeframe));
  }
  state.pair = pair_code;
  state.timeframe = timeframe;

  // The history in memory is answered from its shared encoding (init-candles-packets.ts) with no
  // copy; otherwise it is read first (a pair's first selection, or a history dropped by retention).
  const candles = answers.held(socket, pair_code, timeframe) ? [] : await m.candles(pair_code, timeframe, MAX_CANDLES);
  if (state.selection !== selection || !socket.connected) return;
  // Join and answer in one synchronous step: the history already holds every tick so far, and
  // each later tick arrives as new_price after init_candles.
  void socket.join(priceRoom(pair_code));
  void socket.join(candleRoom(pair_code, timeframe));
  // Encoded once per history version and shared by every socket asking meanwhile.
  answers.send(socket, pair_code, timeframe, candles);
  ctx.log.debug({ socket: socket.id, pair_code, timeframe }, 'pair selected');
}

/**
 * The rates map sent on connect, with a version that changes when a rate does: every connect
 * encoded the ~2 KB map anew for its socket; now sockets connecting between two ticks share one
 * encoding (http/shared-packets.ts). Comparing the ~60 rates costs far less than encoding them.
 */
class RatesVersion {
  private last: Rate[] = [];
  private n = 0;

  constructor(private readonly m: Market) {}

  version(): string {
    const now = this.m.rates();
    const same = now.length === this.last.length && now.every((r, i) => r.pair_code === this.last[i].pair_code && r.current_price === this.last[i].current_price);
    if (!same) {
      this.last = now;
      this.n++;
    }
    return `rates:${this.n}`;
  }

  /** The rates `version()` last named. */
  payload(): PairsRates {
    return { rates: this.last };
  }
}

const rateTimers = new WeakMap<AppContext, NodeJS.Timeout>();
const ratesSenders = new WeakMap<AppContext, TickPiggyback>();

export const marketModule: ServerModule = {
  name: 'market',

  routes(app, ctx) {
    const m = ctx.services.market;
    app.get('/api/v2/pairs', async () => ok({ pairs: m.listPairs() }));

    // A sealed batch of the tick log, so anyone can recompute a receipt's hashes (docs/market.md).
    app.get('/api/v2/ticks/batches/:id', async (request) => {
      const { id } = parseInput(IdParamSchema, request.params);
      const batch = await batchWithTicks(ctx.db, id);
      if (!batch) throw notFound(MarketErrorText.batchNotFound);
      return ok(batch);
    });

    app.get('/api/v2/candles', async (request) => {
      const query = parseInput(CandlesQuerySchema, request.query);
      if (!m.getPair(query.pair_code)) throw notFound(ErrorText.pairNotFound);
      return ok({ candles: await m.candles(query.pair_code, query.timeframe, query.limit) });
    });
  },

  socket(io: SocketServer, ctx) {
    const m = ctx.services.market;
    const answers = new InitCandlesPackets(io, m);
    const shared = new SharedPackets(io);
    const rates = new TickPiggyback(io, RATES_GRACE_MS);
    ratesSenders.set(ctx, rates);
    const connectRates = new RatesVersion(m);

    io.on('connection', (socket) => {
      marketState(socket);
      // Encoded once while the pairs (and their quote states) stay the same.
      shared.send(socket, 'init_pairs', m.pairsVersion(), () => ({ pairs: m.listPairs() }));
      // The rates as they are now, encoded once while they stay the same (a tick changes them).
      shared.send(socket, 'pairs_rates', connectRates.version(), () => connectRates.payload());
      // At most one select_pair runs per socket; a newer one replaces any still waiting (only the
      // latest choice matters), and nothing runs for a socket that has gone.
      type Selection = { pair_code: string; timeframe: Timeframe };
      let running = false;
      let waiting: Selection | null = null;
      const run = (selected: Selection) => {
        running = true;
        selectPair(ctx, m, answers, socket, selected)
          .catch((err) => {
            ctx.log.error({ err }, 'select_pair failed');
            sendError(socket, 'select_pair', ErrorText.requestFailed);
          })
          .finally(() => {
            running = false;
            const next = waiting;
            waiting = null;
            if (next && socket.connected) run(next);
          });
      };
      socket.on('select_pair', (raw: unknown) => {
        const selected = validSelection(m, socket, raw);
        if (!selected) return;
        if (!running) return run(selected);
        // The running one's answer is dropped (its selection is no longer the latest).
        marketState(socket).selection++;
        waiting = selected;
      });
      socket.once('disconnect', () => {
        waiting = null;
      });
    });

    // An operator enabled or disabled a pair (admin pairs, pair-admin.ts; from the CLI process the
    // event arrives on the dispatcher's poll): the cached pair follows and every socket gets the
    // list again, in init_pairs' shape.
    ctx.events.on('pairs.changed', (event) => {
      m.setActive(event.payload.pair_code, event.payload.is_active);
      const payload: PairsChanged = { pairs: m.listPairs() };
      // Every node hears the event and updates its own cache: each tells its own sockets.
      io.local.emit('pairs', payload);
    });

    // Stale quotes (quote-watch.ts): every socket hears when a pair's quotes become delayed or live.
    m.quotes?.onChange((pair_code, quotes) => {
      const status: PairStatus = { pair_code, quotes };
      // Each node watches its own quotes (every node gets every tick): its own sockets only.
      io.local.emit('pair_status', status);
    });

    m.onTick((tick) => {
      const rooms = io.sockets.adapter.rooms;
      const pr = priceRoom(tick.pair_code);
      const update: PriceUpdate = { pair_code: tick.pair_code, price: tick.price, time: tick.time };
      const candles: TickRoomMessage[] = [];
      for (const tf of TIMEFRAMES) {
        const room = candleRoom(tick.pair_code, tf);
        if (!rooms.has(room)) continue;
        const c = m.liveCandle(tick.pair_code, tf);
        if (!c) continue;
        const candle: NewPrice = { pair_code: c.pair_code, open: c.open, high: c.high, low: c.low, close: c.close, time: c.timestamp, timeframe: tf };
        candles.push({ room, event: 'new_price', payload: candle });
      }
      // price_update then new_price, encoded once per tick and written to a socket in one go.
      broadcastTick(io, rooms.has(pr) ? { room: pr, event: 'price_update', payload: update } : null, candles, rates);
    });
  },

  async start(ctx) {
    const m = ctx.services.market;
    m.start();
    // Feed leadership and the tick bus (docs/cluster.md; null on SQLite). A node alone on its
    // database leads once this resolves (tests push prices right after the server started).
    const cluster = ctx.services.cluster;
    if (cluster) {
      await cluster.start();
      ctx.readiness.onDrain(() => void cluster.drain());
    }
    const io = ctx.io;
    if (io) {
      // Every socket of this node, each on its next tick's write (or on its own shortly after).
      const rates = ratesSenders.get(ctx);
      const timer = setInterval(() => {
        const payload: PairsRates = { rates: m.rates() };
        if (rates) rates.send('pairs_rates', payload);
        else io.local.emit('pairs_rates', payload);
      }, RATES_INTERVAL_MS);
      timer.unref();
      rateTimers.set(ctx, timer);
    }
  },

  async stop(ctx) {
    const timer = rateTimers.get(ctx);
    if (timer) clearInterval(timer);
    rateTimers.delete(ctx);
    ratesSenders.get(ctx)?.stop();
    await ctx.services.cluster?.stop();
    await ctx.services.market.stop();
  },
};
