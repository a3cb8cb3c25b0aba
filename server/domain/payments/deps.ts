/**
 * What the payment functions need: the database, a write transaction and the clock. A subset
 * of AppContext, so the operator CLI (another process, no HTTP server) can run the same
 * approve/reject/list code on the database of DATA_DIR.
 */
import type { DB, Trx } from '../../db';
import type { PaymentsMode } from './mode';

export interface PaymentsDeps {
  db: DB;
  /** One write transaction (BEGIN IMMEDIATE); inside it use only the handed `trx`. */
  tx: <T>(fn: (trx: Trx) => Promise<T>) => Promise<T>;
  now: () => number;
  /** Where provider failures are logged (the server's logger; absent in the CLI). */
  log?: { warn(obj: object, msg: string): void };
  /** PAYMENTS_MODE: which methods new payments may use (mode.ts); sandbox when absent. */
  mode?: PaymentsMode;
}


