/**
 * The PostgreSQL side of the database (docs/database.md): the `pg` pool behind Kysely's
 * PostgresDialect, its type parsing, and which errors make a transaction worth running again.
 *
 * Type parsing is set on this pool only (the pool's `types` option), never in pg's global
 * registry: `int8` (bigint columns, count(*), sum of integers) and `numeric` (sum of bigints)
 * come back as JS numbers, checked to be safe integers; any other value (a fraction, a number
 * past 2^53) makes the query fail with UnsafeIntegerError instead of silently losing precision.
 */
import pg from 'pg';

/** PostgreSQL type ids (pg_type.oid) parsed here. */
export const INT8_OID = 20;
export const NUMERIC_OID = 1700;

/** A bigint or numeric value that is not a safe JS integer: the query fails with this. */
export class UnsafeIntegerError extends RangeError {
  constructor(readonly text: string) {
    super(`PostgreSQL returned ${text}, which is not a safe integer (money and times are whole numbers below 2^53)`);
  }
}

export function parseSafeInteger(text: string): number {
  // Only digits with an optional sign: a fraction ("1.5"), an exponent or NaN is refused.
  const n = /^-?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n)) throw new UnsafeIntegerError(text);
  return n;
}

/** The pool's type parsers: int8 and numeric as safe integers, everything else as pg parses it. */
export const poolTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    if ((format ?? 'text') === 'text' && (oid === INT8_OID || oid === NUMERIC_OID)) return parseSafeInteger;
    return pg.types.getTypeParser(oid, (format ?? 'text') as 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** Longest wait for a connection (a new one, or a free one from a busy pool) before a query fails. */
export const CONNECT_TIMEOUT_MS = 5_000;

export function createPool(url: string, size: number): pg.Pool {
  // Without a connection timeout a query waits forever for a database that accepts the TCP
  // connection but never answers (pg's default is no limit): the request hangs instead of
  // failing with the envelope's 500. Keep-alive notices a peer that vanished.
  const pool = new pg.Pool({ connectionString: url, max: size, types: poolTypes, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
  // An idle connection that dies (server restart) must not crash the process; the pool drops it.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * SQLSTATEs after which the whole transaction is run again: a serialization failure, a deadlock
 * (one of the two transactions is chosen to fail) and a unique violation (a raced idempotency
 * key or request id: the retry sees the other writer's committed row and takes its idempotent
 * path; a real conflict fails the same way again and reaches the caller).
 */
export const RETRYABLE_SQLSTATES = new Set(['40001', '40P01', '23505']);

export function isRetryable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE_SQLSTATES.has(code);
}
