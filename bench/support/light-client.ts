/**
 * A socket.io client for the socket benches that does only what the measurement needs, so that
 * N clients in ONE bench process cost much less than the server they measure.
 *
 * With socket.io-client, 5,000 clients in one thread (on the server's two cores) were the
 * bottleneck of both the real and the bare server's runs: every message went through
 * engine.io-client's and socket.io-parser's decoding and an emitter, and every payload through
 * JSON.parse (139 KB of init_candles per connect, 20 messages a second per connected socket), so
 * the clients used more CPU than either server and the figures measured the clients' queue
 * (docs/performance.md, "Seventh pass"). A real user's browser decodes its own messages on its
 * own CPU; what the benches measure is the server.
 *
 * This client speaks the same protocol over the same transport (engine.io v4 over a WebSocket,
 * socket.io v5 packets: `40` to join the main namespace, `42[event, payload]` events, `3`
 * answering the server's `2` ping), reads every message's event name from its first bytes and
 * decodes a payload only for the events a caller asked to parse (price_update for the latency).
 * It is the same for every server it talks to.
 */
import WebSocket from 'ws';
import { io as ioConnect } from 'socket.io-client';

type Handler = (payload: unknown) => void;

/** What the socket benches need of a client (LightSocket, or socket.io-client through `ioClient`). */
export interface BenchClient {
  /** `fn` on the next `event` (connect, connect_error, disconnect or a server event), without its payload. */
  onceEvent(event: string, fn: () => void): void;
  /** `fn` on every `event`; with `parse`, it gets the decoded payload (socket.io-client always decodes). */
  on(event: string, fn: Handler, parse?: boolean): void;
  off(event: string): void;
  /** `fn` with every event's name, or no longer (null). */
  countAll(fn: ((event: string) => void) | null): void;
  emit(event: string, payload: unknown): void;
  close(): void;
}

/** socket.io-client behind the same interface (BENCH_SOCKETS_CLIENT=socket.io: the SPA's client, decoding everything). */
export function ioClient(url: string): BenchClient {
  const s = ioConnect(url, { transports: ['websocket'], reconnection: false, forceNew: true, timeout: 60_000 });
  let any: ((event: string) => void) | null = null;
  const onAny = (event: string) => any?.(event);
  s.onAny(onAny);
  return {
    onceEvent: (event, fn) => void s.once(event, () => fn()),
    on: (event, fn) => void s.on(event, fn),
    off: (event) => void s.off(event),
    countAll: (fn) => void (any = fn),
    emit: (event, payload) => void s.emit(event, payload),
    close: () => void s.close(),
  };
}

const QUOTE = 0x22;

export class LightSocket implements BenchClient {
  private readonly ws: WebSocket;
  private readonly handlers = new Map<string, { fn: Handler; parse: boolean }>();
  private readonly once = new Map<string, Handler>();
  private onAny: ((event: string) => void) | null = null;
  connected = false;

  constructor(url: string) {
    const target = `${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
    this.ws = new WebSocket(target, { perMessageDeflate: false, skipUTF8Validation: true });
    this.ws.on('open', () => this.ws.send('40'));
    this.ws.on('message', (data: Buffer) => this.onFrame(data));
    this.ws.on('error', () => this.fire('connect_error', null));
    this.ws.on('close', () => {
      if (!this.connected) this.fire('connect_error', null);
      this.connected = false;
      this.fire('disconnect', null);
    });
  }

  countAll(fn: ((event: string) => void) | null): void {
    this.onAny = fn;
  }

  /** `fn` on every `event`; with `parse`, it gets the decoded payload (else null). */
  on(event: string, fn: Handler, parse = false): void {
    this.handlers.set(event, { fn, parse });
  }

  off(event: string): void {
    this.handlers.delete(event);
  }

  onceEvent(event: string, fn: () => void): void {
    this.once.set(event, fn);
  }

  emit(event: string, payload: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(`42${JSON.stringify([event, payload])}`);
  }

  close(): void {
    this.ws.close();
  }

  private fire(event: string, payload: unknown): void {
    const once = this.once.get(event);
    if (once) {
      this.once.delete(event);
      once(payload);
    }
  }

  private onFrame(data: Buffer): void {
    const engine = data[0];
    if (engine === 0x32 /* '2' ping */) return void this.ws.send('3');
    if (engine !== 0x34 /* '4' message */) return;
    const type = data[1];
    if (type === 0x30 /* '0' connect */) {
      this.connected = true;
      return this.fire('connect', null);
    }
    if (type === 0x34 /* '4' connect_error */) return this.fire('connect_error', null);
    if (type !== 0x32 /* '2' event */ || data[2] !== 0x5b || data[3] !== QUOTE) return;
    const end = data.indexOf(QUOTE, 4);
    const event = data.toString('latin1', 4, end);
    this.onAny?.(event);
    this.fire(event, null);
    const h = this.handlers.get(event);
    if (!h) return;
    h.fn(h.parse ? (JSON.parse(data.toString('utf8', 2)) as unknown[])[1] : null);
  }
}
