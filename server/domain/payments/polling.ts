/**
 * Which payments the server watches with the provider until they settle, for the client's
 * polling_status note ("Checking the payment status…"): a deposit paid outside the app (a crypto
 * address or a payment link) is watched from its creation (`payment.polling` true, recorded with
 * the provider's fields) until it reaches a final status (false, recorded with that change in
 * status.ts). A manual deposit and a withdrawal are not.
 */
import type { ApprovalStatus } from '../../../contract/payments';
import type { PaymentTxRow } from './wire';

const WATCHED_TYPES: readonly string[] = ['crypto_address', 'oxapay_link'];
export const FINAL_STATUSES: readonly ApprovalStatus[] = ['approved', 'failed', 'expired', 'cancelled'];

export function needsStatusPolling(row: Pick<PaymentTxRow, 'transaction_type' | 'integration_type'>): boolean {
  return row.transaction_type === 'deposit' && WATCHED_TYPES.includes(row.integration_type);
}
