/**
 * Queries of the hot paths (order placement, settlement, the ledger, the outbox) built ONCE.
 *
 * Kysely builds an immutable operation tree on every call and compiles it to SQL: in the
 * placement profile that was as much CPU as SQLite executing the statements (docs/performance.md,
 * "Fifth pass: placement and settlement"). A prepared query is written with the typed Kysely
 * builder as usual, but its variable values are named slots; it is built and compiled once per
 * SQL dialect on first use, and every later call only fills the slots and runs the compiled SQL
 * (on SQLite, the statement cache then reuses the prepared statement too):
 *
 *     const findKey = prepared((db, p: { key: string }) =>
 *       db.selectFrom('ledger_transactions').select('id').where('idempotency_key', '=', p.key));
 *     const row = await findKey.first(trx, { key });
 *
 * A slot is a bound parameter, so the query's shape must not depend on the values: no slot in a
 * comparison with a value that can be null (`= null` is not `is null`), no slot for an `in`
 * list. A slot the call does not fill is an error, never a silent NULL.
 */
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import { dialectOf, heldSqliteOf, idleSqliteOf, type SqlDialect, type Trx } from './index';

/** A named placeholder standing in for a value while the query is built (`row`: of a multi-row query). */
class Slot {
  constructor(
    readonly name: string,
    readonly row = -1,
  ) {}
}

type Param = { slot: string; row: number } | { value: unknown };

interface Compiled {
  sql: string;
  query: CompiledQuery['query'];
  queryId: CompiledQuery['queryId'];
  params: Param[];
  /** SQLite: the statement prepared for it, per database (no lookup in the statement cache per run). */
  statements: WeakMap<SqliteDatabase, Statement>;
}

export interface PreparedQuery<P, O> {
  /** Every row the query returns. */
  all(trx: Trx, params: P): Promise<O[]>;
  /** The first row, or undefined. */
  first(trx: Trx, params: P): Promise<O | undefined>;
  /**
   * Run it: the rows (with `returning`), the number of rows changed and, for an insert on
   * SQLite, the new row's id (`insertId`: SQLite hands it over for free, where `returning` costs
   * as much as the insert itself; PostgreSQL has no such thing, so ask it with `returning`).
   */
  run(trx: Trx, params: P): Promise<{ rows: O[]; changes: number; insertId?: number }>;
  /** The SQL text for `dialect` (tests, EXPLAIN). */
  sqlFor(trx: Trx): string;
}

/** Slots named by the property read: `p.key` is the slot "key" (of row `row` in a multi-row query). */
const slotsOf = (row: number) =>
  new Proxy({} as Record<string, Slot>, {
    get: (_target, name) => (typeof name === 'string' ? new Slot(name, row) : undefined),
  });
const slots = slotsOf(-1);

function compile(query: Compilable<unknown>): Compiled {
  const q = query.compile();
  return {
    sql: q.sql,
    query: q.query,
    queryId: q.queryId,
    params: q.parameters.map((v) => (v instanceof Slot ? { slot: v.name, row: v.row } : { value: v })),
    statements: new WeakMap(),
  };
}

/** `c`'s statement on `raw`, prepared once (a statement stays valid while its database is open). */
function statementOf(raw: SqliteDatabase, c: Compiled): Statement {
  let stmt = c.statements.get(raw);
  // A busy statement (an iterator over it still open) is never run twice at once.
  if (stmt === undefined || stmt.busy) {
    stmt = raw.prepare(c.sql);
    c.statements.set(raw, stmt);
  }
  return stmt;
}

/** Run `c` with its slots filled from `valueOf(slot, row)`. */
function execute<O>(trx: Trx, c: Compiled, valueOf: (slot: string, row: number) => unknown): Promise<QueryResult<O>> {
  const parameters = new Array<unknown>(c.params.length);
  for (let i = 0; i < c.params.length; i++) {
    const p = c.params[i];
    if ('value' in p) {
      parameters[i] = p.value;
      continue;
    }
    const v = valueOf(p.slot, p.row);
    if (v === undefined) throw new Error(`Prepared query: no value for slot "${p.slot}"${p.row >= 0 ? ` of row ${p.row}` : ''}`);
    parameters[i] = v;
  }
  // SQLite, inside a write transaction (index.ts heldSqliteOf) or with none open on the
  // connection (idleSqliteOf): run on the connection at once, synchronously.
  const raw = heldSqliteOf(trx) ?? idleSqliteOf(trx);
  if (raw) {
    const stmt = statementOf(raw, c);
    if (stmt.reader) return Promise.resolve<QueryResult<O>>({ rows: stmt.all(parameters) as O[] });
    const r = stmt.run(parameters);
    return Promise.resolve<QueryResult<O>>({ rows: [], numAffectedRows: BigInt(r.changes), insertId: BigInt(r.lastInsertRowid) });
  }
  const query: CompiledQuery<O> = { sql: c.sql, query: c.query, queryId: c.queryId, parameters };
  return trx.executeQuery<O>(query);
}

