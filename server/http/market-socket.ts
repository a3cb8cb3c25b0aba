/**
 * The market's live socket events (registered by routes/market.ts, one instance per app):
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
import type { FastifyBaseLogger } from 'fastify';
import type { Server as SocketServer, Socket } from 'socket.io';
import { ErrorText } from '../../contract/envelope';
import type { PairStatus, Rate } from '../../contract/market';
import { SelectPairSchema, type NewPrice, type PairsChanged, type PairsRates, type PriceUpdate, type SocketError } from '../../contract/socket';
import { TIMEFRAMES, type Timeframe } from '../../contract/user';
import type { EventDispatcher } from '../domain/events';
import type { Market } from '../domain/market/service';
import { MAX_CANDLES } from '../domain/market/candles';
import { InitCandlesPackets } from './init-candles-packets';
import { broadcastTick, TickPiggyback, type TickRoomMessage } from './tick-broadcast';
import { SharedPackets } from './shared-packets';

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

type Selection = { pair_code: string; timeframe: Timeframe };

function marketState(socket: Socket): MarketSocketState {
  const data = socket.data as { market?: MarketSocketState };
  return (data.market ??= { pair: null, timeframe: null, selection: 0 });
}

function sendError(socket: Socket, event: string, message: string): void {
  const payload: SocketError = { event, message };
  socket.emit('error_message', payload);
}

/** A select_pair payload checked against the contract and the pairs, or null after telling the client. */
function validSelection(m: Market, socket: Socket, raw: unknown): Selection | null {
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
    const same =
      now.length === this.last.length &&
      now.every((r, i) => {
        const l = this.last[i];
        return r.pair_code === l.pair_code && r.current_price === l.current_price && r.price_24h === l.price_24h && r.price_24h_time === l.price_24h_time;
      });
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

/** The market's socket side of one app: its handlers from construction on, the rates push between start() and stop(). */
export class MarketSockets {
  private readonly answers: InitCandlesPackets;
  private readonly shared: SharedPackets;
  private readonly rates: TickPiggyback;
  private readonly connectRates: RatesVersion;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    io: SocketServer,
    private readonly m: Market,
    events: EventDispatcher,
    private readonly log: FastifyBaseLogger,
  ) {
    this.answers = new InitCandlesPackets(io, m);
    this.shared = new SharedPackets(io);
    const rates = (this.rates = new TickPiggyback(io, RATES_GRACE_MS));
    this.connectRates = new RatesVersion(m);

    io.on('connection', (socket) => this.connected(socket));

    // An operator enabled or disabled a pair (admin pairs, pair-admin.ts; from the CLI process the
    // event arrives on the dispatcher's poll): the cached pair follows and every socket gets the
    // list again, in init_pairs' shape.
    events.on('pairs.changed', (event) => {
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
  }

  /** pairs_rates to every socket of this node every second, each on its next tick's write (or on its own shortly after). */
  start(): void {
    const timer = setInterval(() => {
      const payload: PairsRates = { rates: this.m.rates() };
      this.rates.send('pairs_rates', payload);
    }, RATES_INTERVAL_MS);
    timer.unref();
    this.timer = timer;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.rates.stop();
  }

  private connected(socket: Socket): void {
    const { m, shared, connectRates } = this;
    marketState(socket);
    // Encoded once while the pairs (and their quote states) stay the same.
    shared.send(socket, 'init_pairs', m.pairsVersion(), () => ({ pairs: m.listPairs() }));
    // The rates as they are now, encoded once while they stay the same (a tick changes them).
    shared.send(socket, 'pairs_rates', connectRates.version(), () => connectRates.payload());
    // At most one select_pair runs per socket; a newer one replaces any still waiting (only the
    // latest choice matters), and nothing runs for a socket that has gone.
    let running = false;
    let waiting: Selection | null = null;
    const run = (selected: Selection) => {
      running = true;
      this.selectPair(socket, selected)
        .catch((err) => {
          this.log.error({ err }, 'select_pair failed');
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
  }

  private async selectPair(socket: Socket, selected: Selection): Promise<void> {
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
    const candles = this.answers.held(socket, pair_code, timeframe) ? [] : await this.m.candles(pair_code, timeframe, MAX_CANDLES);
    if (state.selection !== selection || !socket.connected) return;
    // Join and answer in one synchronous step: the history already holds every tick so far, and
    // each later tick arrives as new_price after init_candles.
    void socket.join(priceRoom(pair_code));
    void socket.join(candleRoom(pair_code, timeframe));
    // Encoded once per history version and shared by every socket asking meanwhile.
    this.answers.send(socket, pair_code, timeframe, candles);
    this.log.debug({ socket: socket.id, pair_code, timeframe }, 'pair selected');
  }
}
