/**
 * The platform as a cluster (issue 15, item 5): three server processes on one PostgreSQL and one
 * Redis behind Debian's nginx (tests/support/cluster.ts), spoken to as a browser would, through
 * the balancer, except where a test needs one node on purpose (the ticks of each node).
 *
 *   - a user's socket on one node hears the pushes of an order placed through another node;
 *   - every node streams the same ticks of a pair;
 *   - kill -9 of the feed leader with orders open: another node leads, ticks go on with the
 *     tick log's numbering continued, and every order settles exactly once;
 *   - a rolling restart (SIGTERM, wait for the exit, start again, wait until ready; one node at a
 *     time) under a client placing orders: every order a node acknowledged exists and settles
 *     once, and the client's socket is back.
 *
 * "Exactly once" is read from the database: one `order.settled` event per order, one stake
 * transaction, one payout or refund transaction for a won, tied or refunded order and none for
 * a lost one, and the operator's `audit` command (server/cli/admin.ts) finding nothing.
 * The waits have deadlines so that a broken cluster fails instead of hanging; how long things
 * take is measured in bench/cluster-fanout.bench.ts, not asserted here.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import pg from 'pg';
import { startCluster, type Cluster } from '../support/cluster';
import { validRegistration } from '../support/auth';
import { api, clusterSocket, collect, sleep, waitFor, type ClusterSocket } from '../support/cluster-client';

const PAIR = 'BTCUSD';
const TRADING_ACCOUNT = 'DemoAccount';

let cluster: Cluster;
let db: pg.Pool;
const sockets: ClusterSocket[] = [];

interface User {
  id: number;
  token: string;
}

async function registerUser(): Promise<User> {
  const r = await api(cluster.url, 'POST', '/api/platform/auth/register', validRegistration());
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { id: r.body.data.user.user_id, token: r.body.data.token };
}

/** One order through the balancer. */
function placeOrder(user: User, direction: 'up' | 'down', expiry: number) {
  return api(
    cluster.url,
    'POST',
    '/api/v2/orders',
    { pair_code: PAIR, direction, amount: 1, currency: 'USD', trading_account: TRADING_ACCOUNT, expiry, client_request_id: crypto.randomUUID().replace(/-/g, '') },
    user.token,
  );
}

/** The id of the order an answer carries (fails the test when there is none). */
function orderId(r: { body: { data: any } }): number {
  const id = r.body.data?.order?.order_id;
  expect(Number.isSafeInteger(id), `no order id in ${JSON.stringify(r.body)}`).toBe(true);
  return id as number;
}

async function socketFor(user: User | null, url = cluster.url, reconnect = false): Promise<ClusterSocket> {
  const s = await clusterSocket(url, { token: user?.token, reconnect });
  sockets.push(s);
  return s;
}

/** Orders still open among `ids`, read from the database. */
async function openOrders(ids: number[]): Promise<number> {
  const r = await db.query<{ n: string }>(`select count(*) as n from orders where id = any($1::bigint[]) and status = 'open'`, [ids]);
  return Number(r.rows[0].n);
}

/**
 * Every order of `ids` is closed and was settled exactly once: one order.settled event, one stake
 * transaction, and one payout/refund transaction exactly when the result pays something back.
 */
async function expectSettledOnce(ids: number[]): Promise<void> {
  // (pg returns bigint columns as strings on this plain pool: ids are compared as numbers.)
  const { rows } = await db.query<{ id: string; status: string; result: string | null }>(
    `select id, status, result from orders where id = any($1::bigint[]) order by id`,
    [ids],
  );
  const orders = { rows: rows.map((o) => ({ ...o, id: Number(o.id) })) };
  expect(orders.rows.map((o) => o.id)).toEqual([...ids].sort((a, b) => a - b));
  const events = await db.query<{ payload: string | { order_id: number } }>(`select payload from domain_events where type = 'order.settled'`);
  const settledEvents = new Map<number, number>();
  for (const e of events.rows) {
    const payload = typeof e.payload === 'string' ? (JSON.parse(e.payload) as { order_id: number }) : e.payload;
    const id = Number(payload.order_id);
    settledEvents.set(id, (settledEvents.get(id) ?? 0) + 1);
  }
  const txs = await db.query<{ ref_id: string; kind: string; n: string }>(
    `select ref_id, kind, count(*) as n from ledger_transactions where ref_type = 'order' and ref_id = any($1::text[]) group by ref_id, kind`,
    [ids.map(String)],
  );
  const txCount = (id: number, kind: string) => Number(txs.rows.find((t) => t.ref_id === String(id) && t.kind === kind)?.n ?? 0);
  const problems: string[] = [];
  for (const o of orders.rows) {
    const pays = o.result === 'won' || o.result === 'tie' || o.result === 'refunded';
    const payTxs = txCount(o.id, 'order_payout') + txCount(o.id, 'order_refund');
    if (o.status !== 'closed') problems.push(`order ${o.id} is ${o.status}`);
    if ((settledEvents.get(o.id) ?? 0) !== 1) problems.push(`order ${o.id}: ${settledEvents.get(o.id) ?? 0} order.settled events`);
    if (txCount(o.id, 'order_stake') !== 1) problems.push(`order ${o.id}: ${txCount(o.id, 'order_stake')} stake transactions`);
    if (payTxs !== (pays ? 1 : 0)) problems.push(`order ${o.id} (${o.result}): ${payTxs} payout/refund transactions`);
  }
  expect(problems).toEqual([]);
}

