/**
 * Socket events whose payload is the same for every socket (init_valuts, init_pairs on connect)
 * encoded once per version and written to each socket, the way socket.io writes a room broadcast
 * (the adapter encodes the packet and the WebSocket frame once; each socket gets the bytes). The
 * bytes are exactly those `socket.emit(event, payload)` sends. Each connect encoded ~15 KB of JSON
 * (and copied the pair list) for every socket (docs/performance.md, "Fifth pass").
 */
import type { Server as SocketServer, Socket } from 'socket.io';

/** socket.io-parser's EVENT packet type. */
const EVENT = 2;

type Packet = { type: number; data: unknown[]; nsp: string };

interface EncodingAdapter {
  _encode(packet: Packet, opts: Record<string, unknown>): unknown[];
}

interface WritableSocket {
  notifyOutgoingListeners?: (packet: unknown) => void;
  client: { conn: { readyState: string }; writeToEngine(packets: unknown[], opts: Record<string, unknown>): void };
}

interface Encoded {
  version: string;
  packet: Packet;
  packets: unknown[];
  opts: Record<string, unknown>;
}

export class SharedPackets {
  private readonly cache = new Map<string, Encoded>();
  /** How many sends were written from an encoding made for an earlier socket (tests). */
  reused = 0;

  constructor(private readonly io: SocketServer) {}

  /**
   * Send `event` to `socket` with the payload `build()` makes. `version` names the payload: while
   * it is unchanged, the encoding made for an earlier socket is written (and `build` not called).
   */
  send(socket: Socket, event: string, version: string, build: () => unknown): void {
    const adapter = this.io.of('/').adapter as unknown as Partial<EncodingAdapter>;
    if (typeof adapter._encode !== 'function' || socket.nsp.name !== '/') {
      socket.emit(event, build());
      return;
    }
    let encoded = this.cache.get(event);
    if (encoded && encoded.version === version) this.reused++;
    else {
      const packet: Packet = { type: EVENT, data: [event, build()], nsp: '/' };
      const opts: Record<string, unknown> = { preEncoded: true };
      encoded = { version, packet, packets: adapter._encode(packet, opts), opts };
      this.cache.set(event, encoded);
    }
    const s = socket as unknown as WritableSocket;
    if (s.client.conn.readyState !== 'open') return;
    s.notifyOutgoingListeners?.(encoded.packet);
    s.client.writeToEngine(encoded.packets, encoded.opts);
  }
}
