/**
 * Binance spot public market streams as a PriceFeed (docs/market.md, "Binance feed").
 *
 * One WebSocket to the combined-stream endpoint `<base>/stream?streams=<sym>@trade/<sym>@trade/...`
 * (symbols lower-case). Each message is `{"stream":"btcusdt@trade","data":<trade>}` with the
 * `trade` payload: e "trade", E event time, s symbol, t trade id, p price (string), q quantity
 * (string), T trade time, m buyer is maker. Every trade becomes one tick of the mapped pair at
 * the exchange's trade time T (event time E when T is missing), never our clock.
 *
 * Keeping the stream alive, per Binance's documentation:
 * - the server pings every 20 s and drops a connection that does not pong within a minute: the
 *   `ws` client answers pings by itself; a connection that shows no frame and no ping for
 *   `idleTimeoutMs` is taken as dead and replaced;
 * - a connection is only valid for 24 hours: it is replaced before that (`maxConnectionMs`);
 * - a `serverShutdown` event means reconnect now;
 * - any close or error reconnects with exponential backoff (initial .. max, reset by the first
 *   message of a new connection); the streams are in the URL, so a reconnect resubscribes them.
 * Gaps: a trade id above the symbol's last id + 1 means trades were missed (a drop, a reconnect):
 * counted and logged; a trade id at or below the last one (a replay after reconnect) is skipped.
 * While no trades arrive the pairs go stale and the market suspends them (quote-watch.ts).
 */
import WebSocket from 'ws';
import type { PriceFeed, Tick } from '../types';

export interface FeedLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface BinanceFeedOptions {
  /** e.g. wss://stream.binance.com:9443 (no trailing slash). */
  baseUrl: string;
  /** Our pair code -> Binance symbol (upper case, e.g. BTCUSD -> BTCUSDT). */
  symbols: ReadonlyMap<string, string>;
  log?: FeedLog;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** No frame and no ping for this long: the connection is dead (Binance pings every 20 s). */
  idleTimeoutMs?: number;
  /** Replace the connection after this long (Binance cuts at 24 h). */
  maxConnectionMs?: number;
  /** Connection attempt timeout. */
  connectTimeoutMs?: number;
}

export interface BinanceFeedStats {
  connected: boolean;
  connects: number;
  reconnects: number;
  /** Trades missed, summed over every detected gap (trade id jumps). */
  missedTrades: number;
  gaps: number;
  lastMessageAt: number | null;
}

export interface BinanceTrade {
  e: 'trade';
  E: number;
  s: string;
  t: number;
  p: string;
  q: string;
  T?: number;
  m?: boolean;
}

const silent: FeedLog = { info: () => undefined, warn: () => undefined };

/** The combined-stream URL for these symbols. */
export function combinedStreamUrl(baseUrl: string, symbols: Iterable<string>): string {
  const streams = [...new Set([...symbols].map((s) => `${s.toLowerCase()}@trade`))].sort();
  return `${baseUrl.replace(/\/+$/, '')}/stream?streams=${streams.join('/')}`;
}

/** Parse one combined-stream frame into a trade, or null when it is not a well-formed trade. */
export function parseTradeFrame(text: string): { stream: string; trade: BinanceTrade } | { stream: string; shutdown: true } | null {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof msg !== 'object' || msg === null) return null;
  const { stream, data } = msg as { stream?: unknown; data?: unknown };
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  if (d.e === 'serverShutdown') return { stream: typeof stream === 'string' ? stream : '', shutdown: true };
  if (typeof stream !== 'string' || d.e !== 'trade') return null;
  if (typeof d.s !== 'string' || typeof d.t !== 'number' || typeof d.p !== 'string' || typeof d.E !== 'number') return null;
  if (d.T !== undefined && typeof d.T !== 'number') return null;
  return { stream, trade: d as unknown as BinanceTrade };
}

export class BinanceFeed implements PriceFeed {
  private readonly pairBySymbol = new Map<string, string>();
  private readonly lastTradeId = new Map<string, number>();
  private readonly log: FeedLog;
  private readonly url: string;
  private ws: WebSocket | null = null;
  private onTick: ((tick: Tick) => void) | null = null;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private lifetimeTimer: NodeJS.Timeout | null = null;
  private readonly s: BinanceFeedStats = { connected: false, connects: 0, reconnects: 0, missedTrades: 0, gaps: 0, lastMessageAt: null };

