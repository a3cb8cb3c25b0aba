/**
 * The orders area's queries: the only place that reads or writes `orders`, `pair_exposure` (the
 * open real orders per pair, direction and currency, kept by triggers on `orders`: migration 008)
 * and `risk_limits` (the operator's per-pair limits). Every function takes the handle first: the
 * database for a read outside a transaction, or the running transaction's `trx`.
 *
 * The statements of the hot paths (placement, settlement) are prepared queries
 * (server/db/prepared.ts), built and compiled once per dialect; each call only fills their slots.
 * Queries on `orders` that search by something other than the primary key compare the status
 * with a SQL literal (`OPEN`, `CLOSED`: wire.ts), so SQLite plans them once.
 *
 * The lock on the pair's row that serializes real placements on PostgreSQL (exposure.ts) is the
 * market's (market/repository.ts `lockPairRow`), the ledger's total under an order's key
 * (verify.ts) the ledger's (ledger.ts `ledgerSum`). The reads other areas need: the tick log's highest recorded order ticks and the retention
 * floor (market), the trading journal's aggregates (statistics), a settled order's notice
 * (Telegram), the operator's P&L and order lookups (CLI).
 */
import { sql, type Insertable } from 'kysely';
import { dialectOf, forUpdate, type Trx } from '../../db';
import { prepared } from '../../db/prepared';
import type { OrdersTable } from '../../db/tables/orders';
import { CLOSED, OPEN, type OrderRow } from './wire';

// ---- placement --------------------------------------------------------------------------------

// Built once (server/db/prepared.ts): placement is the hottest request.
const orderByRequestId = prepared((db, p: { user_id: number; request_id: string }) =>
  db.selectFrom('orders').selectAll().where('user_id', '=', p.user_id).where('client_request_id', '=', p.request_id),
);

/** The user's order placed with this client_request_id, if any. */
export function findOrderByRequestId(trx: Trx, userId: number, requestId: string): Promise<OrderRow | undefined> {
  return orderByRequestId.first(trx, { user_id: userId, request_id: requestId });
}

export type NewOrder = Omit<Insertable<OrdersTable>, 'id' | 'status' | 'result' | 'close_reason' | 'close_price' | 'exit_tick_time' | 'exit_tick_seq' | 'payout' | 'closed_at'> & {
  client_request_id: string | null;
};
/** What a new order is besides its own values: open, nothing about its close yet. */
const NEW_ORDER_STATE = {
  status: 'open',
  result: null,
  close_reason: null,
  close_price: null,
  exit_tick_time: null,
  exit_tick_seq: null,
  payout: null,
  closed_at: null,
} as const;

const insertOrder = prepared((db, p: NewOrder) => {
  const insert = db.insertInto('orders').values({
    user_id: p.user_id,
    client_request_id: p.client_request_id,
    pair_code: p.pair_code,
    pair_human_code: p.pair_human_code,
    direction: p.direction,
    account: p.account,
    currency: p.currency,
    stake: p.stake,
    payout_rate_bp: p.payout_rate_bp,
    price_precision: p.price_precision,
    expiry_seconds: p.expiry_seconds,
    accepted_at: p.accepted_at,
    expires_at: p.expires_at,
    open_price: p.open_price,
    entry_tick_time: p.entry_tick_time,
    entry_tick_seq: p.entry_tick_seq,
    ...NEW_ORDER_STATE,
  });
  // SQLite hands over the new id with the insert; `returning` would cost as much as the insert.
  return dialectOf(db) === 'postgres' ? insert.returning('id') : insert;
});

/**
 * Insert a new open order and answer the row as stored: every column is what was written, the
 * defaults the insert leaves out (`is_manual`) as the schema sets them, and the id the database
 * gave it (no second read; tests/server/order-insert.test.ts compares it with the stored row).
 */
export async function storeOrder(trx: Trx, order: NewOrder): Promise<OrderRow> {
  const { rows, insertId } = await insertOrder.run(trx, order);
  const id = Number((rows[0] as { id?: number } | undefined)?.id ?? insertId);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error('The order insert gave no id');
  return { id, ...order, ...NEW_ORDER_STATE, is_manual: 0 };
}

// ---- risk (exposure.ts) -----------------------------------------------------------------------

/** Open real orders per pair, direction and currency: their count, stakes and what they pay if they win. */
export interface AggregateRow {
  pair_code: string;
  direction: string;
  currency: string;
  n: number;
  stakes: number;
  payouts: number;
}

