/** Payments tables: the payment-method catalogue and one row per deposit or withdrawal. */
import type { Generated } from 'kysely';

export interface PaymentMethodsTable {
  /** Slug, e.g. `card_visa_mc`. */
  id: string;
  name: string;
  /** File name under public/payment_methods/. */
  avatar_url: string;
  /** cards | bank | crypto */
  category: string;
  /** ISO country code or ALL */
  country_code: string;
  /** Account currency served, or ALL */
  currency_code: string;
  supports_all_currencies: number;
  /** manual | crypto_address | oxapay_link */
  integration_type: string;
  /** Currency of min_amount/max_amount: the method's currency, USD for ALL-currency methods. */
  sums_currency: string;
  /** Minor units of sums_currency. */
  min_amount: number;
  max_amount: number;
  /** Currency the payer pays in when it is not the account currency (USDT, BTC). */
  payment_currency: string | null;
  crypto_network: string | null;
  /** JSON of the receiving requisites of a manual method (card number, IBAN...). */
  requisites: string | null;
  estimated_processing_time: string;
  is_active: Generated<number>;
  deposit_enabled: Generated<number>;
  withdraw_enabled: Generated<number>;
  sort_order: number;
  created_at: number;
  updated_at: number;
}

export interface PaymentTransactionsTable {
  id: Generated<number>;
  user_id: number;
  /** deposit | withdrawal */
  transaction_type: string;
  /** pending | processing | approved | failed | expired | cancelled */
  status: string;
  /** Client's retry key; unique per user when present. */
  client_request_id: string | null;
  payment_method_id: string;
  method_name: string;
  integration_type: string;
  /** Always `real`: money moves only on the real account. */
  account: string;
  currency: string;
  /** Minor units of `currency`. */
  amount: number;
  final_amount: number;
  payment_currency: string;
  /** Minor units of `payment_currency`. */
  amount_payment_currency: number;
  /** Decimal text, units of payment_currency per 1 unit of currency. */
  exchange_rate: string;
  /** Real balance around the credit or the hold (minor units); null until then. */
  balance_before: number | null;
  balance_after: number | null;
  crypto_wallet_address: string | null;
  crypto_network: string | null;
  crypto_transaction_hash: string | null;
  payment_url: string | null;
  invoice_id: string | null;
  /** Per-invoice secret of the sandbox checkout form (never sent to the API client). */
  checkout_token: string | null;
  /** JSON of the requisites shown to the payer of a manual deposit. */
  requisit: string | null;
  /** JSON {requisites, payment_method} of a withdrawal. */
  payment_details: string | null;
  estimated_processing_time: string | null;
  error_message: string | null;
  expired_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface PaymentTables {
  payment_methods: PaymentMethodsTable;
  payment_transactions: PaymentTransactionsTable;
}
