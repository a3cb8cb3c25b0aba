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

/**
 * Write `messages` to a socket in order: with `frame` (all their frames in one buffer) as one write,
 * straight to the connection when engine.io is idle, else through engine.io with the whole frame
 * carried by the first packet (the transport writes it as it is); without, one by one.
 */
function write(socket: Socket, messages: Encoded[], frame: Buffer | null): void {
  const s = socket as unknown as WritableSocket;
  if (s.conn.readyState !== 'open') return;
  for (const m of messages) s.notifyOutgoingListeners?.(m.packet);
  if (frame && s.conn.transport.name === 'websocket') {
    if (!writeDirect(s.conn, frame)) s.client.writeToEngine(messages[0].packets, { ...messages[0].opts, wsPreEncodedFrame: [frame] });
    return;
  }
  for (const m of messages) s.client.writeToEngine(m.packets, m.opts);
}

/** The frames of `messages` in one buffer, made once per combination and tick; null if one has none. */
function combined(cache: Map<string, Buffer | null>, key: string, messages: Encoded[]): Buffer | null {
  let frame = cache.get(key);
  if (frame === undefined) {
    frame = messages.every((m) => m.frame) ? (messages.length === 1 ? messages[0].frame : Buffer.concat(messages.map((m) => m.frame!))) : null;
    cache.set(key, frame);
  }
  return frame;
}

function canPreEncode(io: SocketServer): EncodingAdapter | null {
  const adapter = io.of('/').adapter as unknown as Partial<EncodingAdapter>;
  const compressing = Boolean((io.engine as unknown as { opts?: { perMessageDeflate?: unknown } }).opts?.perMessageDeflate);
  return typeof adapter._encode === 'function' && !compressing ? (adapter as EncodingAdapter) : null;
}

/**
 * A message for every socket of this node (pairs_rates, every second) that rides on each socket's
 * next tick write, in front of the tick, instead of costing every socket a write of its own (a
 * write per socket is what the fan-out costs: pairs_rates was ~8 % of the server's CPU at 5,000
 * sockets, docs/performance.md "Fifth pass"). Sockets without a tick within `graceMs` are sent it
 * on its own then. Only the sockets connected when it was made get it (a newer socket had the
 * current rates on connect); a newer `send` first delivers the pending one. The order of the
 * socket's messages is kept: it is written before the next tick, as it was made before it.
 */
export class TickPiggyback {
  private pending: { encoded: Encoded; ids: Set<string>; timer: NodeJS.Timeout } | null = null;

  constructor(
    private readonly io: SocketServer,
    private readonly graceMs: number,
  ) {}

  send(event: string, payload: unknown): void {
    this.flush();
    const enc = canPreEncode(this.io);
    const encoded = enc ? encode(enc, event, payload) : null;
    if (!encoded?.frame) {
      this.io.local.emit(event, payload);
      return;
    }
    const timer = setTimeout(() => this.flush(), this.graceMs);
    timer.unref();
    this.pending = { encoded, ids: new Set(this.io.of('/').sockets.keys()), timer };
  }

  /** The pending message if `id` has not had it yet (it then has). */
  take(id: string): Encoded | null {
    const p = this.pending;
    return p && p.ids.delete(id) ? p.encoded : null;
  }

  /** Send the pending message to every socket that has not had it. */
  flush(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    clearTimeout(p.timer);
    const sockets = this.io.of('/').sockets;
    for (const id of p.ids) {
      const socket = sockets.get(id);
      if (socket) write(socket, [p.encoded], p.encoded.frame);
    }
  }

  stop(): void {
    if (this.pending) clearTimeout(this.pending.timer);
    this.pending = null;
  }
}

/**
 * Send `head` to its room and each of `rest` to its room; a socket in head's room and one of the
 * others' gets head then that message in one write (sockets in several of `rest`'s rooms get
 * each, head once, first). A socket owed `piggyback`'s message gets it first, in the same write.
 */
export function broadcastTick(io: SocketServer, head: TickRoomMessage | null, rest: TickRoomMessage[], piggyback?: TickPiggyback): void {
  const nsp = io.of('/');
  const rooms = nsp.adapter.rooms;
  const enc = canPreEncode(io);
  if (!enc) {
    if (head) io.local.to(head.room).emit(head.event, head.payload);
    for (const m of rest) io.local.to(m.room).emit(m.event, m.payload);
    return;
  }
  const frames = new Map<string, Buffer | null>();
  const send = (socket: Socket, key: string, messages: Encoded[]) => {
    const extra = piggyback?.take(socket.id);
    if (extra) write(socket, [extra, ...messages], combined(frames, `p${key}`, [extra, ...messages]));
    else write(socket, messages, combined(frames, key, messages));
  };
  const headEncoded = head && rooms.has(head.room) ? encode(enc, head.event, head.payload) : null;
  const headIds = headEncoded && head ? rooms.get(head.room)! : null;
  const sent = new Set<string>();
  rest.forEach((m, i) => {
    const ids = rooms.get(m.room);
    if (!ids) return;
    const encoded = encode(enc, m.event, m.payload);
    for (const id of ids) {
      const socket = nsp.sockets.get(id);
      if (!socket) continue;
      const withHead = headEncoded && headIds?.has(id) && !sent.has(id);
      if (withHead) {
        sent.add(id);
        send(socket, `h${i}`, [headEncoded, encoded]);
      } else send(socket, `${i}`, [encoded]);
    }
  });
  if (headEncoded && headIds) {
    for (const id of headIds) {
      if (sent.has(id)) continue;
      const socket = nsp.sockets.get(id);
      if (socket) send(socket, 'h', [headEncoded]);
    }
  }
}
