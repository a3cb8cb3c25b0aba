/**
 * select_pair's answer encoded once per (pair, timeframe) and history version, not once per socket.
 *
 * init_candles carries up to 1,000 candles (~100 KB of JSON). Encoding it for every socket was a
 * quarter of the server's CPU while thousands of sockets connected (bench/sockets.bench.ts,
 * `node --cpu-prof`). The market's in-memory history has a version that changes with every tick
 * (candle-ring.ts); while it is unchanged, every socket selecting the same pair and timeframe is
 * sent the same encoded packet, written the way socket.io writes a room broadcast (the adapter
 * encodes the packet and the WebSocket frame once; each socket gets the bytes). The bytes are
 * exactly those `socket.emit('init_candles', payload)` would send.
 */
import type { Server as SocketServer, Socket } from 'socket.io';
import type { InitCandles } from '../../contract/socket';
import type { Candle } from '../../contract/market';
import type { Timeframe } from '../../contract/user';

/** socket.io-parser's EVENT packet type. */
const EVENT = 2;

interface Encoded {
  version: number;
  packets: unknown[];
  opts: Record<string, unknown>;
  packet: { type: number; data: unknown[]; nsp: string };
}

/** What socket.io's in-memory adapter exposes to encode a broadcast (socket.io-adapter `_encode`). */
interface EncodingAdapter {
  _encode(packet: Encoded['packet'], opts: Record<string, unknown>): unknown[];
}

/** What a socket exposes to write pre-encoded packets (used the same way by the adapter's broadcast). */
interface WritableSocket {
  notifyOutgoingListeners?: (packet: unknown) => void;
  client: { conn: { readyState: string }; writeToEngine(packets: unknown[], opts: Record<string, unknown>): void };
}

export interface HistorySource {
  historyNow(pairCode: string, timeframe: Timeframe): { version: number; candles: () => Candle[] } | null;
}

export class InitCandlesPackets {
  private readonly cache = new Map<string, Encoded>();
  /** How many answers were written from an encoding made for an earlier socket (tests, bench). */
  reused = 0;

  constructor(
    private readonly io: SocketServer,
    private readonly history: HistorySource,
  ) {}

  /**
   * Whether `send` answers from the history in memory (encoded once per version), so the caller
   * need not read or copy the candles first: a copy of 1,000 candles per select_pair was made
   * and thrown away while thousands of sockets connected.
   */
  held(socket: Socket, pair_code: string, timeframe: Timeframe): boolean {
    const adapter = this.io.of('/').adapter as unknown as Partial<EncodingAdapter>;
    return typeof adapter._encode === 'function' && socket.nsp.name === '/' && this.history.historyNow(pair_code, timeframe) !== null;
  }

  /**
   * Answer select_pair with the history as it is now. `fallback` (what the caller read) is sent
   * with a plain emit when the history is not held in memory.
   */
  send(socket: Socket, pair_code: string, timeframe: Timeframe, fallback: Candle[]): void {
    const now = this.history.historyNow(pair_code, timeframe);
    const adapter = this.io.of('/').adapter as unknown as Partial<EncodingAdapter>;
    if (!now || typeof adapter._encode !== 'function' || socket.nsp.name !== '/') {
      const payload: InitCandles = { pair_code, timeframe, candles: fallback };
      socket.emit('init_candles', payload);
      return;
    }
    const key = `${pair_code}|${timeframe}`;
    let encoded = this.cache.get(key);
    if (encoded && encoded.version === now.version) this.reused++;
    else {
      const payload: InitCandles = { pair_code, timeframe, candles: now.candles() };
      const packet = { type: EVENT, data: ['init_candles', payload], nsp: '/' };
      const opts: Record<string, unknown> = { preEncoded: true };
      encoded = { version: now.version, packets: adapter._encode(packet, opts), opts, packet };
      this.cache.set(key, encoded);
    }
    const s = socket as unknown as WritableSocket;
    if (s.client.conn.readyState !== 'open') return;
    s.notifyOutgoingListeners?.(encoded.packet);
    s.client.writeToEngine(encoded.packets, encoded.opts);
  }
}
