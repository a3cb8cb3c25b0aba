/**
 * A local stand-in for Binance's spot market streams (tests only), speaking the documented
 * combined-stream protocol over a real WebSocket server on 127.0.0.1:
 *   GET /stream?streams=btcusdt@trade/ethusdt@trade   (lower-case stream names)
 *   frames: {"stream":"btcusdt@trade","data":{"e":"trade","E":..,"s":"BTCUSDT","t":..,"p":"..","q":"..","T":..,"m":..,"M":true}}
 * It plays trades in that recorded format (`trade`, `play` for raw frames), numbers trade ids
 * per symbol, and can go silent (`stop` / `resume`: connections stay open, nothing is sent),
 * drop every connection (`dropConnections`), refuse new ones (`refuse`), send a
 * `serverShutdown` event, and ping like the real server.
 */
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';

export interface EmulatorTrade {
  price: number | string;
  /** Trade time (ms); defaults to now. */
  time?: number;
  qty?: string;
  /** Trade id; defaults to the symbol's last id + 1. */
  id?: number;
  buyerIsMaker?: boolean;
}

interface Client {
  ws: WebSocket;
  streams: Set<string>;
}

export class BinanceEmulator {
  private wss!: WebSocketServer;
  private readonly clients = new Set<Client>();
  private readonly lastId = new Map<string, number>();
  private silent = false;
  private refusing = false;
  /** The stream sets every accepted connection asked for, in order. */
  readonly connections: string[][] = [];
  /** Frames sent (for assertions). */
  sent = 0;
  port = 0;

  async start(): Promise<string> {
    this.wss = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      verifyClient: (_info, cb) => (this.refusing ? cb(false, 503, 'Service Unavailable') : cb(true)),
    });
    await new Promise<void>((resolve) => this.wss.once('listening', () => resolve()));
    this.port = (this.wss.address() as AddressInfo).port;
    this.wss.on('connection', (ws, req) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname !== '/stream' || !url.searchParams.get('streams')) {
        ws.close(1008, 'combined streams only: /stream?streams=');
        return;
      }
      const streams = url.searchParams.get('streams')!.split('/').filter(Boolean);
      const client: Client = { ws, streams: new Set(streams) };
      this.clients.add(client);
      this.connections.push(streams);
      ws.on('close', () => this.clients.delete(client));
      ws.on('error', () => undefined);
    });
    return this.url;
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  get openConnections(): number {
    return this.clients.size;
  }

  /** Send one trade of `symbol` (e.g. BTCUSDT) to every connection subscribed to it. */
  trade(symbol: string, t: EmulatorTrade): { id: number; time: number } {
    const sym = symbol.toUpperCase();
    const id = t.id ?? (this.lastId.get(sym) ?? 1_000_000) + 1;
    this.lastId.set(sym, Math.max(id, this.lastId.get(sym) ?? 0));
    const time = t.time ?? Date.now();
    const data = {
      e: 'trade',
      E: time + 1,
      s: sym,
      t: id,
      p: typeof t.price === 'string' ? t.price : t.price.toFixed(8),
      q: t.qty ?? '0.01000000',
      T: time,
      m: t.buyerIsMaker ?? false,
      M: true,
    };
    this.play({ stream: `${sym.toLowerCase()}@trade`, data });
    return { id, time };
  }

  /** Send a raw combined-stream frame to the connections subscribed to its stream. */
  play(frame: { stream: string; data: unknown }): void {
    if (this.silent) return;
    const text = JSON.stringify(frame);
    for (const c of this.clients) {
      if (c.streams.has(frame.stream) && c.ws.readyState === c.ws.OPEN) {
        c.ws.send(text);
        this.sent += 1;
      }
    }
  }

  /** Skip trade ids (the next trade of the symbol jumps by n + 1). */
  skipIds(symbol: string, n: number): void {
    const sym = symbol.toUpperCase();
    this.lastId.set(sym, (this.lastId.get(sym) ?? 1_000_000) + n);
  }

  /** Go silent: connections stay open, no frame is sent until resume(). */
  stop(): void {
    this.silent = true;
  }

  resume(): void {
    this.silent = false;
  }

  /** Close every connection abruptly (a network drop). */
  dropConnections(): void {
    for (const c of this.clients) c.ws.terminate();
    this.clients.clear();
  }

  /** Refuse (HTTP 503) new connections while true. */
  refuse(on: boolean): void {
    this.refusing = on;
  }

  /** The documented shutdown notice, then the server goes away for that connection. */
  serverShutdown(): void {
    for (const c of this.clients) {
      if (c.ws.readyState === c.ws.OPEN) c.ws.send(JSON.stringify({ stream: [...c.streams][0], data: { e: 'serverShutdown', E: Date.now() } }));
    }
  }

  ping(): void {
    for (const c of this.clients) if (c.ws.readyState === c.ws.OPEN) c.ws.ping();
  }

  async close(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
