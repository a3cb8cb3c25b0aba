/**
 * Reading deposits and withdrawals: the owner's filtered, paginated list (newest first), one
 * transaction of its owner and the CSV export with the same filters (the queries, and the
 * operator's list for the CLI, are in repository.ts). List statuses group the stored ones:
 * pending = pending + processing, completed = approved, failed = failed + expired + cancelled.
 */
import { formatMinor } from '../../../contract/money';
import {
  PaymentErrorText,
  TRANSACTIONS_EXPORT_CAP,
  type Transaction,
  type TransactionListQuery,
  type TransactionListResult,
} from '../../../contract/payments';
import type { DB } from '../../db';
import { notFound } from '../errors';
import { decimalsOf, ownerPaymentDetails, toWireTransaction, type PaymentTxRow } from './wire';
import { findOwnPayment, pageOfUserPayments, userPaymentsForExport, type PaymentFilters } from './repository';
import { csvCell } from '../../infra/csv';

export async function listTransactions(db: DB, userId: number, q: TransactionListQuery): Promise<TransactionListResult> {
  const { rows, total } = await pageOfUserPayments(db, userId, q, { limit: q.limit, offset: (q.page - 1) * q.limit });
  return {
    transactions: rows.map(toWireTransaction),
    pagination: { page: q.page, limit: q.limit, total_count: total, total_pages: Math.ceil(total / q.limit) },
  };
}

export async function getTransaction(db: DB, userId: number, id: number): Promise<Transaction> {
  const row = await findOwnPayment(db, userId, id);
  if (!row) throw notFound(PaymentErrorText.transactionNotFound);
  return toWireTransaction(row);
}

// ---- CSV ----------------------------------------------------------------------------------

/** DD.MM.YYYY HH:mm:ss in UTC. */
export function formatUtc(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}.${p(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

/** One CSV cell: the operator exports' writer (server/infra/csv.ts neutralises formulas and quotes). */
export { csvCell };

export const CSV_HEADER = [
  'ID',
  'Type',
  'Status',
  'Method',
  'Amount',
  'Currency',
  'Final amount',
  'Payment amount',
  'Payment currency',
  'Exchange rate',
  'Balance before',
  'Balance after',
  'Created (UTC)',
  'Updated (UTC)',
  'Wallet address',
  'Network',
  'Transaction hash',
  'Invoice ID',
  'Requisites',
  'Error',
];

function csvRow(row: PaymentTxRow): string[] {
  const d = decimalsOf(row.currency);
  const pd = decimalsOf(row.payment_currency);
  const money = (minor: number | null, dec: number) => (minor === null ? '' : formatMinor(Number(minor), dec));
  // The owner's own download: a card number masked as in the list.
  const requisites = ownerPaymentDetails(row)?.requisites ?? '';
  return [
    String(row.id),
    row.transaction_type,
    row.status,
    row.method_name,
    money(row.amount, d),
    row.currency,
    money(row.final_amount, d),
    money(row.amount_payment_currency, pd),
    row.payment_currency,
    Number(row.exchange_rate).toFixed(6),
    money(row.balance_before, d),
    money(row.balance_after, d),
    formatUtc(Number(row.created_at)),
    formatUtc(Number(row.updated_at)),
    row.crypto_wallet_address ?? '',
    row.crypto_network ?? '',
    row.crypto_transaction_hash ?? '',
    row.invoice_id ?? '',
    requisites,
    row.error_message ?? '',
  ].map((c) => csvCell(c));
}

/** The filtered transactions as CSV (header row first, CRLF line ends, newest first, capped). */
export async function exportTransactionsCsv(db: DB, userId: number, q: PaymentFilters): Promise<string> {
  const rows = await userPaymentsForExport(db, userId, q, TRANSACTIONS_EXPORT_CAP);
  const lines = [CSV_HEADER.map(csvCell).join(','), ...rows.map((r) => csvRow(r).join(','))];
  return lines.join('\r\n') + '\r\n';
}