/** Open real orders grouped by pair, direction and currency (one pair, or all), from the orders themselves. */
export async function openAggregates(trx: Trx, pairCode?: string): Promise<AggregateRow[]> {
  let q = trx
    .selectFrom('orders')
    .select((eb) => [
      'pair_code',
      'direction',
      'currency',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('stake').as('stakes'),
      // winPayout (pricing.ts) in integer SQL: stake + floor(stake x rate_bp / 10000).
      eb.fn.sum<number>(eb(eb.ref('stake'), '+', eb(eb(eb.ref('stake'), '*', eb.ref('payout_rate_bp')), '/', eb.lit(10000)))).as('payouts'),
    ])
    .where('status', '=', OPEN)
    .where('account', '=', 'real');
  if (pairCode !== undefined) q = q.where('pair_code', '=', pairCode);
  const rows = await q.groupBy(['pair_code', 'direction', 'currency']).execute();
  return rows.map((r) => ({ ...r, n: Number(r.n), stakes: Number(r.stakes), payouts: Number(r.payouts) }));
}

/** The same figures from `pair_exposure` (kept by triggers): one pair, or all. */
export async function keptAggregates(trx: Trx, pairCode?: string): Promise<AggregateRow[]> {
  let q = trx
    .selectFrom('pair_exposure')
    .select(['pair_code', 'direction', 'currency', 'open_count as n', 'stakes', 'payouts'])
    .where('open_count', '>', 0);
  if (pairCode !== undefined) q = q.where('pair_code', '=', pairCode);
  const rows = await q.execute();
  return rows.map((r) => ({ ...r, n: Number(r.n), stakes: Number(r.stakes), payouts: Number(r.payouts) }));
}

/** The operator's limit of a pair, USD cents, when it has one. */
export function riskLimitOf(trx: Trx, pairCode: string): Promise<{ max_loss_usd_minor: number } | undefined> {
  return trx.selectFrom('risk_limits').select('max_loss_usd_minor').where('pair_code', '=', pairCode).executeTakeFirst();
}

export interface RiskLimitRow {
  pair_code: string;
  max_loss_usd_minor: number;
  updated_at: number;
}

export async function listPairLimits(trx: Trx): Promise<RiskLimitRow[]> {
  const rows = await trx.selectFrom('risk_limits').selectAll().orderBy('pair_code').execute();
  return rows.map((r) => ({ ...r, max_loss_usd_minor: Number(r.max_loss_usd_minor), updated_at: Number(r.updated_at) }));
}

export async function setPairLimit(trx: Trx, pairCode: string, usdMinor: number, now: number): Promise<void> {
  await trx
    .insertInto('risk_limits')
    .values({ pair_code: pairCode, max_loss_usd_minor: usdMinor, updated_at: now })
    .onConflict((oc) => oc.column('pair_code').doUpdateSet({ max_loss_usd_minor: usdMinor, updated_at: now }))
    .execute();
}

