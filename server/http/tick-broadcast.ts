/**
 * A tick's two socket events (price_update to the pair's room, new_price to each timeframe room
 * of the pair) written to each socket in ONE write.
 *
 * Every socket that selected a pair is in its price room and one of its candle rooms, so each tick
 * is two messages to it. Sent as two room broadcasts, that is two WebSocket frames in two writes
 * (engine.io writes the second packet only after the first write's callback): at thousands of
 * sockets the write system calls were half the server's CPU (bench/sockets.bench.ts, `node
 * --cpu-prof`), twice a bare one-message broadcast. Here both packets are encoded once per tick
 * the way socket.io's adapter encodes a broadcast (packet and WebSocket frame), and a socket in
 * both rooms gets the two frames back to back in one write: the same two events, in the same
 * order, byte for byte what the two broadcasts sent. Without precomputed frames (compression
 * on, or a socket on another transport) it falls back to the plain room broadcasts.
 *
 * When engine.io has nothing queued for the socket (its transport writable, its buffer empty) and
 * ws's sender is idle, the frame goes straight to the connection's TCP socket (`writeDirect`):
 * the same bytes in the same order, without engine.io's packet, events and write-callback chain
 * per socket and tick (~20 % of the fan-out's CPU per socket-tick, docs/performance.md "Fifth
 * pass"). Anything engine.io is still writing keeps its place: then the tick goes through it.
 *
 * Always this node's sockets only, never through the socket.io adapter: with several nodes every
 * node gets every tick (the tick bus) and broadcasts it to its own sockets, so a tick never
 * crosses Redis once per node.
 */
import type { Server as SocketServer, Socket } from 'socket.io';

/** socket.io-parser's EVENT packet type. */
const EVENT = 2;

type Packet = { type: number; data: unknown[]; nsp: string };
type Opts = { preEncoded: true; wsPreEncodedFrame?: Buffer[] };

interface Encoded {
  packet: Packet;
  packets: unknown[];
  opts: Opts;
  /** The packet's whole WebSocket frame in one buffer (null when it was not pre-encoded). */
  frame: Buffer | null;
}

interface EncodingAdapter {
  _encode(packet: Packet, opts: Opts): unknown[];
}

/** The connection under a socket.io socket: engine.io socket -> websocket transport -> ws -> net.Socket. */
interface Connection {
  readyState: string;
  writeBuffer?: unknown[];
  transport: {
    name: string;
    writable?: boolean;
    socket?: { readyState?: number; _sender?: { _queue?: unknown[]; _state?: number }; _socket?: { write(chunk: Buffer): boolean; destroyed?: boolean } };
  };
}

interface WritableSocket {
  notifyOutgoingListeners?: (packet: unknown) => void;
  client: { writeToEngine(packets: unknown[], opts: Record<string, unknown>): void };
  conn: Connection;
}

/** ws's WebSocket.OPEN and Sender's idle state (no frame queued behind compression or a blob). */
const WS_OPEN = 1;
const SENDER_IDLE = 0;

/**
 * Write a ready WebSocket frame straight to the connection's TCP socket when nothing else is on
 * its way to it (engine.io's buffer empty and its transport writable, ws's sender idle): the bytes
 * engine.io would write, in the same order, without engine.io's and ws's per-write bookkeeping
 * (a packet object, events, and a completion callback chain per socket and tick: a tenth of the
 * fan-out's CPU at thousands of sockets). Returns false where the caller must go through engine.io.
 */
function writeDirect(conn: Connection, frame: Buffer): boolean {
  const transport = conn.transport;
  const ws = transport.socket;
  const tcp = ws?._socket;
  const sender = ws?._sender;
  if (transport.name !== 'websocket' || transport.writable !== true || conn.writeBuffer?.length !== 0) return false;
  if (!tcp || tcp.destroyed || ws.readyState !== WS_OPEN || !sender || sender._state !== SENDER_IDLE || sender._queue?.length !== 0) return false;
  tcp.write(frame);
  return true;
}

export interface TickRoomMessage {
  room: string;
  event: string;
  payload: unknown;
}

function encode(adapter: EncodingAdapter, event: string, payload: unknown): Encoded {
  const packet: Packet = { type: EVENT, data: [event, payload], nsp: '/' };
  const opts: Opts = { preEncoded: true };
  const packets = adapter._encode(packet, opts);
  const frame = opts.wsPreEncodedFrame ? Buffer.concat(opts.wsPreEncodedFrame) : null;
  return { packet, packets, opts, frame };
}

/** Both packets' frames in one buffer, carried by the first packet (the transport writes it whole). */
function joined(head: Encoded, next: Encoded): Record<string, unknown> | null {
  if (!head.frame || !next.frame) return null;
  return { ...head.opts, wsPreEncodedFrame: [Buffer.concat([head.frame, next.frame])] };
}

function write(socket: Socket, messages: Encoded[], together: Record<string, unknown> | null): void {
  const s = socket as unknown as WritableSocket;
  if (s.conn.readyState !== 'open') return;
  for (const m of messages) s.notifyOutgoingListeners?.(m.packet);
  if (together && messages.length === 2 && s.conn.transport.name === 'websocket') {
    const frame = (together.wsPreEncodedFrame as Buffer[])[0];
    if (!writeDirect(s.conn, frame)) s.client.writeToEngine(messages[0].packets, together);
    return;
  }
  for (const m of messages) {
    if (messages.length === 1 && m.frame && writeDirect(s.conn, m.frame)) continue;
    s.client.writeToEngine(m.packets, m.opts);
  }
}

/**
 * Send `head` to its room and each of `rest` to its room; a socket in head's room and one of the
 * others' gets head then that message in one write (sockets in several of `rest`'s rooms get
 * each, head once, first).
 */
export function broadcastTick(io: SocketServer, head: TickRoomMessage | null, rest: TickRoomMessage[]): void {
  const nsp = io.of('/');
  const adapter = nsp.adapter as unknown as Partial<EncodingAdapter>;
  const rooms = nsp.adapter.rooms;
  const compressing = Boolean((io.engine as unknown as { opts?: { perMessageDeflate?: unknown } }).opts?.perMessageDeflate);
  if (typeof adapter._encode !== 'function' || compressing) {
    if (head) io.local.to(head.room).emit(head.event, head.payload);
    for (const m of rest) io.local.to(m.room).emit(m.event, m.payload);
    return;
  }
  const enc = adapter as EncodingAdapter;
  const headEncoded = head && rooms.has(head.room) ? encode(enc, head.event, head.payload) : null;
  const headIds = headEncoded && head ? rooms.get(head.room)! : null;
  const sent = new Set<string>();
  for (const m of rest) {
    const ids = rooms.get(m.room);
    if (!ids) continue;
    const encoded = encode(enc, m.event, m.payload);
    const together = headEncoded ? joined(headEncoded, encoded) : null;
    for (const id of ids) {
      const socket = nsp.sockets.get(id);
      if (!socket) continue;
      const withHead = headEncoded && headIds?.has(id) && !sent.has(id);
      if (withHead) sent.add(id);
      write(socket, withHead ? [headEncoded, encoded] : [encoded], withHead ? together : null);
    }
  }
  if (headEncoded && headIds) {
    for (const id of headIds) {
      if (sent.has(id)) continue;
      const socket = nsp.sockets.get(id);
      if (socket) write(socket, [headEncoded], null);
    }
  }
}
