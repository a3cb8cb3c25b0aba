/**
 * The two status indexes on `orders` become partial indexes of the open orders only:
 * `orders_status_expiry (status, expires_at)` -> `orders_open_expiry (expires_at) where status =
 * 'open'`, and `orders_pair_status (pair_code, status)` -> `orders_open_pair (pair_code) where
 * status = 'open'`. Their readers only ever ask for open orders (the settlement scheduler's start
 * and cluster scan, the oldest open order for the tick log's pruning, the exposure audit). A
 * full index moved every closing order from its 'open' to its 'closed' place in both B-trees
 * (a delete and an insert each, in the settlement burst's hottest statement) and grew with every
 * order ever placed; a partial one only drops the order, and holds as many rows as there are open
 * orders. It also ends two bad plans the full indexes invited: a trader's closed orders of one
 * pair (the orders list with a symbol) searched `orders_pair_status` (every closed order of the
 * pair, all users), and the trading journal searched `orders_status_expiry` (every closed order
 * of everyone); both now search the user's index. Queries name the status as a literal (`OPEN`,
 * `CLOSED` in server/domain/orders/wire.ts): with a bound status SQLite re-plans the statement
 * at every run to decide whether the partial index applies (docs/database.md).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists orders_status_expiry`.execute(db);
  await sql`drop index if exists orders_pair_status`.execute(db);
  await sql`create index orders_open_expiry on orders (expires_at) where status = 'open'`.execute(db);
  await sql`create index orders_open_pair on orders (pair_code) where status = 'open'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists orders_open_expiry`.execute(db);
  await sql`drop index if exists orders_open_pair`.execute(db);
  await sql`create index if not exists orders_status_expiry on orders (status, expires_at)`.execute(db);
  await sql`create index if not exists orders_pair_status on orders (pair_code, status)`.execute(db);
}