/** True when the pair had an override. */
export async function clearPairLimit(trx: Trx, pairCode: string): Promise<boolean> {
  const r = await trx.deleteFrom('risk_limits').where('pair_code', '=', pairCode).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

// ---- settlement (settlement.ts, settle-batch.ts) ----------------------------------------------

/** The columns settling an order reads (a batch reads only these). */
export const SETTLE_COLUMNS = [
  'id',
  'user_id',
  'status',
  'direction',
  'account',
  'currency',
  'stake',
  'payout_rate_bp',
  'price_precision',
  'open_price',
  'entry_tick_seq',
  'expires_at',
] as const;
export type SettleRow = Pick<OrderRow, (typeof SETTLE_COLUMNS)[number]>;

/** An open order by id, locked for the transaction on PostgreSQL; undefined when it is not open. */
export function openOrderForUpdate(trx: Trx, orderId: number): Promise<OrderRow | undefined> {
  return forUpdate(trx, trx.selectFrom('orders').selectAll().where('id', '=', orderId).where('status', '=', 'open')).executeTakeFirst();
}

/** What closing an order at settlement writes (its status: `closed`). */
export type CloseValues = Pick<OrderRow, 'id' | 'result' | 'close_reason' | 'close_price' | 'exit_tick_time' | 'exit_tick_seq' | 'payout' | 'closed_at'> & {
  status: string;
};

// Built once (server/db/prepared.ts): runs for every order of a burst.
const closeOpenOrderQuery = prepared((db, p: CloseValues) =>
  db
    .updateTable('orders')
    .set({
      status: p.status,
      result: p.result,
      close_reason: p.close_reason,
      close_price: p.close_price,
      exit_tick_time: p.exit_tick_time,
      exit_tick_seq: p.exit_tick_seq,
      payout: p.payout,
      closed_at: p.closed_at,
    })
    .where('id', '=', p.id)
    .where('status', '=', 'open'),
);

/** Close the order `values.id` if it is still open; `changes` is 1 when this call closed it. */
export function closeOpenOrder(trx: Trx, values: CloseValues): Promise<{ changes: number }> {
  return closeOpenOrderQuery.run(trx, values);
}

/**
 * The open orders by expiry (those due by `dueBy` when given): the scheduler's start and its
 * cluster scan. Searches the open orders' partial index (`OPEN` is a literal: wire.ts).
 */
export function openOrdersQuery(db: Trx, dueBy?: number) {
  const q = db.selectFrom('orders').select(['id', 'pair_code', 'expires_at']).where('status', '=', OPEN);
  return (dueBy === undefined ? q : q.where('expires_at', '<=', dueBy)).orderBy('expires_at');
}

/** Every open order (id, pair, expiry), by expiry. */
export function openOrders(db: Trx): Promise<Pick<OrderRow, 'id' | 'pair_code' | 'expires_at'>[]> {
  return openOrdersQuery(db).execute();
}

/** At most `limit` open orders due by `dueBy`, by expiry. */
export function dueOpenOrders(db: Trx, dueBy: number, limit: number): Promise<Pick<OrderRow, 'id' | 'pair_code' | 'expires_at'>[]> {
  return openOrdersQuery(db, dueBy).limit(limit).execute();
}

/** Orders read (and in a cluster claimed) per query while a settlement batch runs. */
export const READ_CHUNK = 50;

/**
 * The rows of `orders` (closed ones included: applySettlement skips them), in one query, not
 * one per order. Only the primary key is in the condition: with `status = 'open'` beside an
 * `in` list SQLite searched the (status, expires_at) index, i.e. walked every open order for each
 * chunk (1 ms a chunk at 10,000 open orders; tests/server/hot-path-plans.test.ts). In a cluster
 * (PostgreSQL) they are locked FOR UPDATE SKIP LOCKED: an order another node is settling right
 * now is left out, not waited for.
 */
export function batchRowsQuery(trx: Trx, ids: readonly number[], cluster: boolean) {
  const q = trx.selectFrom('orders').select(SETTLE_COLUMNS).where('id', 'in', ids);
  return cluster ? q.forUpdate().skipLocked() : q;
}

// The chunk read as prepared queries (server/db/prepared.ts): always READ_CHUNK slots, a shorter
// chunk repeats its first id (the same row once), so one compiled text serves every chunk.
type ChunkIds = Record<`id${number}`, number>;
const slotsOf = (p: ChunkIds) => Array.from({ length: READ_CHUNK }, (_, i) => p[`id${i}`]);
const chunkRows = prepared((db, p: ChunkIds) => batchRowsQuery(db, slotsOf(p), false));
const claimChunkRows = prepared((db, p: ChunkIds) => batchRowsQuery(db, slotsOf(p), true));

/** The settle columns of at most READ_CHUNK orders (claimed in a cluster), by id. */
export async function settleRowsByIds(trx: Trx, orders: readonly { id: number }[], cluster: boolean): Promise<Map<number, SettleRow>> {
  const params: ChunkIds = {};
  for (let i = 0; i < READ_CHUNK; i++) params[`id${i}`] = (orders[i] ?? orders[0]).id;
  const rows = await (cluster ? claimChunkRows : chunkRows).all(trx, params);
  return new Map(rows.map((r) => [Number(r.id), r]));
}

// ---- early close ------------------------------------------------------------------------------

/** What an early close writes besides `status = 'closed'`, `result = 'closed_early'`, `close_reason = 'early_close'`. */
export interface EarlyClose {
  close_price: number;
  exit_tick_time: number;
  exit_tick_seq: number;
  payout: number;
  closed_at: number;
}

/** Close an open order early (a manual close); true when this call closed it. */
export async function closeEarly(trx: Trx, orderId: number, close: EarlyClose): Promise<boolean> {
  const updated = await trx
    .updateTable('orders')
    .set({
      status: 'closed',
      result: 'closed_early',
      close_reason: 'early_close',
      close_price: close.close_price,
      exit_tick_time: close.exit_tick_time,
      exit_tick_seq: close.exit_tick_seq,
      payout: close.payout,
      closed_at: close.closed_at,
      is_manual: 1,
    })
    .where('id', '=', orderId)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

// ---- reading orders ---------------------------------------------------------------------------

/** One order by id, or undefined. */
export function findOrder(db: Trx, orderId: number): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
}

/** One order by id that must exist (Kysely's NoResultError otherwise). */
export function requireOrder(db: Trx, orderId: number): Promise<OrderRow> {
  return db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
}

/** One order of its owner, or undefined (another user's order or an unknown id). */
export function findOwnOrder(db: Trx, userId: number, orderId: number): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', orderId).where('user_id', '=', userId).executeTakeFirst();
}

