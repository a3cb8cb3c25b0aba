/**
 * Every migration, in order. A new migration is a new numbered file added here; a shipped
 * migration is never edited in its SQLite form (existing files keep working). Each file's `up`
 * takes the dialect it is built for: `migrationsFor(dialect)` binds it, from the configuration
 * (server/db/index.ts), so a migration never guesses which database it runs on.
 */
import type { Migration } from 'kysely';
import type { DialectMigration, SqlDialect } from './dialect';
import * as m001 from './001_core';
import * as m002 from './002_auth';
import * as m003 from './003_market';
import * as m004 from './004_orders';
import * as m005 from './005_payments';
import * as m006 from './006_profile';
import * as m007 from './007_ledger_guards';
import * as m008 from './008_double_entry';
import * as m009 from './009_tick_chain';
import * as m010 from './010_price_alerts';
import * as m011 from './011_cluster';
import * as m012 from './012_shared_secrets';
import * as m013 from './013_unused_ledger_indexes';
import * as m014 from './014_open_order_indexes';
import * as m015 from './015_recovery_codes';
import * as m016 from './016_operators';
import * as m017 from './017_support';

const files: Record<string, DialectMigration> = {
  '001_core': m001,
  '002_auth': m002,
  '003_market': m003,
  '004_orders': m004,
  '005_payments': m005,
  '006_profile': m006,
  '007_ledger_guards': m007,
  '008_double_entry': m008,
  '009_tick_chain': m009,
  '010_price_alerts': m010,
  '011_cluster': m011,
  '012_shared_secrets': m012,
  '013_unused_ledger_indexes': m013,
  '014_open_order_indexes': m014,
  '015_recovery_codes': m015,
  '016_operators': m016,
  '017_support': m017,
};

/** The migrations for one dialect, by name (Kysely's Migrator runs them in name order). */
export function migrationsFor(dialect: SqlDialect): Record<string, Migration> {
  return Object.fromEntries(
    Object.entries(files).map(([name, m]) => {
      const down = m.down;
      return [name, { up: (db) => m.up(db, dialect), ...(down ? { down: (db) => down(db, dialect) } : {}) } satisfies Migration];
    }),
  );
}
