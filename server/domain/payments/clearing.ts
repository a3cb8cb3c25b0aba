/**
 * Which house clearing account a payment's money goes through (docs/money.md, "Accounts"):
 * `house:clearing:<provider id>`. A deposit credit debits it (the provider owes the house the
 * money it collected), a payout credits it (the house owes the provider what it sent out).
 *
 * The provider id of a payment row is today its integration type (`manual`, `crypto_address`,
 * `oxapay_link`: the built-in sandbox providers). A new provider (a live gateway) returns its
 * own id here, for example from a `provider` column of the row, so its money has its own
 * clearing account and the books show what each provider owes.
 */
import { clearingAccount, type HouseAccount } from '../ledger';
import type { PaymentTxRow } from './wire';
import { LIVE_METHOD_IDS } from './mode';

export function paymentProviderId(row: Pick<PaymentTxRow, 'integration_type' | 'payment_method_id'>): string {
  // PAYMENTS_MODE=live: the OxaPay methods' money clears through house:clearing:oxapay (mode.ts).
  if (LIVE_METHOD_IDS.has(row.payment_method_id)) return 'oxapay';
  return row.integration_type;
}

export function clearingFor(row: Pick<PaymentTxRow, 'integration_type' | 'payment_method_id'>): HouseAccount {
  return clearingAccount(paymentProviderId(row));
}
