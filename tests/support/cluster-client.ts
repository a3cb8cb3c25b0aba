/**
 * A client of the cluster as a browser would be one, through the balancer: HTTP calls that
 * report which node answered (the `x-node-id` header every node sets, server/app.ts), and
 * socket.io sockets that know which node their websocket landed on (the same header on the
 * upgrade answer, read by a websocket transport that keeps it; reconnections update it).
 */
import { io as connect, type Socket } from 'socket.io-client';
import { NodeWebSocket } from 'engine.io-client';

export interface ApiAnswer<T = any> {
  status: number;
  body: { success: boolean; data: T; error: string | null } & Record<string, unknown>;
  /** The node that answered (x-node-id), or null when none did (the balancer's own error). */
  node: string | null;
}

/** One HTTP call; a network failure answers status 0 (the caller decides what it means). */
export async function api<T = any>(baseUrl: string, method: string, url: string, body?: unknown, token?: string): Promise<ApiAnswer<T>> {
  try {
    const res = await fetch(baseUrl + url, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { success: false, data: null, error: `non-JSON answer: ${text.slice(0, 200)}` };
    }
    return { status: res.status, body: parsed, node: res.headers.get('x-node-id') };
  } catch (err) {
    return { status: 0, body: { success: false, data: null as T, error: String(err) }, node: null };
  }
}

/** The websocket transport of socket.io-client for Node, remembering the node of each upgrade. */
class NodeTrackingWebSocket extends NodeWebSocket {
  override createSocket(uri: string, protocols: string | string[] | undefined, opts: Record<string, unknown>) {
    const ws = super.createSocket(uri, protocols, opts) as unknown as { on(event: 'upgrade', fn: (res: { headers: Record<string, string | undefined> }) => void): void };
    const engine = this.socket as unknown as { servedBy?: string | null };
    ws.on('upgrade', (res) => {
      engine.servedBy = res.headers['x-node-id'] ?? null;
    });
    return ws as never;
  }
}

export interface ClusterSocket {
  socket: Socket;
  /** The node the socket's current connection was upgraded by. */
  node(): string | null;
  /** Times it connected again after losing its connection. */
  reconnects: number;
}

/**
 * A websocket-only socket.io client. With `token`, it provides it (and asks for its user data)
 * on every connection, the way the SPA does, so a reconnected socket is the user's again. With
 * `reconnect`, it connects again after any loss, whatever the reason (a draining node sends a
 * disconnect packet, a node refuses a socket while draining), like the SPA's socket machine
 * (machines/socket), which owns its backoff; socket.io-client's own reconnection gives up on
 * those two. Resolves once connected (and, with a token, once the server answered `userdata`).
 */
export async function clusterSocket(url: string, options: { token?: string; reconnect?: boolean } = {}): Promise<ClusterSocket> {
  const socket = connect(url, {
    transports: [NodeTrackingWebSocket],
    forceNew: true,
    reconnection: false,
    timeout: 20_000,
  });
  const out: ClusterSocket = {
    socket,
    node: () => (socket.io.engine as unknown as { servedBy?: string | null } | undefined)?.servedBy ?? null,
    reconnects: 0,
  };
  const { token } = options;
  let first = true;
  socket.on('connect', () => {
    if (!first) out.reconnects++;
    first = false;
    if (token) {
      socket.emit('provide_token', { token });
      socket.emit('get_userdata', { token });
    }
  });
  if (options.reconnect) {
    let closing = false;
    const close = socket.close.bind(socket);
    socket.close = () => {
      closing = true;
      return close();
    };
    const retry = () => setTimeout(() => !closing && !socket.connected && socket.connect(), 250);
    socket.on('disconnect', (reason) => reason !== 'io client disconnect' && retry());
    socket.on('connect_error', retry);
  }
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`socket to ${url} did not connect`)), 20_000);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    if (token) socket.once('userdata', done);
    else socket.once('connect', done);
    if (!options.reconnect) {
      socket.once('connect_error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    }
  });
  return out;
}

/** Every payload of `event` a socket receives from now on. */
export function collect<T = any>(socket: Socket, event: string): T[] {
  const list: T[] = [];
  socket.on(event, (payload: T) => list.push(payload));
  return list;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Wait until `check()` is true; throws `what` after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string, stepMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(stepMs);
  }
}
