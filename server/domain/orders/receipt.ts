/**
 * Order receipts (GET /api/platform/orders/{id}/receipt; docs/trading.md, "Receipts"): what a
 * trader needs to check a settlement without trusting the screen: the order's terms, its entry
 * and exit ticks (seq, ms time, price) each with the tick-log batch that sealed it (hashes of the
 * chain, docs/market.md), the exit rule applied and the result. `verifyReceipt` re-checks a
 * receipt against the database: both ticks in their batches, the batches intact, the chain
 * linked from the entry's batch to the exit's.
 */
import { findCurrency } from '../../../contract/currencies';
import { fromMinor } from '../../../contract/money';
import { OrderErrorText, type OrderReceipt, type ReceiptRule, type ReceiptTick } from '../../../contract/orders';
import type { DB, Trx } from '../../db';
import { notFound } from '../errors';
import { chainHead, linkOfTick, verifyLinks, verifyTickInChain } from '../market/tick-chain';
import type { Tick } from '../market/types';
import type { OrdersDeps } from './deps';
import { findOwnOrder } from './repository';
import { tradingAccountOf, type OrderRow } from './wire';

function ruleOf(row: OrderRow): ReceiptRule {
  if (row.status === 'open') return 'open';
  switch (row.close_reason) {
    case 'early_close':
      return 'early_close';
    case 'stale_quotes_at_expiry':
      return 'stale_at_expiry';
    case 'no_price_at_expiry':
      return 'no_price_at_expiry';
    default:
      return 'last_tick_at_or_before_expiry';
  }
}

async function receiptTick(db: DB | Trx, t: Tick): Promise<ReceiptTick> {
  return { seq: t.seq, time: t.time, price: t.price, batch: await linkOfTick(db, t.pair_code, t.seq) };
}

/** The receipt of one order of its owner (another user's order or an unknown id: 404). */
export async function orderReceipt(deps: OrdersDeps, userId: number, orderId: number): Promise<OrderReceipt> {
  const row = await findOwnOrder(deps.db, userId, orderId);
  if (!row) throw notFound(OrderErrorText.orderNotFound);
  // Seal whatever is still in memory, so both ticks of a just-placed or just-settled order have a batch.
  await deps.market.flush();
  const pair = row.pair_code;
  const decimals = findCurrency(row.currency)?.decimals ?? 2;
  const entry: Tick = { pair_code: pair, seq: Number(row.entry_tick_seq), time: Number(row.entry_tick_time), price: Number(row.open_price) };
  const exit: Tick | null =
    row.exit_tick_seq === null || row.exit_tick_time === null || row.close_price === null
      ? null
      : { pair_code: pair, seq: Number(row.exit_tick_seq), time: Number(row.exit_tick_time), price: Number(row.close_price) };
  const head = await chainHead(deps.db);
  return {
    order_id: row.id,
    pair_code: pair,
    pair_human_code: row.pair_human_code,
    direction: row.direction as OrderReceipt['direction'],
    trading_account: tradingAccountOf(row.account),
    currency: row.currency,
    stake: fromMinor(Number(row.stake), decimals),
    payout_rate: Number(row.payout_rate_bp) / 10_000,
    status: row.status as OrderReceipt['status'],
    result: (row.result as OrderReceipt['result']) ?? null,
    payout: row.status === 'closed' ? fromMinor(Number(row.payout ?? 0), decimals) : null,
    accepted_at: Number(row.accepted_at),
    expires_at: Number(row.expires_at),
    closed_at: row.closed_at === null ? null : Number(row.closed_at),
    entry_tick: await receiptTick(deps.db, entry),
    exit_tick: exit ? await receiptTick(deps.db, exit) : null,
    rule: ruleOf(row),
    stale_limit_ms: deps.market.staleLimitMs(pair),
    simulated: deps.market.isSimulated(pair),
    chain_head: head?.hash ?? null,
  };
}

/** Re-check a receipt against the log; returns the problems found (empty: it verifies). */
export async function verifyReceipt(db: DB | Trx, r: OrderReceipt): Promise<string[]> {
  const problems: string[] = [];
  const ticks: Array<[string, ReceiptTick | null]> = [
    ['entry', r.entry_tick],
    ['exit', r.exit_tick],
  ];
  for (const [name, t] of ticks) {
    if (!t) continue;
    if (!t.batch) {
      problems.push(`the ${name} tick is not sealed in the chain`);
      continue;
    }
    const why = await verifyTickInChain(db, { pair_code: r.pair_code, seq: t.seq, time: t.time, price: t.price }, t.batch);
    if (why) problems.push(`${name}: ${why}`);
  }
  const from = r.entry_tick.batch?.batch_id;
  const to = r.exit_tick?.batch?.batch_id;
  if (from !== undefined && to !== undefined) {
    const why = await verifyLinks(db, from, to);
    if (why) problems.push(why);
  }
  return problems;
}