/** The pair of an order, or undefined when there is no such order. */
export async function orderPairCode(db: Trx, orderId: number): Promise<string | undefined> {
  const row = await db.selectFrom('orders').select('pair_code').where('id', '=', orderId).executeTakeFirst();
  return row?.pair_code;
}

/** Orders by id (any number: 500 ids a query), each mapped by `map` and keyed by id; missing ids are absent. */
export async function ordersByIds<T>(db: Trx, orderIds: readonly number[], map: (row: OrderRow) => T): Promise<Map<number, T>> {
  const out = new Map<number, T>();
  for (let i = 0; i < orderIds.length; i += 500) {
    const rows = await db.selectFrom('orders').selectAll().where('id', 'in', orderIds.slice(i, i + 500)).execute();
    for (const row of rows) out.set(row.id, map(row));
  }
  return out;
}

/** Which of a user's orders a list shows (absent: any). */
export interface UserOrderFilter {
  status?: 'open' | 'closed';
  pairCode?: string;
  currency?: string;
  /** Ledger account: real | demo. */
  account?: string;
}

/** One page of a user's orders, newest first (highest id first), and how many match in all. */
export async function pageOfUserOrders(
  db: Trx,
  userId: number,
  filter: UserOrderFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: OrderRow[]; total: number }> {
  let base = db.selectFrom('orders').where('user_id', '=', userId);
  if (filter.status !== undefined) base = base.where('status', '=', filter.status === 'open' ? OPEN : CLOSED);
  if (filter.pairCode !== undefined) base = base.where('pair_code', '=', filter.pairCode);
  if (filter.currency !== undefined) base = base.where('currency', '=', filter.currency);
  if (filter.account !== undefined) base = base.where('account', '=', filter.account);
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  return { rows, total: Number(count.n) };
}

/** Acceptance time of the oldest open order (ticks from then on are still needed), or null: the tick log's retention floor. */
export async function earliestOpenAcceptedAt(db: Trx): Promise<number | null> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.min('accepted_at').as('t'))
    .where('status', '=', OPEN)
    .executeTakeFirst();
  return row?.t === null || row?.t === undefined ? null : Number(row.t);
}

// ---- reads for other areas --------------------------------------------------------------------

/** Market (tick-log.ts `highestOrderTicks`): per pair the highest entry tick seq any order recorded. */
export function highestEntrySeqs(db: Trx) {
  return db
    .selectFrom('orders')
    .select((eb) => ['pair_code', eb.fn.max('entry_tick_seq').as('seq')])
    .groupBy('pair_code')
    .execute();
}

/** Market: the time and price an order recorded for its entry tick `seq` of the pair. */
export function entryTickOf(db: Trx, pairCode: string, seq: number) {
  return db
    .selectFrom('orders')
    .select(['entry_tick_time', 'open_price'])
    .where('pair_code', '=', pairCode)
    .where('entry_tick_seq', '=', seq)
    .limit(1)
    .executeTakeFirst();
}

/** Market: per pair the highest exit tick seq any order recorded. */
export function highestExitSeqs(db: Trx) {
  return db
    .selectFrom('orders')
    .select((eb) => ['pair_code', eb.fn.max('exit_tick_seq').as('seq')])
    .where('exit_tick_seq', 'is not', null)
    .groupBy('pair_code')
    .execute();
}

/** Market: the time and price an order recorded for its exit tick `seq` of the pair. */
export function exitTickOf(db: Trx, pairCode: string, seq: number) {
  return db
    .selectFrom('orders')
    .select(['exit_tick_time', 'close_price'])
    .where('pair_code', '=', pairCode)
    .where('exit_tick_seq', '=', seq)
    .where('close_price', 'is not', null)
    .limit(1)
    .executeTakeFirst();
}

