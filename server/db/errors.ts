/**
 * What a database error means, for both dialects. One home: every area asks here instead of
 * reading driver codes itself.
 */

/**
 * A unique-constraint violation: a unique index or a primary key on SQLite (better-sqlite3's
 * SQLITE_CONSTRAINT_UNIQUE / SQLITE_CONSTRAINT_PRIMARYKEY), or 23505 on PostgreSQL (both kinds).
 * A raced insert (a registration, an idempotent request retried) is told apart from a bug by it.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
