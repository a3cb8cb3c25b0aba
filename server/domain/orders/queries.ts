/**
 * Reading orders: one order of its owner (with the indicative close quote while open), its tick
 * log from entry to exit, the filtered and paginated list, and the "all orders" list (capped
 * per request, with a `truncated` flag). Newest first everywhere
 * (highest id first: ids grow with acceptance).
 */
import {
  OrderErrorText,
  type AllOrdersQuery,
  type ListOrdersQuery,
  type Order,
  type OrderDetails,
  type OrderTicksQuery,
  type OrderTicksResponse,
  type Pagination,
  type TickRef,
} from '../../../contract/orders';
import type { Tick } from '../market/types';
import { notFound } from '../errors';
import type { OrdersDeps } from './deps';
import { closeQuote } from './early-close';
import { findOwnOrder, pageOfUserOrders, type UserOrderFilter } from './repository';
import { ledgerAccount, toWireOrder, type OrderRow } from './wire';

export function wire(deps: OrdersDeps, row: OrderRow): Order {
  return toWireOrder(row, row.status === 'open' ? deps.market.latestTick(row.pair_code) : undefined, deps.fx.perUsd(row.currency));
}

/** One order of its owner; another user's order or an unknown id is 404 Order not found. */
async function ownOrder(deps: OrdersDeps, userId: number, orderId: number): Promise<OrderRow> {
  const row = await findOwnOrder(deps.db, userId, orderId);
  if (!row) throw notFound(OrderErrorText.orderNotFound);
  return row;
}

export async function getOrder(deps: OrdersDeps, userId: number, orderId: number): Promise<OrderDetails> {
  const row = await ownOrder(deps, userId, orderId);
  return { ...wire(deps, row), close_quote: closeQuote(deps, row) };
}

const tickRef = (t: Tick | undefined): TickRef | null => (t ? { seq: t.seq, time: t.time, price: t.price } : null);

/**
 * The tick log of one order's span: from its entry tick to its exit tick, or to the pair's
 * latest tick while it is open (a refunded order, which has no exit tick, to the last logged
 * tick at or before its expiry). Seqs are consecutive per pair, so what the log does not hold
 * is counted, and `pruned` says when retention deleted part of it.
 */
export async function orderTicks(deps: OrdersDeps, userId: number, orderId: number, query: OrderTicksQuery): Promise<OrderTicksResponse> {
  const row = await ownOrder(deps, userId, orderId);
  const order = wire(deps, row);
  const fromSeq = order.entry_tick.seq;
  let toSeq: number;
  if (order.exit_tick) toSeq = order.exit_tick.seq;
  else if (order.status === 'open') toSeq = deps.market.latestTick(row.pair_code)?.seq ?? fromSeq;
  else toSeq = (await deps.market.tickAtOrBefore(row.pair_code, Number(row.expires_at)))?.seq ?? fromSeq;
  toSeq = Math.max(fromSeq, toSeq);

  const span = await deps.market.tickSpan(row.pair_code, fromSeq, toSeq, { limit: query.limit, afterSeq: query.after_seq });
  const ticks = span.ticks.map((t) => tickRef(t)!);
  return {
    order_id: order.order_id,
    pair_code: order.pair_code,
    status: order.status,
    entry_tick: order.entry_tick,
    exit_tick: order.exit_tick,
    logged_entry_tick: tickRef(span.atFrom),
    logged_exit_tick: order.exit_tick ? tickRef(span.atTo) : null,
    from_seq: fromSeq,
    to_seq: toSeq,
    ticks,
    truncated: span.truncated,
    next_after_seq: span.truncated && ticks.length ? ticks[ticks.length - 1].seq : null,
    logged_count: span.logged,
    missing_count: toSeq - fromSeq + 1 - span.logged,
    pruned: span.pruned,
    retention_hours: span.retentionHours,
  };
}

export async function listOrders(
  deps: OrdersDeps,
  userId: number,
  query: ListOrdersQuery,
): Promise<{ orders: Order[]; pagination: Pagination }> {
  const filter: UserOrderFilter = {};
  if (query.status !== 'all') filter.status = query.status;
  if (query.symbol !== undefined) filter.pairCode = query.symbol;
  if (query.currency !== undefined) filter.currency = query.currency;
  if (query.trading_account !== 'all') filter.account = ledgerAccount(query.trading_account);
  return pageOfOrders(deps, userId, filter, query);
}

/** One page of the selected orders, newest first, with the spec's pagination block. */
async function pageOfOrders(
  deps: OrdersDeps,
  userId: number,
  filter: UserOrderFilter,
  page: { limit: number; offset: number },
): Promise<{ orders: Order[]; pagination: Pagination }> {
  const { rows, total } = await pageOfUserOrders(deps.db, userId, filter, page);
  const end = page.offset + rows.length;
  const hasMore = end < total;
  return {
    orders: rows.map((r) => wire(deps, r)),
    pagination: { total_count: total, limit: page.limit, offset: page.offset, has_more: hasMore, next_offset: hasMore ? end : null },
  };
}

/**
 * Every order of the user, newest first, a page at a time (at most ORDERS_ALL_CAP, the default):
 * `truncated` says that the user has more orders than this answer holds.
 */
export async function listAllOrders(
  deps: OrdersDeps,
  userId: number,
  query: AllOrdersQuery,
): Promise<{ orders: Order[]; truncated: boolean; pagination: Pagination }> {
  const page = await pageOfOrders(deps, userId, {}, query);
  return { orders: page.orders, truncated: page.pagination.has_more, pagination: page.pagination };
}