  constructor(private readonly options: BinanceFeedOptions) {
    for (const [pair, symbol] of options.symbols) this.pairBySymbol.set(symbol.toUpperCase(), pair);
    this.log = options.log ?? silent;
    this.url = combinedStreamUrl(options.baseUrl, this.pairBySymbol.keys());
  }

  /** Pairs quoted by this feed. */
  get pairs(): string[] {
    return [...this.pairBySymbol.values()];
  }

  get streamUrl(): string {
    return this.url;
  }

  stats(): BinanceFeedStats {
    return { ...this.s };
  }

  isSimulated(): boolean {
    return false;
  }

  start(onTick: (tick: Tick) => void): void {
    if (this.onTick) return;
    this.onTick = onTick;
    if (this.pairBySymbol.size > 0) this.connect();
  }

  stop(): void {
    this.onTick = null;
    this.clearTimers();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      ws.terminate();
    }
    this.s.connected = false;
  }

  private connect(): void {
    if (!this.onTick) return;
    this.s.connects += 1;
    const ws = new WebSocket(this.url, { handshakeTimeout: this.options.connectTimeoutMs ?? 10_000 });
    this.ws = ws;
    ws.on('open', () => {
      if (this.ws !== ws) return;
      this.s.connected = true;
      this.log.info({ url: this.url }, 'binance feed connected');
      this.armIdle();
      const life = this.options.maxConnectionMs ?? 23 * 3_600_000 + 50 * 60_000;
      this.lifetimeTimer = setTimeout(() => this.replace('connection lifetime reached (Binance cuts at 24 h)'), life);
      this.lifetimeTimer.unref();
    });
    ws.on('ping', () => this.armIdle());
    ws.on('message', (data) => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.armIdle();
      this.s.lastMessageAt = Date.now();
      this.handle(data.toString());
    });
    ws.on('error', (err) => {
      this.log.warn({ err: err.message }, 'binance feed socket error');
    });
    ws.on('close', (code) => {
      if (this.ws !== ws) return;
      this.log.warn({ code }, 'binance feed disconnected');
      this.ws = null;
      this.s.connected = false;
      this.clearTimers();
      this.scheduleReconnect();
    });
  }

  private handle(text: string): void {
    const frame = parseTradeFrame(text);
    if (!frame) return;
    if ('shutdown' in frame) return this.replace('serverShutdown event');
    const { trade } = frame;
    const pair = this.pairBySymbol.get(trade.s.toUpperCase());
    if (!pair) return;
    const last = this.lastTradeId.get(pair);
    if (last !== undefined) {
      if (trade.t <= last) return; // seen already (a replay after reconnect)
      if (trade.t > last + 1) {
        this.s.gaps += 1;
        this.s.missedTrades += trade.t - last - 1;
        this.log.warn({ pair_code: pair, from: last, to: trade.t, missed: trade.t - last - 1 }, 'binance feed gap: trades missed');
      }
    }
    this.lastTradeId.set(pair, trade.t);
    const price = Number(trade.p);
    const time = trade.T ?? trade.E;
    if (!Number.isFinite(price) || !(price > 0) || !Number.isFinite(time)) return;
    this.onTick?.({ pair_code: pair, seq: 0, time, price });
  }

  /** Close the current connection on purpose and connect again at once. */
  private replace(reason: string): void {
    this.log.info({ reason }, 'binance feed reconnecting');
    const ws = this.ws;
    this.ws = null;
    this.s.connected = false;
    this.clearTimers();
    if (ws) {
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      ws.terminate();
    }
    this.attempt = 0;
    this.s.reconnects += 1;
    this.connect();
  }

  private scheduleReconnect(): void {
    if (!this.onTick || this.reconnectTimer) return;
    const initial = this.options.initialBackoffMs ?? 500;
    const max = this.options.maxBackoffMs ?? 30_000;
    const delay = Math.min(max, initial * 2 ** this.attempt);
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.s.reconnects += 1;
      this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  private armIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const ms = this.options.idleTimeoutMs ?? 60_000;
    this.idleTimer = setTimeout(() => this.replace(`no frame or ping for ${ms} ms`), ms);
    this.idleTimer.unref();
  }

  private clearTimers(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.lifetimeTimer) clearTimeout(this.lifetimeTimer);
    this.idleTimer = this.lifetimeTimer = null;
  }
}
