/**
 * The payments area's queries: the only place that reads or writes `payment_methods` (the
 * catalogue) and `payment_transactions` (one row per deposit or withdrawal). Every function
 * takes the handle first: the database for a read outside a transaction, or the running
 * transaction's `trx`. A read-then-write inside a transaction locks what it reads on PostgreSQL
 * (`...ForUpdate`: server/db forUpdate); SQLite's BEGIN IMMEDIATE already serializes writers.
 *
 * Also here: the read the profile area's notifications need. The real-account ledger entry a
 * payment's posting made (status.ts keeps the balance around it on the row) is the ledger's
 * (ledger.ts `realLedgerEntry`).
 */
import type { Insertable } from 'kysely';
import { LIST_STATUS_MEMBERS, type ApprovalStatus, type ListStatus, type TransactionListQuery } from '../../../contract/payments';
import { forUpdate, type Trx } from '../../db';
import type { PaymentMethodsTable, PaymentTransactionsTable } from '../../db/tables/payments';
import type { PaymentMethodRow, PaymentTxRow } from './wire';

// ---- the catalogue ----------------------------------------------------------------------------

/** The ids of every method in the catalogue. */
export async function paymentMethodIds(trx: Trx): Promise<string[]> {
  return (await trx.selectFrom('payment_methods').select('id').execute()).map((r) => r.id);
}

export async function insertPaymentMethod(trx: Trx, method: Insertable<PaymentMethodsTable>): Promise<void> {
  await trx.insertInto('payment_methods').values(method).execute();
}

