/**
 * The one interface every payment provider adapter implements (manual requisites, the
 * white-label crypto address integration, the OxaPay-style payment link). The shared code in
 * deposits.ts / withdrawals.ts owns the rows, the statuses and the ledger; an adapter only
 * says what is provider-specific:
 *
 *   createDeposit      after the pending row exists: what the payer is shown (requisites, an
 *                      address, an invoice and its payment URL). May do I/O: it runs outside
 *                      any database transaction.
 *   onCreated          the row with those fields committed (the simulated chain starts its timer).
 *   integrationData    the deposit answer's integration_data (address + QR, or the link).
 *   confirmByUser      manual only: the payer says "I have paid" -> the next status.
 *   handleCallback     verify the provider's signature over the RAW body (401 when it does not
 *                      match), validate the payload and say which deposit it names and what
 *                      happened to it. Never touches the database.
 *   createWithdrawal   present when the provider pays out; gives the processing-time estimate.
 *   onApproved / onRejected   hooks after a deposit became approved, or failed/expired/
 *                      cancelled, and that change committed (the simulated chain drops its timer).
 *                      A payment reported after that is handled by the shared code (deposits.ts:
 *                      late payments).
 *   start / stop       background work of the adapter (the simulated chain's timers).
 */
import type { IntegrationData, IntegrationType, Requisit } from '../../../../contract/payments';
import type { PaymentMethodRow, PaymentTxRow } from '../wire';

/** Provider-specific columns of a new deposit. */
export interface DepositFields {
  requisit?: Requisit | null;
  crypto_wallet_address?: string | null;
  crypto_network?: string | null;
  invoice_id?: string | null;
  payment_url?: string | null;
  /** Secret of a hosted checkout form (never sent to the API client). */
  checkout_token?: string | null;
}

/** What a verified provider callback says, in the platform's terms. */
export interface CallbackUpdate {
  /** How to find the deposit: the provider's invoice id or the deposit address. */
  lookup: { invoiceId: string } | { address: string };
  /** The transaction id the provider was given when the deposit was created. */
  orderId: string;
  /**
   * approved: paid in full; expired: the provider's payment window closed unpaid; cancelled:
   * the payer cancelled at the provider; failed: the payment failed upstream; processing: seen,
   * not final; unchanged: nothing happened yet (an invoice still waiting).
   * underpaid: less than the amount arrived (OxaPay): not credited, held in processing with
   * errorMessage for the operator.
   */
  outcome: 'unchanged' | 'processing' | 'approved' | 'expired' | 'cancelled' | 'failed' | 'underpaid';
  /** Decimal amount and currency the provider says were paid (checked against the row). */
  amount: string;
  currency: string;
  txHash: string | null;
  /** Shown to the user on a failure ("Payment expired"); null otherwise. */
  errorMessage: string | null;
}

export interface RequestHeaders {
  [name: string]: string | string[] | undefined;
}

export interface WithdrawalTerms {
  estimated_processing_time: string;
}

export interface PaymentProvider {
  readonly type: IntegrationType;
  /** How long a new deposit stays payable; null = it never expires on its own. */
  readonly depositTtlMs: number | null;
  createDeposit(row: PaymentTxRow, method: PaymentMethodRow): Promise<DepositFields>;
  /** The deposit row with the provider's fields is committed (start watching for the payment). */
  onCreated?(row: PaymentTxRow): void;
  integrationData(row: PaymentTxRow): Promise<IntegrationData | null>;
  confirmByUser?(row: PaymentTxRow): 'processing';
  handleCallback?(rawBody: Buffer, headers: RequestHeaders): CallbackUpdate;
  createWithdrawal?(method: PaymentMethodRow): WithdrawalTerms;
  onApproved?(row: PaymentTxRow): void;
  onRejected?(row: PaymentTxRow): void;
  start?(): Promise<void>;
  stop?(): Promise<void>;
  /** Cluster (docs/cluster.md): take over the watching of deposits another node was watching. */
  adopt?(): Promise<void>;
}
