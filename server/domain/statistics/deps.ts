/** What the trading journal needs (JournalService, built in server/composition.ts): the database and the clock. */
import type { DB } from '../../db';

export interface JournalDeps {
  db: DB;
  now: () => number;
}