/** Telegram (profile/telegram-notify.ts): what the message about a settled order tells, for its owner only (undefined otherwise). */
export function settledOrderForMessage(db: Trx, orderId: number, userId: number) {
  return db
    .selectFrom('orders')
    .select(['id', 'pair_human_code', 'direction', 'account', 'currency', 'stake', 'payout'])
    .where('id', '=', orderId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Journal: the results that count as trades (settled with a trading outcome; refunds are not trades). */
export const JOURNAL_RESULTS = ['won', 'lost', 'tie', 'closed_early'] as const;

const wins = sql<number>`sum(case when result = 'won' then 1 else 0 end)`;
const losses = sql<number>`sum(case when result = 'lost' then 1 else 0 end)`;
const net = sql<number>`sum(coalesce(payout, 0) - stake)`;
const trades = sql<number>`count(*)`;

/**
 * Journal (statistics/journal.ts): the owner's orders settled from `from` (null: ever) up to
 * `now` with a result of JOURNAL_RESULTS, summed per account and currency (`totals`), by pair, by
 * expiry and by quarter hour (`quarterMs`) of the opening; `sequence` is the won/lost results in
 * closing order (for the streaks).
 */
export async function settledOrderAggregates(db: Trx, userId: number, from: number | null, now: number, quarterMs: number) {
  const settled = () => {
    let q = db
      .selectFrom('orders')
      .where('user_id', '=', userId)
      .where('status', '=', CLOSED)
      .where('result', 'in', [...JOURNAL_RESULTS])
      .where('closed_at', '<=', now);
    if (from !== null) q = q.where('closed_at', '>=', from);
    return q;
  };

  const totals = await settled()
    .select([
      'account',
      'currency',
      trades.as('trades'),
      wins.as('wins'),
      losses.as('losses'),
      sql<number>`sum(case when result = 'tie' then 1 else 0 end)`.as('ties'),
      sql<number>`sum(case when result = 'closed_early' then 1 else 0 end)`.as('closed_early'),
      net.as('net'),
      sql<number>`sum(stake)`.as('stake'),
      sql<number>`sum(case when result in ('won', 'lost') then stake else 0 end)`.as('decided_stake'),
      sql<number>`sum(case when result in ('won', 'lost') then stake * payout_rate_bp else 0 end)`.as('weighted_bp'),
    ])
    .groupBy(['account', 'currency'])
    .execute();

  const byPair = await settled()
    .select(['account', 'currency', 'pair_code', sql<string>`max(pair_human_code)`.as('pair_human_code'), trades.as('trades'), wins.as('wins'), losses.as('losses'), net.as('net')])
    .groupBy(['account', 'currency', 'pair_code'])
    .execute();

  const byExpiry = await settled()
    .select(['account', 'currency', 'expiry_seconds', trades.as('trades'), wins.as('wins'), losses.as('losses'), net.as('net')])
    .groupBy(['account', 'currency', 'expiry_seconds'])
    .execute();

  // Quarter-hour buckets of the opening time in SQL (the caller names each bucket's local hour).
  const quarter = sql<number>`accepted_at / ${sql.lit(quarterMs)}`;
  const byQuarter = await settled()
    .select(['account', 'currency', quarter.as('quarter'), trades.as('trades'), wins.as('wins'), losses.as('losses'), net.as('net')])
    .groupBy(['account', 'currency', quarter])
    .execute();

  const sequence = await settled()
    .where('result', 'in', ['won', 'lost'])
    .select(['account', 'currency', 'result'])
    .orderBy('closed_at')
    .orderBy('id')
    .execute();

  return { totals, byPair, byExpiry, byQuarter, sequence };
}

/** CLI `pnl`: closed orders in [fromMs, toMs) per day number (closed_at / dayMs), pair, account and currency. */
export async function closedOrdersByDay(db: Trx, fromMs: number, toMs: number, dayMs: number) {
  // The day as a day number (integer division on both dialects).
  const rows = await sql<{ day: number; pair: string; account: string; currency: string; orders: number; stakes: number; payouts: number }>`
    select closed_at / ${sql.lit(dayMs)} as day, pair_code as pair, account, currency,
           count(*) as orders, sum(stake) as stakes, sum(coalesce(payout, 0)) as payouts
    from orders
    where status = 'closed' and closed_at >= ${fromMs} and closed_at < ${toMs}
    group by day, pair_code, account, currency
    order by day, pair_code, account, currency
  `.execute(db);
  return rows.rows;
}

/** The console's dashboard: open orders, and those past their expiry by more than `graceMs` (settlement behind). */
export async function openAndOverdueCounts(db: Trx, now: number, graceMs: number): Promise<{ open: number; overdue: number }> {
  const r = await db
    .selectFrom('orders')
    .select((eb) => [eb.fn.countAll<number>().as('open'), eb.fn.sum<number>(eb.case().when('expires_at', '<', now - graceMs).then(1).else(0).end()).as('overdue')])
    .where('status', '=', OPEN)
    .executeTakeFirstOrThrow();
  return { open: Number(r.open), overdue: Number(r.overdue ?? 0) };
}
