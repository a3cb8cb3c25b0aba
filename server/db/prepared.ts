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
import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import { dialectOf, heldSqliteOf, type SqlDialect, type Trx } from './index';

/** A named placeholder standing in for a value while the query is built. */
class Slot {
  constructor(readonly name: string) {}
}

type Param = { slot: string } | { value: unknown };

interface Compiled {
  sql: string;
  query: CompiledQuery['query'];
  queryId: CompiledQuery['queryId'];
  params: Param[];
}

export interface PreparedQuery<P, O> {
  /** Every row the query returns. */
  all(trx: Trx, params: P): Promise<O[]>;
  /** The first row, or undefined. */
  first(trx: Trx, params: P): Promise<O | undefined>;
  /** Run it: the rows (with `returning`) and the number of rows changed. */
  run(trx: Trx, params: P): Promise<{ rows: O[]; changes: number }>;
  /** The SQL text for `dialect` (tests, EXPLAIN). */
  sqlFor(trx: Trx): string;
}

const slots = new Proxy({} as Record<string, Slot>, {
  get: (_target, name) => (typeof name === 'string' ? new Slot(name) : undefined),
});

export function prepared<P extends Record<string, unknown>, O>(build: (db: Trx, p: P) => Compilable<O>): PreparedQuery<P, O> {
  const byDialect = new Map<SqlDialect, Compiled>();
  const compiledFor = (trx: Trx): Compiled => {
    const dialect = dialectOf(trx);
    let c = byDialect.get(dialect);
    if (!c) {
      const q = build(trx, slots as unknown as P).compile();
      c = {
        sql: q.sql,
        query: q.query,
        queryId: q.queryId,
        params: q.parameters.map((v) => (v instanceof Slot ? { slot: v.name } : { value: v })),
      };
      byDialect.set(dialect, c);
    }
    return c;
  };
  const execute = (trx: Trx, params: P) => {
    const c = compiledFor(trx);
    const parameters = new Array<unknown>(c.params.length);
    for (let i = 0; i < c.params.length; i++) {
      const p = c.params[i];
      if ('value' in p) {
        parameters[i] = p.value;
        continue;
      }
      const v = params[p.slot];
      if (v === undefined) throw new Error(`Prepared query: no value for slot "${p.slot}"`);
      parameters[i] = v;
    }
    // Inside a SQLite write transaction: run on the held connection at once (index.ts heldSqliteOf).
    const held = heldSqliteOf(trx);
    if (held) {
      const stmt = held.prepare(c.sql);
      if (stmt.reader) return Promise.resolve<QueryResult<O>>({ rows: stmt.all(parameters) as O[] });
      const r = stmt.run(parameters);
      return Promise.resolve<QueryResult<O>>({ rows: [], numAffectedRows: BigInt(r.changes) });
    }
    const query: CompiledQuery<O> = { sql: c.sql, query: c.query, queryId: c.queryId, parameters };
    return trx.executeQuery<O>(query);
  };
  return {
    all: async (trx, params) => (await execute(trx, params)).rows,
    first: async (trx, params) => (await execute(trx, params)).rows[0],
    run: async (trx, params) => {
      const r = await execute(trx, params);
      // SQLite reports no count for a statement with `returning` (it is read like a select): its rows are the rows changed.
      return { rows: r.rows, changes: r.numAffectedRows !== undefined ? Number(r.numAffectedRows) : r.rows.length };
    },
    sqlFor: (trx) => compiledFor(trx).sql,
  };
}
