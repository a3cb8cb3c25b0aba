/**
 * The settlement scheduler on the real clock: an order settles at expiry as soon as a tick after
 * expiry proves the close price final, and after the grace period when no later tick comes.
 * (The other order tests move a hand-driven clock; this one waits real seconds.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../contract/orders';
import { SETTLEMENT_GRACE_MS } from '../../server/domain/orders/settlement';
import { balance, expectLedgerClean, makeUser, sleep, startOrdersServer, waitClosed, winCredit, type OrdersServer } from '../support/orders-harness';
import { auditLedgerAfterEach } from '../support/ledger-audit';

let s: OrdersServer;
beforeAll(async () => {
  s = await startOrdersServer({ clock: null });
});
afterAll(async () => {
  await s.server.close();
});
// The ledger audit after every test, and the real `audit` command when the server closes.
auditLedgerAfterEach(() => s);

async function settledAt(orderId: number): Promise<number> {
  const row = await s.server.ctx.db
    .selectFrom('domain_events')
    .select(['created_at', 'payload'])
    .where('type', '=', 'order.settled')
    .execute();
  const hit = row.find((r) => JSON.parse(r.payload).order_id === orderId);
  if (!hit) throw new Error(`no order.settled event for ${orderId}`);
  return Number(hit.created_at);
}

describe('settlement scheduler (real clock)', () => {
  it('settles on the first tick after expiry, or after the grace period without one', async () => {
    const user = await makeUser(s);
    s.feed.push('EURUSD', 1.16);
    s.feed.push('GBPUSD', 1.33);
    const place = async (pair_code: string) => {
      const r = await s.server.api<{ order: Order }>(
        'POST',
        '/api/v2/orders',
        { pair_code, direction: 'up', amount: 10, currency: 'USD', trading_account: 'DemoAccount', expiry: 5 },
        user.token,
      );
      expect(r.status).toBe(201);
      return r.body.data!.order;
    };
    const quiet = await place('EURUSD'); // no tick after entry: closes at the entry price after the grace
    const busy = await place('GBPUSD');

    await sleep(busy.expires_at_ms - Date.now() - 2000);
    const exit = s.feed.push('GBPUSD', 1.3301); // the last tick before expiry: the close price
    // EURUSD's last tick before expiry, within the stale limit (an older one would refund).
    const quietExit = s.feed.push('EURUSD', 1.16);
    await sleep(busy.expires_at_ms - Date.now() + 150);
    s.feed.push('GBPUSD', 1.3299); // after expiry: makes 1.3301 final
    await waitClosed(s, busy.order_id, 1000);
    await waitClosed(s, quiet.order_id, 4000);

    const busyAt = await settledAt(busy.order_id);
    expect(busyAt).toBeGreaterThanOrEqual(busy.expires_at_ms);
    expect(busyAt).toBeLessThan(busy.expires_at_ms + SETTLEMENT_GRACE_MS);
    const quietAt = await settledAt(quiet.order_id);
    expect(quietAt).toBeGreaterThanOrEqual(quiet.expires_at_ms + SETTLEMENT_GRACE_MS);

    const rows = await s.server.ctx.db
      .selectFrom('orders')
      .select(['id', 'result', 'close_price', 'exit_tick_seq', 'payout'])
      .where('id', 'in', [quiet.order_id, busy.order_id])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => ({ ...r, payout: Number(r.payout), exit_tick_seq: Number(r.exit_tick_seq) }))).toEqual([
      { id: quiet.order_id, result: 'tie', close_price: 1.16, exit_tick_seq: quietExit.seq, payout: 1000 },
      { id: busy.order_id, result: 'won', close_price: 1.3301, exit_tick_seq: exit.seq, payout: winCredit(1000, busy.payout_rate) },
    ]);
    expect(await balance(s, user.id, 'USD', 'demo')).toBe(1_000_000 - 2000 + 1000 + winCredit(1000, busy.payout_rate));
    await expectLedgerClean(s);
  });
});
