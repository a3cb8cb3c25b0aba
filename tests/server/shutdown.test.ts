/**
 * SIGTERM on a node (server/main.ts, server/app.ts): it turns not ready at once (/api/ready
 * 503 'draining'), takes no new connections, lets a request in flight finish, disconnects its
 * sockets so clients reconnect elsewhere, closes Redis and the database and exits 0. The node
 * runs as its own process on a real Redis (REDIS_URL), as in a cluster.
 *
 * The requests "in flight" are raw HTTP requests sent in part before the signal (a login whose
 * body is not finished, a GET /api/ready whose headers are not finished), on connections the
 * server has already answered once, and completed after the node said it is draining: what
 * they are answered shows what a draining node does.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket } from 'socket.io-client';
import { startRedis, type RunningRedis } from '../support/redis';
import { spawnNode, type NodeProcess } from '../support/node-process';
import { validRegistration } from '../support/auth';
import { startTestServer, type TestServer } from '../support/server';

interface RawAnswer {
  status: number;
  headers: string;
  body: any;
}

/**
 * An HTTP/1.1 connection that is surely open on the server (a first GET /api/health answered
 * on it, keep-alive), then a request of which only `start` is sent now; `finish(rest)` sends
 * the rest and resolves with the answer once the server closes the connection.
 */
async function requestInFlight(port: number, start: string): Promise<{ finish(rest: string): Promise<RawAnswer> }> {
  const sock = net.connect(port, '127.0.0.1');
  let data = '';
  sock.on('data', (d) => (data += d.toString()));
  const closed = new Promise<void>((resolve, reject) => {
    sock.once('error', reject);
    sock.once('close', () => resolve());
  });
  await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
  sock.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  for (;;) {
    const end = data.indexOf('\r\n\r\n');
    const length = Number(/content-length: (\d+)/i.exec(data)?.[1] ?? -1);
    if (end >= 0 && length >= 0 && data.length >= end + 4 + length) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(data).toMatch(/^HTTP\/1\.1 200/);
  data = '';
  await new Promise<void>((resolve) => sock.write(start, () => resolve()));
  return {
    async finish(rest) {
      sock.write(rest);
      await closed;
      const [head, ...tail] = data.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      let body: any = tail.join('\r\n\r\n');
      try {
        body = JSON.parse(body);
      } catch {
        // not JSON: keep the text
      }
      return { status, headers: head, body };
    },
  };
}

describe('SIGTERM', () => {
  let redis: RunningRedis;
  let node: NodeProcess;

  beforeAll(async () => {
    redis = await startRedis();
    node = await spawnNode({ REDIS_URL: redis.url, NODE_ID: 'draining-node', SHUTDOWN_GRACE_MS: '20000' });
  }, 90_000);

  afterAll(async () => {
    await node?.cleanup();
    await redis?.stop();
  });

  it('drains: not ready at once, in-flight request finished, sockets disconnected, exit 0', async () => {
    const port = Number(new URL(node.baseUrl).port);
    // Ready once the feed has ticked.
    for (let i = 0; ; i++) {
      const r = await fetch(`${node.baseUrl}/api/ready`);
      if (r.status === 200) break;
      if (i > 150) throw new Error(`never ready: ${JSON.stringify(await r.json())}`);
      await new Promise((res) => setTimeout(res, 100));
    }
    const user = validRegistration();
    const reg = await fetch(`${node.baseUrl}/api/platform/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) });
    expect(reg.status).toBe(200);

    const socket = connectSocket(node.baseUrl, { transports: ['websocket'], reconnection: false, forceNew: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

    // In flight when the signal comes: a login with half its body sent, a readiness probe with
    // its headers unfinished.
    const body = JSON.stringify({ username: user.username, password: user.password });
    const half = Math.floor(body.length / 2);
    const login = await requestInFlight(
      port,
      `POST /api/platform/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
    );
    const probe = await requestInFlight(port, 'GET /api/ready HTTP/1.1\r\nHost: 127.0.0.1\r\n');

    node.kill('SIGTERM');
    await node.waitForOutput(/SIGTERM: draining/);

    // The socket is told to go (a server disconnect: the app's socket machine reconnects elsewhere).
    expect(await disconnected).toBe('io server disconnect');
    // A new connection is not taken.
    await expect(fetch(`${node.baseUrl}/api/health`)).rejects.toThrow();
    // The probe in flight hears: not ready, draining.
    const ready = await probe.finish('Connection: keep-alive\r\n\r\n');
    expect(ready.status).toBe(503);
    expect(ready.body.success).toBe(false);
    expect(ready.body.error).toMatch(/^Not ready: draining/);
    expect(ready.body.details).toContainEqual({ field: 'node', message: 'draining' });
    // The login in flight is finished and answered as usual.
    const answered = await login.finish(body.slice(half));
    expect(answered.status).toBe(200);
    expect(typeof answered.body.data.token).toBe('string');

    expect(await node.exited).toBe(0);
    expect(node.output()).toMatch(/Stopped cleanly/);
    socket.close();
  }, 90_000);
});

describe('a draining node (in process, before its listener closes)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('refuses new sockets and new requests in the envelope, still answers health and readiness', async () => {
    const before = await server.socket();
    server.ctx.readiness.drain();

    const late = connectSocket(server.baseUrl, { transports: ['websocket'], reconnection: false, forceNew: true });
    const refused = await new Promise<string>((resolve) => {
      late.once('connect', () => resolve('connected'));
      late.once('connect_error', (err) => resolve(err.message));
    });
    late.close();
    expect(refused).toBe('Server is shutting down, please retry');

    const work = await server.api('GET', '/api/v2/currencies');
    expect(work.status).toBe(503);
    expect(work.body).toEqual({ success: false, data: null, error: 'Server is shutting down, please retry', error_message: 'Server is shutting down, please retry' });
    const health = await server.api('GET', '/api/health');
    expect(health.status).toBe(200);
    const ready = await server.api('GET', '/api/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.details).toContainEqual({ field: 'node', message: 'draining' });
    // A socket connected before keeps its connection until the close disconnects it.
    expect(before.connected).toBe(true);
  });
});
