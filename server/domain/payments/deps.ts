/**
 * What the payment functions need: the database, a write transaction, the clock, the log and
 * the payments mode, and the exchange rates. Narrow and typed, so the operator CLI (another process, no HTTP server)
 * can run the same approve/reject/list code on the database of DATA_DIR.
 */
import type { Rate, RateTable } from '../../../contract/currencies';
import type { DB, RunTx } from '../../db';
import type { DomainLog } from '../log';
import type { PaymentsMode } from './mode';

export interface PaymentsDeps {
  db: DB;
  /** One write transaction (BEGIN IMMEDIATE); inside it use only the handed `trx`. */
  tx: RunTx;
  now: () => number;
  /** Where provider failures are logged (the server's logger; absent in the CLI). */
  log?: DomainLog;
  /** PAYMENTS_MODE: which methods new payments may use (mode.ts); sandbox when absent. */
  mode?: PaymentsMode;
  /**
   * Exchange rates from the market's prices (server/domain/market/fx.ts; docs/money.md,
   * "Exchange rates"); absent (the CLI): the configured rates.
   */
  rates?: PaymentRates;
}

/** The narrow view of the rate provider the payments area uses. */
export interface PaymentRates {
  rate(from: string, to: string): Rate;
  table(): RateTable;
}
