/**
 * Verifiable settlement: the hash-chained tick log (migration 009), `npm run admin -- ticks
 * verify` (whole chain: exit 0; a tampered tick row: exit 1 naming the first broken batch),
 * order receipts (GET /api/platform/orders/{id}/receipt: owner only, both ticks with the batch
 * that sealed them, the rule, the result; a receipt verifies against the chain) and the stale
 * exit rule at settlement (a last tick within the limit settles, an older one refunds).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderReceiptSchema, type Order, type OrderReceipt } from '../../contract/orders';
import * as v from 'valibot';
import { TickBatchResponseSchema, type TickBatchResponse } from '../../contract/market';
import { balance, makeUser, startOrdersServer, waitClosed, type OrdersServer, type TestUser } from '../support/orders-harness';
import { GENESIS_HASH, verifyChain } from '../../server/domain/market/tick-chain';
import { verifyReceipt } from '../../server/domain/orders/receipt';
import { databaseEnv, dropTrigger } from '../support/test-database';

let s: OrdersServer;
let user: TestUser;
let other: TestUser;
const TSX = path.resolve('node_modules/.bin/tsx');

function admin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      ['server/cli/admin.ts', ...args],
      { env: { ...process.env, ...databaseEnv(s.server.dataDir), LOG_LEVEL: 'silent', NODE_ENV: 'test' }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

beforeAll(async () => {
  s = await startOrdersServer();
  user = await makeUser(s);
  other = await makeUser(s);
});
afterAll(async () => {
  await s.server.close();
});

async function place(body: Record<string, unknown>): Promise<Order> {
  const r = await s.server.api<{ order: Order }>(
    'POST',
    '/api/v2/orders',
    { pair_code: 'EURUSD', direction: 'up', amount: 10, currency: 'USD', trading_account: 'DemoAccount', expiry: 30, ...body },
    user.token,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data!.order;
}

async function closedOrder(orderId: number): Promise<Order> {
  await waitClosed(s, orderId);
  const r = await s.server.api<{ order: Order }>('GET', `/api/platform/orders/${orderId}`, undefined, user.token);
  return r.body.data!.order;
}

async function receipt(orderId: number, token = user.token) {
  return s.server.api<{ receipt: OrderReceipt }>('GET', `/api/platform/orders/${orderId}/receipt`, undefined, token);
}

describe('stale quotes at expiry (the exit rule at settlement)', () => {
  it('settles on the last tick before expiry when it is within the limit (5 s)', async () => {
    const clock = s.clock!;
    s.feed.push('EURUSD', 1.16, clock.advance(10));
    const o = await place({ direction: 'up' });
    // The last tick before expiry is 4 s old at expiry: within the limit.
    clock.set(o.expires_at_ms - 4000);
    s.feed.push('EURUSD', 1.17, clock.t);
    clock.set(o.expires_at_ms + 2000);
    s.feed.push('EURUSD', 1.15, clock.t);
    const closed = await closedOrder(o.order_id);
    expect(closed.result).toBe('won');
    expect(closed.close_reason).toBe('expiry');
    expect(closed.exit_tick!.price).toBe(1.17);
  });

  it('refunds the stake when the last tick before expiry is older than the limit', async () => {
    const clock = s.clock!;
    s.feed.push('EURUSD', 1.16, clock.advance(10));
    const before = await balance(s, user.id, 'USD', 'demo');
    const o = await place({ direction: 'up' });
    s.feed.push('EURUSD', 1.2, clock.advance(1000));
    // Nothing for the last 29 s before expiry: the quotes were delayed at expiry.
    clock.set(o.expires_at_ms + 3000);
    s.feed.push('EURUSD', 1.3, clock.t);
    const closed = await closedOrder(o.order_id);
    expect(closed.result).toBe('refunded');
    expect(closed.close_reason).toBe('stale_quotes_at_expiry');
    expect(closed.exit_tick).toBeNull();
    expect(await balance(s, user.id, 'USD', 'demo')).toBe(before);
    const r = await receipt(o.order_id);
    expect(r.body.data!.receipt.rule).toBe('stale_at_expiry');
    // The operator's re-check applies the same rule and agrees.
    const check = await admin(['order', String(o.order_id)]);
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });
});

describe('receipts and the tick log chain', () => {
  let settled: Order;
  beforeAll(async () => {
    const clock = s.clock!;
    s.feed.push('GBPUSD', 1.3301, clock.advance(10));
    const o = await place({ pair_code: 'GBPUSD', direction: 'down', expiry: 5 });
    clock.set(o.expires_at_ms - 100);
    s.feed.push('GBPUSD', 1.3299, clock.t);
    clock.set(o.expires_at_ms + 50);
    s.feed.push('GBPUSD', 1.3305, clock.t);
    settled = await closedOrder(o.order_id);
  });

  it('gives the owner a receipt with both ticks sealed in the chain, the rule and the result', async () => {
    const r = await receipt(settled.order_id);
    expect(r.status).toBe(200);
    const rc = v.parse(OrderReceiptSchema, r.body.data!.receipt);
    expect(rc).toMatchObject({
      order_id: settled.order_id,
      pair_code: 'GBPUSD',
      direction: 'down',
      stake: 10,
      payout_rate: 0.9,
      result: 'won',
      rule: 'last_tick_at_or_before_expiry',
      stale_limit_ms: 5000,
      simulated: false,
    });
    expect(rc.entry_tick).toMatchObject({ seq: settled.entry_tick.seq, price: 1.3301 });
    expect(rc.exit_tick).toMatchObject({ seq: settled.exit_tick!.seq, price: 1.3299, time: settled.exit_tick!.time });
    expect(rc.entry_tick.batch).not.toBeNull();
    expect(rc.exit_tick!.batch).not.toBeNull();
    expect(rc.exit_tick!.batch!.batch_id).toBeGreaterThanOrEqual(rc.entry_tick.batch!.batch_id);
    expect(await verifyReceipt(s.server.ctx.db, rc)).toEqual([]);
  });

  it('a trader recomputes both batches from the public batch endpoint with the documented serialisation', async () => {
    const rc = (await receipt(settled.order_id)).body.data!.receipt;
    // Written from docs/market.md alone, not with the server's code.
    const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    for (const t of [rc.entry_tick, rc.exit_tick!]) {
      const r = await s.server.api<TickBatchResponse>('GET', `/api/v2/ticks/batches/${t.batch!.batch_id}`);
      expect(r.status).toBe(200);
      const { batch, ticks } = v.parse(TickBatchResponseSchema, r.body.data);
      expect(ticks).toContainEqual({ pair_code: 'GBPUSD', seq: t.seq, time: t.time, price: t.price });
      const digest = sha(ticks.map((x) => `${x.pair_code}|${x.seq}|${x.time}|${x.price}`).join('\n'));
      expect(digest).toBe(batch.tick_digest);
      expect(sha(`tt-ticks-v1\n${batch.batch_id}\n${batch.created_at}\n${ticks.length}\n${digest}\n${batch.prev_hash}`)).toBe(t.batch!.hash);
    }
    // The link from the entry's batch to the exit's: each prev_hash is the previous hash.
    let prev: string | null = null;
    for (let id = rc.entry_tick.batch!.batch_id; id <= rc.exit_tick!.batch!.batch_id; id++) {
      const { batch } = (await s.server.api<TickBatchResponse>('GET', `/api/v2/ticks/batches/${id}`)).body.data!;
      if (prev !== null) expect(batch.prev_hash).toBe(prev);
      prev = batch.hash;
    }
    expect((await s.server.api('GET', '/api/v2/ticks/batches/99999999')).status).toBe(404);
    expect((await s.server.api('GET', '/api/v2/ticks/batches/x')).status).toBe(400);
  });

  it('refuses another user (404) and bad ids (400)', async () => {
    expect((await receipt(settled.order_id, other.token)).status).toBe(404);
    expect((await receipt(999_999)).status).toBe(404);
    expect((await s.server.api('GET', '/api/platform/orders/abc/receipt', undefined, user.token)).status).toBe(400);
    expect((await s.server.api('GET', `/api/platform/orders/${settled.order_id}/receipt`)).status).toBe(401);
  });

  it('the chain verifies from batch 1, and `ticks verify` says so', async () => {
    await s.market.flush();
    const report = await verifyChain(s.server.ctx.db, 0);
    expect(report.broken).toBeNull();
    expect(report.batches).toBeGreaterThan(0);
    const first = await s.server.ctx.db.selectFrom('market_tick_batches').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    expect(first.prev_hash).toBe(GENESIS_HASH);
    const run = await admin(['ticks', 'verify']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('Chain OK');
  });

  it('the log is append-only: a batch row or a sealed tick cannot be changed', async () => {
    const db = s.server.ctx.db;
    await expect(db.updateTable('market_tick_batches').set({ tick_count: 99 }).where('id', '=', 1).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('market_tick_batches').where('id', '=', 1).execute()).rejects.toThrow(/append-only/);
    await expect(
      db.updateTable('market_ticks').set({ price: 9 }).where('pair_code', '=', 'GBPUSD').where('seq', '=', settled.exit_tick!.seq).execute(),
    ).rejects.toThrow(/do not change/);
  });

  it('a tampered tick breaks its batch: verify names it, and the receipt no longer verifies', async () => {
    const db = s.server.ctx.db;
    const r = (await receipt(settled.order_id)).body.data!.receipt;
    const batchId = r.exit_tick!.batch!.batch_id;
    // Someone with file access goes around the guard.
    await dropTrigger(db, 'market_ticks_sealed', 'market_ticks');
    await db.updateTable('market_ticks').set({ price: 1.3311 }).where('pair_code', '=', 'GBPUSD').where('seq', '=', settled.exit_tick!.seq).execute();
    const report = await verifyChain(db, 0);
    expect(report.broken).toEqual({ batch_id: batchId, reason: expect.stringContaining('tick_digest') });
    expect((await verifyReceipt(db, r)).join(' ')).toContain(`batch ${batchId}`);
    const run = await admin(['ticks', 'verify']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`BROKEN at batch ${batchId}`);
  });
});
