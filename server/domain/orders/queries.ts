/**
 * Reading orders: one order of its owner (with the indicative close quote while open), the
 * filtered and paginated list, and the capped "all orders" list. Newest first everywhere
 * (highest id first: ids grow with acceptance).
 */
import { ORDERS_ALL_CAP, OrderErrorText, type ListOrdersQuery, type Order, type OrderDetails, type Pagination } from '../../../contract/orders';
import { notFound } from '../../http/errors';
import type { OrdersDeps } from './deps';
import { closeQuote } from './early-close';
import { ledgerAccount, toWireOrder, type OrderRow } from './wire';

export function wire(deps: OrdersDeps, row: OrderRow): Order {
  return toWireOrder(row, row.status === 'open' ? deps.market.latestTick(row.pair_code) : undefined);
}

export async function getOrder(deps: OrdersDeps, userId: number, orderId: number): Promise<OrderDetails> {
  const row = await deps.db.selectFrom('orders').selectAll().where('id', '=', orderId).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw notFound(OrderErrorText.orderNotFound);
  return { ...wire(deps, row), close_quote: closeQuote(deps, row) };
}

export async function listOrders(
  deps: OrdersDeps,
  userId: number,
  query: ListOrdersQuery,
): Promise<{ orders: Order[]; pagination: Pagination }> {
  let base = deps.db.selectFrom('orders').where('user_id', '=', userId);
  if (query.status !== 'all') base = base.where('status', '=', query.status);
  if (query.symbol !== undefined) base = base.where('pair_code', '=', query.symbol);
  if (query.currency !== undefined) base = base.where('currency', '=', query.currency);
  if (query.trading_account !== 'all') base = base.where('account', '=', ledgerAccount(query.trading_account));

  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(count.n);
  const rows = await base.selectAll().orderBy('id', 'desc').limit(query.limit).offset(query.offset).execute();
  const end = query.offset + rows.length;
  const hasMore = end < total;
  return {
    orders: rows.map((r) => wire(deps, r)),
    pagination: { total_count: total, limit: query.limit, offset: query.offset, has_more: hasMore, next_offset: hasMore ? end : null },
  };
}

/** Every order of the user, newest first, at most ORDERS_ALL_CAP. */
export async function listAllOrders(deps: OrdersDeps, userId: number): Promise<Order[]> {
  const rows = await deps.db
    .selectFrom('orders')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(ORDERS_ALL_CAP)
    .execute();
  return rows.map((r) => wire(deps, r));
}
