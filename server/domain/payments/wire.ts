/**
 * Stored payment rows to their wire shapes (contract/payments.ts): minor units to decimals with
 * the currency's decimals, milliseconds to unix seconds, JSON columns to objects.
 */
import type { Selectable } from 'kysely';
import { findCurrency } from '../../../contract/currencies';
import { fromMinor } from '../../../contract/money';
import { maskedRequisites, type ApprovalStatus, type IntegrationType, type Requisit, type Transaction, type TransactionType } from '../../../contract/payments';
import type { PaymentMethodsTable, PaymentTransactionsTable } from '../../db/tables/payments';
import { isSandboxMethod } from './mode';

export type PaymentTxRow = Selectable<PaymentTransactionsTable>;

/**
 * The columns a new payment row leaves empty unless its kind sets them (balances, provider
 * data, texts, expiry): spread first into an insert, then the row's own values.
 */
export const EMPTY_PAYMENT_COLUMNS = {
  balance_before: null,
  balance_after: null,
  crypto_wallet_address: null,
  crypto_network: null,
  crypto_transaction_hash: null,
  payment_url: null,
  invoice_id: null,
  checkout_token: null,
  requisit: null,
  payment_details: null,
  estimated_processing_time: null,
  error_message: null,
  expired_at: null,
} as const satisfies Partial<Record<keyof PaymentTxRow, null>>;

export type PaymentMethodRow = Selectable<PaymentMethodsTable>;

export function decimalsOf(code: string): number {
  const c = findCurrency(code);
  if (!c) throw new Error(`Unknown currency ${code}`);
  return c.decimals;
}

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(Number(ms) / 1000));

function parseJson<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export function requisitOf(row: Pick<PaymentTxRow, 'requisit'>): Requisit | null {
  return parseJson<Requisit>(row.requisit);
}

/** A withdrawal's payout details as stored (`payment_details` JSON); null for a deposit. */
export interface StoredPaymentDetails {
  requisites: string;
  payment_method: string | null;
}

/** The payout details of a withdrawal request as they are stored (and compared on a replay). */
export function storedPaymentDetails(details: { requisites: string; payment_method?: string | null }): StoredPaymentDetails {
  return { requisites: details.requisites, payment_method: details.payment_method ?? null };
}

export function paymentDetailsOf(row: Pick<PaymentTxRow, 'payment_details'>): StoredPaymentDetails | null {
  const details = parseJson<{ requisites?: unknown; payment_method?: unknown }>(row.payment_details);
  if (!details || typeof details.requisites !== 'string') return null;
  return { requisites: details.requisites, payment_method: typeof details.payment_method === 'string' ? details.payment_method : null };
}

/** The payout details as their owner sees them again: a card number masked ("•••• 1111"). */
export function ownerPaymentDetails(row: Pick<PaymentTxRow, 'payment_details'>): StoredPaymentDetails | null {
  const details = paymentDetailsOf(row);
  return details && { ...details, requisites: maskedRequisites(details.requisites) };
}

/** A row as its owner gets it (lists, details, answers): the card number of a withdrawal is masked. */
export function toWireTransaction(row: PaymentTxRow): Transaction {
  const d = decimalsOf(row.currency);
  const pd = decimalsOf(row.payment_currency);
  const details = ownerPaymentDetails(row);
  const type = row.transaction_type as TransactionType;
  return {
    id: row.id,
    transaction_type: type,
    type,
    approval_status: row.status as ApprovalStatus,
    method: row.method_name,
    payment_method_id: row.payment_method_id,
    account_type: 'real',
    amount: fromMinor(Number(row.amount), d),
    currency_code: row.currency,
    final_amount: fromMinor(Number(row.final_amount), d),
    amount_payment_currency: fromMinor(Number(row.amount_payment_currency), pd),
    payment_currency: row.payment_currency,
    exchange_rate: Number(row.exchange_rate),
    balance_before: row.balance_before === null ? null : fromMinor(Number(row.balance_before), d),
    balance_after: row.balance_after === null ? null : fromMinor(Number(row.balance_after), d),
    created_at: seconds(row.created_at) as number,
    updated_at: seconds(row.updated_at) as number,
    expired_at: seconds(row.expired_at),
    crypto_wallet_address: row.crypto_wallet_address,
    crypto_network: row.crypto_network,
    crypto_transaction_hash: row.crypto_transaction_hash,
    payment_url: row.payment_url,
    integration_type: row.integration_type as IntegrationType,
    invoice_id: row.invoice_id,
    error_message: row.error_message,
    user_id: row.user_id,
    requisit: requisitOf(row),
    payment_details: details,
    estimated_processing_time: row.estimated_processing_time,
    sandbox: isSandboxMethod(row.payment_method_id),
  };
}
