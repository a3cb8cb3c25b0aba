/**
 * Several nodes on one Redis (REDIS_URL; docs/deploy-redis.md), each with its own SQLite
 * DATA_DIR: a push emitted on node A reaches the user's socket on node B (sharded socket.io
 * adapter); an HTTP rate limit hit half on A and half on B refuses at the shared limit; the
 * per-IP socket cap holds across nodes and frees a killed node's share once its heartbeat
 * stops. A real redis-server per describe (tests/support/redis.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { io as connectSocket } from 'socket.io-client';
import { freePort, startRedis, type RunningRedis } from '../support/redis';
import { nextEvent, startTestServer, type TestServer } from '../support/server';
import { spawnNode, type NodeProcess } from '../support/node-process';
import { register } from '../support/auth';
import { recordEvent } from '../../server/domain/events';
import { userRoom } from '../../server/infra/rooms';

const JWT_SECRET = 'redis-nodes-test-secret-0123456789abcdef';

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Connect a socket.io client; resolves 'connected' or the connect_error message. */
function tryConnect(baseUrl: string, opened: Socket[]): Promise<'connected' | string> {
  const s = connectSocket(baseUrl, { transports: ['websocket'], reconnection: false, forceNew: true });
  opened.push(s);
  return new Promise((resolve) => {
    s.once('connect', () => resolve('connected'));
    s.once('connect_error', (err) => resolve(err.message));
  });
}

describe('two nodes on one Redis: pushes and rate limits', () => {
  let redis: RunningRedis;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    redis = await startRedis();
    const env = { REDIS_URL: redis.url, JWT_SECRET };
    a = await startTestServer({ ...env, NODE_ID: 'node-a' });
    b = await startTestServer({ ...env, NODE_ID: 'node-b' });
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  it('delivers a push emitted on node A to the user socket connected to node B', async () => {
    // The same user on both nodes' databases (the same first id in two fresh databases).
    const onA = await register(a, { username: 'pushuser', email: 'pushuser@example.com' });
    const onB = await register(b, { username: 'pushuser', email: 'pushuser@example.com' });
    expect(onA.userId).toBe(onB.userId);
    const userId = onA.userId;

    const socket = await b.socket();
    socket.emit('provide_token', { token: onB.token });
    socket.emit('get_userdata', { token: onB.token });
    await nextEvent(socket, 'userdata');
    // Node A sees, through Redis, that the user has a socket somewhere (B subscribed the room).
    await waitFor('the user room to show in Redis', async () => (await a.ctx.redis!.roomsWithSockets([userRoom(userId)])).has(userRoom(userId)));
    // Node A has no socket of its own for this user.
    expect(a.ctx.io!.sockets.adapter.rooms.has(userRoom(userId))).toBe(false);

    const pushed = nextEvent<{ balances: unknown }>(socket, 'update_balances', 10_000);
    // A balance change committed on node A: its outbox listener pushes update_balances to the user's room.
    await a.ctx.tx((trx) => recordEvent(trx, 'balances.changed', userId, { kind: 'test' }));
    const got = await pushed;
    expect(got.balances).toBeDefined();
  });

  it('refuses the login rate limit at the shared limit when hits are split over both nodes', async () => {
    // IP_LIMITS.login: 20 per minute per IP. Ten on each node are all answered (wrong passwords).
    const attempt = (node: TestServer, i: number) => node.api('POST', '/api/platform/auth/login', { username: `nobody${i}`, password: 'Wrong-pass1' });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await attempt(i % 2 === 0 ? a : b, i)).status);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    // The 21st is refused on either node: they share one counter.
    const onA = await attempt(a, 100);
    const onB = await attempt(b, 101);
    expect(onA.status).toBe(429);
    expect(onA.body.error).toBe('Too many requests, please try again later');
    expect(onB.status).toBe(429);
  });

  it('keeps ticks and rates off Redis: each node sends them to its own sockets', async () => {
    const socket = await b.socket();
    socket.emit('select_pair', { pair_code: 'EURUSD', timeframe: '5s' });
    await nextEvent(socket, 'init_candles');
    const published = async () => Number(/cmdstat_spublish:calls=(\d+)/.exec(await a.ctx.redis!.commands.info('commandstats'))?.[1] ?? 0);
    const before = await published();
    // Several ticks of the pair (price_update, new_price) and a pairs_rates on node B.
    for (let i = 0; i < 3; i++) await nextEvent(socket, 'price_update', 5_000);
    await nextEvent(socket, 'new_price', 5_000);
    await nextEvent(socket, 'pairs_rates', 5_000);
    // No node published anything for them (both nodes' simulators ticked all along).
    expect(await published()).toBe(before);
    socket.disconnect();
  });

  it('answers /api/ready naming Redis and the node, and /api/health with the node id', async () => {
    const health = await a.api('GET', '/api/health');
    expect(health.status).toBe(200);
    // On PostgreSQL a node is a cluster node (docs/cluster.md): alone on its database, it leads.
    const cluster = a.ctx.services.cluster;
    expect(health.body.data).toEqual(cluster ? { status: 'ok', node: 'node-a', role: 'leader', epoch: cluster.status().epoch } : { status: 'ok', node: 'node-a' });
    // The test server's simulator ticks from the start, so every check passes once a tick is in.
    const report = await waitFor('node A to be ready', async () => {
      const r = await a.api('GET', '/api/ready');
      return r.status === 200 ? r : null;
    });
    expect(report.body.data).toEqual({ status: 'ready', node: 'node-a', checks: { database: 'ok', redis: 'ok', feed: 'ok' } });
  });
});