async function expectAuditClean(): Promise<void> {
  const audit = await cluster.admin(['audit']);
  expect(audit.code, `${audit.stdout}\n${audit.stderr}`).toBe(0);
}

beforeAll(async () => {
  cluster = await startCluster({ nodes: 3 });
  db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 });
}, 180_000);

// A failed test shows what the nodes said (their last lines of output).
afterEach((context) => {
  if (context.task.result?.state === 'fail' && cluster) console.log(cluster.logs());
});

afterAll(async () => {
  for (const s of sockets) s.socket.close();
  await db?.end();
  await cluster?.stop();
}, 60_000);

describe('three nodes behind nginx', () => {
  it('a user whose socket is on one node hears the pushes of an order placed through another', async () => {
    const user = await registerUser();
    const live = await socketFor(user);
    const socketNode = live.node();
    expect(socketNode).toMatch(/^node\d$/);
    const updates = collect<{ change: string; order: { order_id: number } }>(live.socket, 'order_update');
    const balances = collect<{ balances: unknown }>(live.socket, 'update_balances');

    // Round-robin: within a few orders one lands on a node other than the socket's.
    let placed: { id: number; node: string } | null = null;
    const nodesSeen = new Set<string>();
    for (let i = 0; i < 8 && !placed; i++) {
      const r = await placeOrder(user, i % 2 ? 'up' : 'down', 5);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.node).toMatch(/^node\d$/);
      nodesSeen.add(r.node!);
      if (r.node !== socketNode) placed = { id: orderId(r), node: r.node! };
    }
    expect(placed, `every order landed on ${socketNode}`).not.toBeNull();
    const { id } = placed!;
    await waitFor(() => updates.some((u) => u.order.order_id === id && u.change === 'opened'), 20_000, `order_update opened for order ${id}`);
    await waitFor(() => balances.length > 0, 20_000, 'update_balances after the stake');
    // Its settlement (by whichever node claims it) reaches the socket too, once.
    await waitFor(() => updates.some((u) => u.order.order_id === id && u.change === 'settled'), 30_000, `order_update settled for order ${id}`);
    await sleep(300);
    expect(updates.filter((u) => u.order.order_id === id && u.change === 'settled')).toHaveLength(1);
    // The socket never moved: the pushes crossed from the placing node to the socket's.
    expect(live.node()).toBe(socketNode);
  });

  it('every node streams the same ticks of a pair', async () => {
    const perNode = await Promise.all(
      cluster.nodes.map(async (n) => {
        const s = await socketFor(null, n.url);
        expect(s.node()).toBe(n.id);
        const ticks = collect<{ pair_code: string; price: number; time: number }>(s.socket, 'price_update');
        s.socket.emit('select_pair', { pair_code: PAIR, timeframe: '5s' });
        return { s, ticks };
      }),
    );
    await sleep(3000);
    for (const { s } of perNode) s.socket.off('price_update');
    // Compare over the window every node was listening in (they joined at slightly different times).
    const from = Math.max(...perNode.map((p) => p.ticks[0]?.time ?? Infinity));
    const to = Math.min(...perNode.map((p) => p.ticks.at(-1)?.time ?? -Infinity));
    const window = perNode.map((p) => p.ticks.filter((t) => t.time >= from && t.time <= to).map((t) => `${t.pair_code} ${t.time} ${t.price}`));
    expect(window[0].length).toBeGreaterThanOrEqual(3);
    expect(window[1]).toEqual(window[0]);
    expect(window[2]).toEqual(window[0]);
    for (const { s } of perNode) s.socket.close();
  });

  it('kill -9 of the feed leader with orders open: another node leads, ticks go on, every order settles once', async () => {
    const leader = await cluster.waitLeader();
    const watcherNode = cluster.nodes.find((n) => n.index !== leader)!;
    const watcher = await socketFor(null, watcherNode.url);
    const ticks = collect<{ time: number; price: number }>(watcher.socket, 'price_update');
    watcher.socket.emit('select_pair', { pair_code: PAIR, timeframe: '5s' });
    await waitFor(() => ticks.length >= 2, 10_000, 'ticks before the kill');

    const users = [await registerUser(), await registerUser()];
    const ids: number[] = [];
    const servedBy = new Set<string>();
    for (let i = 0; i < 9; i++) {
      const r = await placeOrder(users[i % 2], i % 2 ? 'up' : 'down', 6);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids.push(orderId(r));
      servedBy.add(r.node!);
    }
    // Placed through every node, the leader included.
    expect(servedBy.size).toBe(3);
    const { rows: before } = await db.query<{ seq: string }>(`select max(seq) as seq from market_ticks where pair_code = $1`, [PAIR]);
    const lastSeqBefore = Number(before[0].seq);

    const killedAt = Date.now();
    await cluster.kill(leader);
    expect(await openOrders(ids)).toBeGreaterThan(0);

    const next = await cluster.waitLeader(20_000, leader);
    expect(next).not.toBe(leader);
    await waitFor(() => ticks.some((t) => t.time > killedAt + 500), 20_000, 'ticks from the new leader');
    const resumedAt = ticks.find((t) => t.time > killedAt)?.time ?? NaN;
    console.log(`cluster: feed leader ${cluster.nodes[leader].id} killed; ${cluster.nodes[next].id} leads; next tick ${resumedAt - killedAt} ms after the kill`);
    // Ticks in order on the surviving node's socket, across the change of leader.
    for (let i = 1; i < ticks.length; i++) expect(ticks[i].time).toBeGreaterThanOrEqual(ticks[i - 1].time);
    // The tick log's numbering goes on after the dead leader's (a number is never reused; ticks
    // it had not written yet may be missing), in time order.
    const { rows: after } = await db.query<{ seq: string; time_ms: string }>(
      `select seq, time_ms from market_ticks where pair_code = $1 and seq >= $2 order by seq`,
      [PAIR, lastSeqBefore],
    );
    for (let i = 1; i < after.length; i++) expect(Number(after[i].time_ms)).toBeGreaterThanOrEqual(Number(after[i - 1].time_ms));
    await waitFor(
      async () => (await db.query(`select 1 from market_ticks where pair_code = $1 and time_ms > $2 limit 1`, [PAIR, killedAt + 500])).rows.length > 0,
      20_000,
      "the new leader's ticks in the tick log",
    );
    const { rows: older } = await db.query(`select 1 from market_ticks where pair_code = $1 and time_ms > $2 and seq <= $3 limit 1`, [PAIR, killedAt, lastSeqBefore]);
    expect(older).toEqual([]);

    await waitFor(async () => (await openOrders(ids)) === 0, 40_000, 'every order of the killed leader settled');
    await expectSettledOnce(ids);
    await expectAuditClean();

    await cluster.start(leader);
    watcher.socket.close();
  });

  it('a rolling restart loses no acknowledged order, and the client reconnects', async () => {
    // Three nodes to begin with (a node an earlier test stopped is started again).
    for (const n of cluster.nodes) if (!cluster.running(n.index)) await cluster.start(n.index);
    const user = await registerUser();
    const live = await socketFor(user, cluster.url, true);
    const updates = collect<{ change: string; order: { order_id: number } }>(live.socket, 'order_update');

    const acknowledged: number[] = [];
    const refused: string[] = [];
    let placing = true;
    const client = (async () => {
      for (let i = 0; placing; i++) {
        const r = await placeOrder(user, i % 2 ? 'up' : 'down', 5);
        if (r.status === 201 || r.status === 200) acknowledged.push(orderId(r));
        else refused.push(`${r.status} ${r.body.error ?? ''}`);
        await sleep(100);
      }
    })();

    for (const node of cluster.nodes) {
      await sleep(500);
      const code = await cluster.terminate(node.index);
      expect(code, `${node.id} exit code after SIGTERM`).toBe(0);
      await cluster.start(node.index);
    }
    await sleep(500);
    placing = false;
    await client;
    console.log(`cluster: rolling restart: ${acknowledged.length} orders acknowledged, ${refused.length} refused (${[...new Set(refused)].join('; ')}); socket reconnected ${live.reconnects} times`);
    expect(acknowledged.length).toBeGreaterThan(10);

    // Every acknowledged order exists, as its owner sees it through the balancer.
    for (const id of acknowledged) {
      const r = await api(cluster.url, 'GET', `/api/platform/orders/${id}`, undefined, user.token);
      expect(r.status, `order ${id}: ${JSON.stringify(r.body)}`).toBe(200);
    }
    await waitFor(async () => (await openOrders(acknowledged)) === 0, 40_000, 'every acknowledged order settled');
    await expectSettledOnce(acknowledged);
    await expectAuditClean();

    // The socket's node was restarted at some point: it came back and is the user's again.
    expect(live.reconnects).toBeGreaterThan(0);
    expect(live.socket.connected).toBe(true);
    const r = await placeOrder(user, 'up', 5);
    expect(r.status).toBe(201);
    const id = orderId(r);
    await waitFor(() => updates.some((u) => u.order.order_id === id && u.change === 'opened'), 20_000, 'a push after the restart');
  });
});
