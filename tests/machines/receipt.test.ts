/**
 * Receipt dialog machine: generated paths (every state and transition), then the flow against a
 * stub fetch: the order id sent, the receipt kept, a failure with retry, and a late answer after
 * closing dropped.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fromPromise, type AnyEventObject } from 'xstate';
import type { OrderReceipt } from '../../contract/orders';
import { RECEIPT_FALLBACK, receiptMachine } from '../../machines/receipt/receipt.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';

const RECEIPT = {
  order_id: 7,
  pair_code: 'BTCUSD',
  pair_human_code: 'BTC/USD',
  direction: 'up',
  trading_account: 'DemoAccount',
  currency: 'USD',
  stake: 10,
  payout_rate: 0.85,
  status: 'closed',
  result: 'won',
  payout: 18.5,
  accepted_at: 1,
  expires_at: 5001,
  closed_at: 5001,
  entry_tick: { seq: 1, time: 1, price: 95000, batch: null },
  exit_tick: { seq: 9, time: 5000, price: 95010, batch: null },
  rule: 'last_tick_at_or_before_expiry',
  stale_limit_ms: 5000,
  simulated: false,
  chain_head: null,
} as unknown as OrderReceipt;

const events: AnyEventObject[] = [
  { type: 'receipt.opened' },
  { type: 'receipt.closed' },
  { type: 'receipt.retried' },
  { type: 'receipt.refreshed' },
  { type: 'xstate.done.actor.fetchReceipt', output: RECEIPT },
  { type: 'xstate.error.actor.fetchReceipt', error: { message: 'Order not found' } },
  { type: 'xstate.error.actor.fetchReceipt', error: {} },
];

const model: PathModel = { name: 'receipt', machine: receiptMachine, input: { orderId: 7 }, events };

describe('receipt machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('receipt'));
});

function start(outcomes: Array<() => Promise<OrderReceipt>>) {
  const asked: number[] = [];
  const machine = receiptMachine.provide({
    actors: {
      fetchReceipt: fromPromise<OrderReceipt, { orderId: number }>(({ input }) => {
        asked.push(input.orderId);
        const next = outcomes.shift();
        return next ? next() : Promise.resolve(RECEIPT);
      }),
    },
  });
  return { ...startUnderParent(machine, { orderId: 7 }), asked };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the receipt dialog flow', () => {
  it('fetches the order\'s receipt only when opened, and keeps it', async () => {
    const { actor, asked } = start([]);
    expect(actor.getSnapshot().value).toBe('closed');
    expect(asked).toEqual([]);
    actor.send({ type: 'receipt.opened' });
    expect(actor.getSnapshot().value).toBe('loading');
    await tick();
    expect(actor.getSnapshot().value).toBe('shown');
    expect(actor.getSnapshot().context.receipt).toBe(RECEIPT);
    expect(asked).toEqual([7]);
  });

  it('fails with the server text or the fallback, and retries', async () => {
    const { actor, asked } = start([() => Promise.reject(new Error('Order not found')), () => Promise.reject({}), () => Promise.resolve(RECEIPT)]);
    actor.send({ type: 'receipt.opened' });
    await tick();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe('Order not found');
    actor.send({ type: 'receipt.retried' });
    await tick();
    expect(actor.getSnapshot().context.error).toBe(RECEIPT_FALLBACK);
    actor.send({ type: 'receipt.retried' });
    await tick();
    expect(actor.getSnapshot().value).toBe('shown');
    expect(asked).toEqual([7, 7, 7]);
  });

  it('drops an answer that arrives after the dialog was closed', async () => {
    let resolve: (r: OrderReceipt) => void = () => undefined;
    const { actor } = start([() => new Promise<OrderReceipt>((r) => (resolve = r))]);
    actor.send({ type: 'receipt.opened' });
    actor.send({ type: 'receipt.closed' });
    resolve(RECEIPT);
    await tick();
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.receipt).toBeNull();
  });
});