describe('the per-IP socket cap across nodes', () => {
  let redis: RunningRedis;
  let a: TestServer;
  let b: NodeProcess;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    // SOCKET_COUNT_TTL_MS: how long a silent node's sockets keep counting (short here).
    const env = { REDIS_URL: redis.url, JWT_SECRET, SOCKETS_PER_IP: '3', SOCKET_COUNT_TTL_MS: '1500' };
    a = await startTestServer({ ...env, NODE_ID: 'cap-a' });
    b = await spawnNode({ ...env, NODE_ID: 'cap-b' });
  }, 90_000);

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await a?.close();
    await b?.cleanup();
    await redis?.stop();
  });

  it('holds the cap over both nodes, and frees a killed node share once its heartbeat stops', async () => {
    expect(await tryConnect(b.baseUrl, sockets)).toBe('connected');
    expect(await tryConnect(b.baseUrl, sockets)).toBe('connected');
    expect(await tryConnect(a.baseUrl, sockets)).toBe('connected');
    // Three open over the two nodes: the fourth is refused, on either node.
    expect(await tryConnect(a.baseUrl, sockets)).toBe('Too many requests, please try again later');
    expect(await tryConnect(b.baseUrl, sockets)).toBe('Too many requests, please try again later');

    // Node B dies without cleaning up (kill -9): its two sockets stop counting when its
    // heartbeat is older than SOCKET_COUNT_TTL_MS, and node A accepts again.
    b.kill('SIGKILL');
    expect(await b.exited).toBeNull();
    await waitFor('node A to accept a socket again', async () => (await tryConnect(a.baseUrl, sockets)) === 'connected', 20_000);
    // A holds two now (one from before, one new); one more fits, then the cap holds again.
    expect(await tryConnect(a.baseUrl, sockets)).toBe('connected');
    expect(await tryConnect(a.baseUrl, sockets)).toBe('Too many requests, please try again later');
  }, 60_000);
});