/** Active methods in catalogue order. */
export function activePaymentMethods(trx: Trx): Promise<PaymentMethodRow[]> {
  return trx
    .selectFrom('payment_methods')
    .selectAll()
    .where('is_active', '=', 1)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

export function findPaymentMethod(trx: Trx, id: string): Promise<PaymentMethodRow | undefined> {
  return trx.selectFrom('payment_methods').selectAll().where('id', '=', id).executeTakeFirst();
}

// ---- one payment ------------------------------------------------------------------------------

export function findPayment(trx: Trx, id: number): Promise<PaymentTxRow | undefined> {
  return trx.selectFrom('payment_transactions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A payment that must exist (Kysely's NoResultError otherwise): the row again after a change. */
export function requirePayment(trx: Trx, id: number): Promise<PaymentTxRow> {
  return trx.selectFrom('payment_transactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** A payment by id, locked for the transaction on PostgreSQL. */
export function paymentForUpdate(trx: Trx, id: number): Promise<PaymentTxRow | undefined> {
  return forUpdate(trx, trx.selectFrom('payment_transactions').selectAll().where('id', '=', id)).executeTakeFirst();
}

/** One payment of its owner, or undefined (another user's or an unknown id). */
export function findOwnPayment(trx: Trx, userId: number, id: number): Promise<PaymentTxRow | undefined> {
  return trx.selectFrom('payment_transactions').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** The user's earlier payment with this client_request_id, if any. */
export function findPaymentByRequestId(trx: Trx, userId: number, requestId: string): Promise<PaymentTxRow | undefined> {
  return trx
    .selectFrom('payment_transactions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('client_request_id', '=', requestId)
    .executeTakeFirst();
}

/** The status of a payment that must exist. */
export async function paymentStatus(trx: Trx, id: number): Promise<string> {
  const row = await trx.selectFrom('payment_transactions').select('status').where('id', '=', id).executeTakeFirstOrThrow();
  return row.status;
}

// ---- writing payments -------------------------------------------------------------------------

/** Insert a payment row; answers its id. */
export async function insertPayment(trx: Trx, values: Insertable<PaymentTransactionsTable>): Promise<number> {
  const created = await trx.insertInto('payment_transactions').values(values).returning('id').executeTakeFirstOrThrow();
  return created.id;
}

/** What a provider filled in for the payer of a new deposit (JSON columns already serialized). */
export type DepositColumns = Pick<PaymentTxRow, 'requisit' | 'crypto_wallet_address' | 'crypto_network' | 'invoice_id' | 'payment_url' | 'checkout_token'>;

export async function setDepositColumns(trx: Trx, id: number, columns: DepositColumns): Promise<void> {
  await trx.updateTable('payment_transactions').set(columns).where('id', '=', id).execute();
}

/** The provider's id of a payout (OxaPay's track id) on a withdrawal. */
export async function setPaymentInvoiceId(trx: Trx, id: number, invoiceId: string): Promise<void> {
  await trx.updateTable('payment_transactions').set({ invoice_id: invoiceId }).where('id', '=', id).execute();
}

/** The on-chain transfer of a payment. */
export async function setPaymentHash(trx: Trx, id: number, hash: string): Promise<void> {
  await trx.updateTable('payment_transactions').set({ crypto_transaction_hash: hash }).where('id', '=', id).execute();
}

/** Columns a status change may set besides the status. */
export interface StatusPatch {
  error_message?: string | null;
  crypto_transaction_hash?: string | null;
}

/** Move payment `id` to `to` if it is still in one of `from`; true when this call changed it. */
export async function updatePaymentStatus(
  trx: Trx,
  id: number,
  to: ApprovalStatus,
  from: readonly ApprovalStatus[],
  now: number,
  patch: StatusPatch = {},
): Promise<boolean> {
  const result = await trx
    .updateTable('payment_transactions')
    .set({ status: to, updated_at: now, ...patch })
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) !== 0;
}

/** The real balance around a payment's money movement (minor units). */
export async function setPaymentBalances(trx: Trx, id: number, before: number, after: number): Promise<void> {
  await trx.updateTable('payment_transactions').set({ balance_before: before, balance_after: after }).where('id', '=', id).execute();
}

// ---- deposits the jobs and the providers look for ---------------------------------------------

/** How a provider callback names its deposit: the provider's invoice id or the deposit address. */
export type DepositLookup = { invoiceId: string } | { address: string };

/** The deposit of an integration a provider callback names, locked for the transaction on PostgreSQL. */
export function depositForCallback(trx: Trx, integrationType: string, lookup: DepositLookup): Promise<PaymentTxRow | undefined> {
  let q = trx.selectFrom('payment_transactions').selectAll().where('integration_type', '=', integrationType).where('transaction_type', '=', 'deposit');
  q = 'invoiceId' in lookup ? q.where('invoice_id', '=', lookup.invoiceId) : q.where('crypto_wallet_address', '=', lookup.address);
  return forUpdate(trx, q).executeTakeFirst();
}

/** At most `limit` deposits still pending after their expired_at (by `now`), oldest first. */
export function overdueDeposits(trx: Trx, now: number, limit: number): Promise<PaymentTxRow[]> {
  return trx
    .selectFrom('payment_transactions')
    .selectAll()
    .where('transaction_type', '=', 'deposit')
    .where('status', '=', 'pending')
    .where('expired_at', 'is not', null)
    .where('expired_at', '<=', now)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Every pending crypto-address deposit with its address (the simulated chain watches them). */
export function pendingCryptoDeposits(trx: Trx): Promise<PaymentTxRow[]> {
  return trx
    .selectFrom('payment_transactions')
    .selectAll()
    .where('transaction_type', '=', 'deposit')
    .where('integration_type', '=', 'crypto_address')
    .where('status', '=', 'pending')
    .where('crypto_wallet_address', 'is not', null)
    .execute();
}

/**
 * The newest crypto-address deposit of the same user after `row` (created before `row`'s
 * window closed, when it has one): its id, or null.
 */
export async function newerCryptoDeposit(trx: Trx, row: Pick<PaymentTxRow, 'id' | 'user_id' | 'expired_at'>): Promise<number | null> {
  let q = trx
    .selectFrom('payment_transactions')
    .select('id')
    .where('user_id', '=', row.user_id)
    .where('transaction_type', '=', 'deposit')
    .where('integration_type', '=', 'crypto_address')
    .where('crypto_wallet_address', 'is not', null)
    .where('id', '>', row.id);
  if (row.expired_at !== null) q = q.where('created_at', '<', row.expired_at);
  const newer = await q.orderBy('id', 'desc').executeTakeFirst();
  return newer ? newer.id : null;
}

/** A payment-link deposit by its invoice id, made through one of `methodIds`. */
export function linkInvoice(trx: Trx, invoiceId: string, methodIds: Iterable<string>): Promise<PaymentTxRow | undefined> {
  return trx
    .selectFrom('payment_transactions')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .where('integration_type', '=', 'oxapay_link')
    .where('payment_method_id', 'in', [...methodIds])
    .executeTakeFirst();
}

/** What reconciliation asks the provider about (oxapay/reconcile.ts). */
export interface ReconcileSelection {
  /** The methods served by the provider. */
  methodIds: string[];
  now: number;
  /** Only rows last changed at least this long ago. */
  minAgeMs: number;
  /** Expired deposits are still asked about for this long after their window. */
  lateWindowMs: number;
  limit: number;
}

/** The provider's deposits with an invoice still pending or processing, or expired within the late window; oldest first. */
export function depositsToReconcile(trx: Trx, s: ReconcileSelection): Promise<PaymentTxRow[]> {
  return trx
    .selectFrom('payment_transactions')
    .selectAll()
    .where('transaction_type', '=', 'deposit')
    .where('payment_method_id', 'in', s.methodIds)
    .where('invoice_id', 'is not', null)
    .where('updated_at', '<=', s.now - s.minAgeMs)
    .where((eb) =>
      eb.or([eb('status', 'in', ['pending', 'processing']), eb.and([eb('status', '=', 'expired'), eb('expired_at', '>', s.now - s.lateWindowMs)])]),
    )
    .orderBy('id')
    .limit(s.limit)
    .execute();
}

/** The provider's payouts still pending or processing; oldest first. */
export function payoutsToReconcile(trx: Trx, s: Omit<ReconcileSelection, 'lateWindowMs'>): Promise<PaymentTxRow[]> {
  return trx
    .selectFrom('payment_transactions')
    .selectAll()
    .where('transaction_type', '=', 'withdrawal')
    .where('payment_method_id', 'in', s.methodIds)
    .where('invoice_id', 'is not', null)
    .where('status', 'in', ['pending', 'processing'])
    .where('updated_at', '<=', s.now - s.minAgeMs)
    .orderBy('id')
    .limit(s.limit)
    .execute();
}

/** The withdrawal a provider's payout names (its track id), locked for the transaction on PostgreSQL. */
export function payoutForUpdate(trx: Trx, trackId: string): Promise<PaymentTxRow | undefined> {
  return forUpdate(
    trx,
    trx.selectFrom('payment_transactions').selectAll().where('transaction_type', '=', 'withdrawal').where('invoice_id', '=', trackId),
  ).executeTakeFirst();
}

// ---- lists ------------------------------------------------------------------------------------

/** The owner's list filters (list statuses group the stored ones: contract LIST_STATUS_MEMBERS). */
export type PaymentFilters = Omit<TransactionListQuery, 'page' | 'limit'>;

function filtered(db: Trx, userId: number, q: PaymentFilters) {
  let base = db.selectFrom('payment_transactions').where('user_id', '=', userId);
  if (q.type !== 'all') base = base.where('transaction_type', '=', q.type);
  if (q.status !== 'all') base = base.where('status', 'in', [...LIST_STATUS_MEMBERS[q.status as ListStatus]]);
  // Money moves only on the real account: account=demo simply matches nothing.
  if (q.account !== 'all') base = base.where('account', '=', q.account);
  if (q.date_from !== undefined) base = base.where('created_at', '>=', q.date_from);
  if (q.date_to !== undefined) base = base.where('created_at', '<=', q.date_to);
  return base;
}

/** One page of the owner's filtered payments, newest first, and how many match in all. */
export async function pageOfUserPayments(
  db: Trx,
  userId: number,
  q: PaymentFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: PaymentTxRow[]; total: number }> {
  const base = filtered(db, userId, q);
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  return { rows, total: Number(count.n) };
}

/** At most `cap` of the owner's filtered payments, newest first (the CSV export). */
export function userPaymentsForExport(db: Trx, userId: number, q: PaymentFilters, cap: number): Promise<PaymentTxRow[]> {
  return filtered(db, userId, q).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(cap).execute();
}

/**
 * The client_request_id of the review row recorded when a payment arrives for a failed deposit
 * (deposits.ts, `late:<id>`). A client's id cannot contain ':', so it never collides with one.
 */
export const LATE_PAYMENT_PREFIX = 'late:';

export interface OperatorListFilter {
  status?: ListStatus | 'processing' | 'approved' | 'expired' | 'cancelled' | 'all';
  type?: 'deposit' | 'withdrawal';
  userId?: number;
  limit?: number;
  /** Only the review rows of late payments on failed deposits (client_request_id `late:<id>`). */
  latePayments?: boolean;
}

/** Every user's transactions for the CLI, newest first. `pending` means pending + processing. */
export function listTransactionsForOperator(db: Trx, f: OperatorListFilter = {}): Promise<PaymentTxRow[]> {
  let q = db.selectFrom('payment_transactions').selectAll();
  if (f.latePayments) q = q.where('transaction_type', '=', 'deposit').where('client_request_id', 'like', `${LATE_PAYMENT_PREFIX}%`);
  const status = f.status ?? 'all';
  if (status === 'pending' || status === 'completed' || status === 'failed') q = q.where('status', 'in', [...LIST_STATUS_MEMBERS[status]]);
  else if (status !== 'all') q = q.where('status', '=', status);
  if (f.type) q = q.where('transaction_type', '=', f.type);
  if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
  return q.orderBy('id', 'desc').limit(f.limit ?? 50).execute();
}

// ---- reads for other areas --------------------------------------------------------------------

/** Profile (payment-facts.ts): what a notification about a payment says, for its owner only (undefined otherwise). */
export function paymentNoticeRow(db: Trx, userId: number, id: number) {
  return db
    .selectFrom('payment_transactions')
    .select(['id', 'transaction_type', 'amount', 'currency', 'error_message'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

// ---- the operator console (issue 27) -----------------------------------------------------------

export interface ConsolePaymentFilter {
  type: 'deposit' | 'withdrawal' | 'all';
  status: 'pending' | 'processing' | 'approved' | 'failed' | 'expired' | 'cancelled' | 'all';
  userId?: number;
  latePayments: boolean;
}

function consoleFiltered(db: Trx, f: ConsolePaymentFilter) {
  let q = db.selectFrom('payment_transactions');
  if (f.latePayments) q = q.where('transaction_type', '=', 'deposit').where('client_request_id', 'like', `${LATE_PAYMENT_PREFIX}%`);
  if (f.type !== 'all') q = q.where('transaction_type', '=', f.type);
  if (f.status === 'pending') q = q.where('status', 'in', ['pending', 'processing']);
  else if (f.status !== 'all') q = q.where('status', '=', f.status);
  if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
  return q;
}

/** Every user's payments for the console, newest first, a page at a time, with the total. */
export async function pageOfPaymentsForConsole(db: Trx, f: ConsolePaymentFilter, offset: number, limit: number): Promise<{ rows: PaymentTxRow[]; total: number }> {
  const total = await consoleFiltered(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await consoleFiltered(db, f).selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute();
  return { rows, total: Number(total.n) };
}

/** Completed (approved) deposits or withdrawals updated since `since`: count and sums per currency. */
export async function paymentTotalsSince(db: Trx, type: 'deposit' | 'withdrawal', since: number): Promise<{ count: number; amounts: Record<string, number> }> {
  const rows = await db
    .selectFrom('payment_transactions')
    .select((eb) => ['currency', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount').as('total')])
    .where('transaction_type', '=', type)
    .where('status', '=', 'approved')
    .where('updated_at', '>=', since)
    .groupBy('currency')
    .execute();
  const amounts: Record<string, number> = {};
  let count = 0;
  for (const r of rows) {
    amounts[r.currency] = Number(r.total);
    count += Number(r.n);
  }
  return { count, amounts };
}

export async function pendingWithdrawalCount(db: Trx): Promise<number> {
  const r = await db
    .selectFrom('payment_transactions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('transaction_type', '=', 'withdrawal')
    .where('status', 'in', ['pending', 'processing'])
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
