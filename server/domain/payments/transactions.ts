/**
 * Reading deposits and withdrawals: the owner's filtered, paginated list (newest first), one
 * transaction of its owner, the CSV export with the same filters, and the operator's list for
 * the CLI. List statuses group the stored ones: pending = pending + processing,
 * completed = approved, failed = failed + expired + cancelled.
 */
import { formatMinor } from '../../../contract/money';
import {
  LIST_STATUS_MEMBERS,
  PaymentErrorText,
  TRANSACTIONS_EXPORT_CAP,
  type ListStatus,
  type Transaction,
  type TransactionListQuery,
  type TransactionListResult,
} from '../../../contract/payments';
import type { DB } from '../../db';
import { notFound } from '../errors';
import { decimalsOf, ownerPaymentDetails, toWireTransaction, type PaymentTxRow } from './wire';
import { LATE_PAYMENT_PREFIX } from './status';

type Filters = Omit<TransactionListQuery, 'page' | 'limit'>;

function filtered(db: DB, userId: number, q: Filters) {
  let base = db.selectFrom('payment_transactions').where('user_id', '=', userId);
  if (q.type !== 'all') base = base.where('transaction_type', '=', q.type);
  if (q.status !== 'all') base = base.where('status', 'in', [...LIST_STATUS_MEMBERS[q.status as ListStatus]]);
  // Money moves only on the real account: account=demo simply matches nothing.
  if (q.account !== 'all') base = base.where('account', '=', q.account);
  if (q.date_from !== undefined) base = base.where('created_at', '>=', q.date_from);
  if (q.date_to !== undefined) base = base.where('created_at', '<=', q.date_to);
  return base;
}

export async function listTransactions(db: DB, userId: number, q: TransactionListQuery): Promise<TransactionListResult> {
  const base = filtered(db, userId, q);
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(count.n);
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  return {
    transactions: rows.map(toWireTransaction),
    pagination: { page: q.page, limit: q.limit, total_count: total, total_pages: Math.ceil(total / q.limit) },
  };
}

export async function getTransaction(db: DB, userId: number, id: number): Promise<Transaction> {
  const row = await db.selectFrom('payment_transactions').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
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

/**
 * One CSV cell: a cell a spreadsheet would run as a formula (starting with = + - @, or a tab or
 * carriage return) gets a leading apostrophe; cells with a comma, quote or line break are quoted.
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  if (/[",\r\n]/.test(text)) text = `"${text.replace(/"/g, '""')}"`;
  return text;
}

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
export async function exportTransactionsCsv(db: DB, userId: number, q: Filters): Promise<string> {
  const rows = await filtered(db, userId, q)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(TRANSACTIONS_EXPORT_CAP)
    .execute();
  const lines = [CSV_HEADER.map(csvCell).join(','), ...rows.map((r) => csvRow(r).join(','))];
  return lines.join('\r\n') + '\r\n';
}

// ---- operator -----------------------------------------------------------------------------

export interface OperatorListFilter {
  status?: ListStatus | 'processing' | 'approved' | 'expired' | 'cancelled' | 'all';
  type?: 'deposit' | 'withdrawal';
  userId?: number;
  limit?: number;
  /** Only the review rows of late payments on failed deposits (client_request_id `late:<id>`). */
  latePayments?: boolean;
}

/** Every user's transactions for the CLI, newest first. `pending` means pending + processing. */
export async function listForOperator(db: DB, f: OperatorListFilter = {}): Promise<PaymentTxRow[]> {
  let q = db.selectFrom('payment_transactions').selectAll();
  if (f.latePayments) q = q.where('transaction_type', '=', 'deposit').where('client_request_id', 'like', `${LATE_PAYMENT_PREFIX}%`);
  const status = f.status ?? 'all';
  if (status === 'pending' || status === 'completed' || status === 'failed') q = q.where('status', 'in', [...LIST_STATUS_MEMBERS[status]]);
  else if (status !== 'all') q = q.where('status', '=', status);
  if (f.type) q = q.where('transaction_type', '=', f.type);
  if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
  return q.orderBy('id', 'desc').limit(f.limit ?? 50).execute();
}