describe('a node whose Redis goes away', () => {
  let redis: RunningRedis;
  let node: TestServer;

  beforeAll(async () => {
    redis = await startRedis();
    node = await startTestServer({ REDIS_URL: redis.url, JWT_SECRET, NODE_ID: 'lonely' });
  }, 60_000);

  afterAll(async () => {
    await node?.close();
    await redis?.stop();
  });

  it('keeps answering: limits skipped, not ready naming redis, sockets and its own pushes still work', async () => {
    const user = await register(node);
    await redis.stop();
    await waitFor('the node to see Redis gone', async () => !node.ctx.redis!.connected());

    // A rate-limited route is answered as usual (the limit is skipped, never a 5xx).
    const login = await node.api('POST', '/api/platform/auth/login', { username: user.username, password: user.password });
    expect(login.status).toBe(200);
    // Not ready, and the answer says why.
    const ready = await node.api('GET', '/api/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.error).toMatch(/^Not ready: .*redis/);
    expect((ready.body.details ?? []).map((d) => d.field)).toContain('redis');
    // Sockets are still taken (counted on this node alone) and hear pushes from this node.
    const socket = await node.socket();
    socket.emit('provide_token', { token: user.token });
    socket.emit('get_userdata', { token: user.token });
    await nextEvent(socket, 'userdata');
    const pushed = nextEvent(socket, 'update_balances', 10_000);
    await node.ctx.tx((trx) => recordEvent(trx, 'balances.changed', user.userId, { kind: 'test' }));
    expect(await pushed).toHaveProperty('balances');
  });
});

describe('Redis restarted under two nodes', () => {
  let redis: RunningRedis;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    redis = await startRedis();
    const env = { REDIS_URL: redis.url, JWT_SECRET, SOCKETS_PER_IP: '2' };
    a = await startTestServer({ ...env, NODE_ID: 'restart-a' });
    b = await startTestServer({ ...env, NODE_ID: 'restart-b' });
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  it('carries pushes across nodes again and restores the socket counts once Redis is back (empty)', async () => {
    const onA = await register(a, { username: 'comeback', email: 'comeback@example.com' });
    const onB = await register(b, { username: 'comeback', email: 'comeback@example.com' });
    expect(onA.userId).toBe(onB.userId);
    const room = userRoom(onA.userId);
    const socket = await b.socket();
    socket.emit('provide_token', { token: onB.token });
    socket.emit('get_userdata', { token: onB.token });
    await nextEvent(socket, 'userdata');
    await waitFor('the room in Redis', async () => (await a.ctx.redis!.roomsWithSockets([room])).has(room));

    // Redis restarts on the same port with nothing in it (no persistence).
    const port = redis.port;
    await redis.stop();
    await waitFor('both nodes to see Redis gone', async () => !a.ctx.redis!.connected() && !b.ctx.redis!.connected());
    redis = await startRedis({ port });
    await waitFor('both nodes to reconnect', async () => a.ctx.redis!.connected() && b.ctx.redis!.connected());

    // Node B subscribed its rooms again: a push from A reaches the socket on B.
    await waitFor('the room in Redis again', async () => (await a.ctx.redis!.roomsWithSockets([room])).has(room));
    const pushed = nextEvent(socket, 'update_balances', 10_000);
    await a.ctx.tx((trx) => recordEvent(trx, 'balances.changed', onA.userId, { kind: 'test' }));
    expect(await pushed).toHaveProperty('balances');

    // Node B wrote its open socket back into the emptied Redis: with SOCKETS_PER_IP=2, one
    // more fits on A, and the next is refused.
    const opened: Socket[] = [];
    await waitFor('the counts restored', async () => Number(await a.ctx.redis!.commands.hget('tt:{sockets}:node:restart-b', '127.0.0.1').catch(() => 0)) >= 1);
    expect(await tryConnect(a.baseUrl, opened)).toBe('connected');
    expect(await tryConnect(a.baseUrl, opened)).toBe('Too many requests, please try again later');
    for (const s of opened) s.disconnect();
  }, 60_000);
});

describe('starting with an unreachable Redis', () => {
  it('refuses to start, saying which Redis it could not reach', async () => {
    const port = await freePort();
    await expect(spawnNode({ REDIS_URL: `redis://127.0.0.1:${port}` })).rejects.toThrow(new RegExp(`exited \\(code 1\\)[\\s\\S]*Redis at redis://127\\.0\\.0\\.1:${port}/? is not reachable`));
  }, 60_000);
});
