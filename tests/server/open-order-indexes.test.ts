/**
 * The open orders' partial indexes (migration 014): `orders` keeps its status indexes for the
 * open orders only, and the scheduler's queries (start, and the cluster's scan of due orders)
 * search them. On the project's database (SQLite on `node`, PostgreSQL on `server-pg`).
 */
import { CompiledQuery, sql, type Compilable } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { dialectOf, transaction, type DB } from '../../server/db';
import { openOrdersQuery } from '../../server/domain/orders/repository';
import { useTestDatabase } from '../support/test-database';

const database = useTestDatabase('open-idx');
let db: DB;
beforeAll(() => void (db = database.db));

const literal = (value: unknown) => (typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`);

/**
 * The query plan's text: on SQLite as the statement is prepared (its parameters unknown), on
 * PostgreSQL with the parameters inlined and sequential scans off (the table is tiny).
 */
async function plan(query: Compilable): Promise<string> {
  const { sql: text, parameters } = query.compile();
  if (dialectOf(db) === 'postgres') {
    const inlined = text.replace(/\$(\d+)/g, (_, i: string) => literal(parameters[Number(i) - 1]));
    return transaction(db, async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const rows = (await sql.raw(`explain ${inlined}`).execute(trx)).rows as Record<string, string>[];
      return rows.map((r) => Object.values(r).join(' ')).join('; ');
    });
  }
  // As better-sqlite3 runs it: the plan is made when the statement is prepared, before its values are bound.
  const rows = (await db.executeQuery(CompiledQuery.raw(`explain query plan ${text}`, [...parameters]))).rows as { detail: string }[];
  return rows.map((r) => r.detail).join('; ');
}

describe('open orders indexes', () => {
  it('orders has its status indexes for the open orders only', async () => {
    const rows =
      dialectOf(db) === 'postgres'
        ? (await sql<{ name: string; def: string }>`select indexname as name, indexdef as def from pg_indexes where tablename = 'orders'`.execute(db)).rows
        : (await sql<{ name: string; def: string | null }>`select name, sql as def from sqlite_master where type = 'index' and tbl_name = 'orders'`.execute(db)).rows;
    const byName = new Map(rows.map((r) => [r.name, r.def ?? '']));
    for (const name of ['orders_open_expiry', 'orders_open_pair']) expect(byName.get(name)).toMatch(/where.*status.*=.*'open'/i);
    // Migration 014 replaced the full ones (every close moved the order inside both).
    for (const gone of ['orders_status_expiry', 'orders_pair_status']) expect(byName.has(gone)).toBe(false);
  });

  it("the scheduler's start and due-order scan search the open orders' index", async () => {
    expect(await plan(openOrdersQuery(db))).toMatch(/orders_open_expiry/);
    expect(await plan(openOrdersQuery(db, Date.now()).limit(500))).toMatch(/orders_open_expiry/);
  });
});