/** SQLite reports no count for a statement with `returning` (it is read like a select): its rows are the rows changed. */
const changesOf = <O>(r: QueryResult<O>) => ({
  rows: r.rows,
  changes: r.numAffectedRows !== undefined ? Number(r.numAffectedRows) : r.rows.length,
  ...(r.insertId !== undefined ? { insertId: Number(r.insertId) } : {}),
});

export function prepared<P extends Record<string, unknown>, O>(build: (db: Trx, p: P) => Compilable<O>): PreparedQuery<P, O> {
  const byDialect = new Map<SqlDialect, Compiled>();
  const compiledFor = (trx: Trx): Compiled => {
    const dialect = dialectOf(trx);
    let c = byDialect.get(dialect);
    if (!c) byDialect.set(dialect, (c = compile(build(trx, slots as unknown as P))));
    return c;
  };
  const run = (trx: Trx, params: P) => execute<O>(trx, compiledFor(trx), (slot) => params[slot]);
  return {
    all: async (trx, params) => (await run(trx, params)).rows,
    first: async (trx, params) => (await run(trx, params)).rows[0],
    run: async (trx, params) => changesOf(await run(trx, params)),
    sqlFor: (trx) => compiledFor(trx).sql,
  };
}

export interface PreparedRowsQuery<R, O> {
  /** Run it for `rows` (at least one): the rows it returns (with `returning`) and the number of rows changed. */
  run(trx: Trx, rows: readonly R[]): Promise<{ rows: O[]; changes: number }>;
  /** The SQL text for `count` rows (tests). */
  sqlFor(trx: Trx, count: number): string;
}

/** Rows per statement of a multi-row query (a power of two); more are sent as several statements. */
export const MAX_ROWS_PER_STATEMENT = 32;

/**
 * A multi-row query (`insert ... values (...), (...)`), built as `prepared` is but once per
 * dialect and row count. The rows are sent in statements of power-of-two sizes up to
 * MAX_ROWS_PER_STATEMENT (25 rows: 16 + 8 + 1), so at most six shapes are ever compiled (each
 * costs a few milliseconds the first time). `build` gets one slot object per row; the query's
 * shape may depend on nothing else.
 *
 *     const insertSeals = preparedRows((db, rows: { id: number; at: number }[]) =>
 *       db.insertInto('ledger_seals').values(rows.map((r) => ({ ledger_tx_id: r.id, created_at: r.at }))));
 */
export function preparedRows<R extends Record<string, unknown>, O>(build: (db: Trx, rows: R[]) => Compilable<O>): PreparedRowsQuery<R, O> {
  const byShape = new Map<string, Compiled>();
  const compiledFor = (trx: Trx, count: number): Compiled => {
    const key = `${dialectOf(trx)}:${count}`;
    let c = byShape.get(key);
    if (!c) {
      const rowSlots = Array.from({ length: count }, (_, i) => slotsOf(i) as unknown as R);
      byShape.set(key, (c = compile(build(trx, rowSlots))));
    }
    return c;
  };
  return {
    run: async (trx, rows) => {
      if (rows.length === 0) throw new Error('Prepared multi-row query: no rows');
      const out: O[] = [];
      let changes = 0;
      for (let from = 0; from < rows.length; ) {
        // The largest power of two that fits: a handful of shapes to compile, whatever the count.
        let count = MAX_ROWS_PER_STATEMENT;
        while (count > rows.length - from) count >>= 1;
        const part = rows.slice(from, (from += count));
        const r = changesOf(await execute<O>(trx, compiledFor(trx, count), (slot, row) => part[row]?.[slot]));
        for (const row of r.rows) out.push(row);
        changes += r.changes;
      }
      return { rows: out, changes };
    },
    sqlFor: (trx, count) => compiledFor(trx, count).sql,
  };
}
