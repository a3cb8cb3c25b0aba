/**
 * Prepared statements kept across queries. Kysely's SQLite driver calls `db.prepare(sql)` for
 * every query it runs; preparing costs as much as running a small statement (the placement and
 * settlement profiles spent a third of their time in it). The database handed to Kysely is
 * wrapped so that `prepare` returns the statement prepared earlier for the same SQL text (at
 * most MAX_STATEMENTS kept, least recently used dropped first). A statement that is busy (an
 * iterator over it is still open) is never handed out twice: that call gets a fresh one.
 */
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';

export const MAX_STATEMENTS = 1000;

export function withStatementCache(db: SqliteDatabase, max = MAX_STATEMENTS): SqliteDatabase {
  const cache = new Map<string, Statement>();
  const prepare = (source: string): Statement => {
    const hit = cache.get(source);
    if (hit && !hit.busy) {
      // Most recently used goes last (Map keeps insertion order).
      cache.delete(source);
      cache.set(source, hit);
      return hit;
    }
    const stmt = db.prepare(source);
    if (!hit) {
      cache.set(source, stmt);
      if (cache.size > max) cache.delete(cache.keys().next().value as string);
    }
    return stmt;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return prepare;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
