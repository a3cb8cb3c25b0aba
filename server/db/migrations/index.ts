/**
 * Every migration, in order. A new migration is a new numbered file added here; a shipped
 * migration is never edited.
 */
import type { Migration } from 'kysely';
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

export const migrations: Record<string, Migration> = {
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
};
