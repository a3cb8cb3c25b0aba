/**
 * Deposits into the real account, the same for every provider:
 *
 *   create    validate (amount, method, currency, min/max), insert the pending row (one
 *             transaction), let the provider fill in what the payer sees (outside any
 *             transaction: a real provider is an HTTP call), store that (second transaction).
 *             A client_request_id makes the request safe to retry.
 *   confirm   manual only: the owner says the transfer is done -> processing.
 *   callback  a verified provider callback: find the deposit by invoice or address, check that
 *             it names this transaction, amount and currency, then approve + credit once /
 *             fail, expire or cancel / mark processing. A payment confirmed after the deposit
 *             closed is never dropped: expired or cancelled -> still credited ("Late payment");
 *             failed (operator-rejected or failed upstream) -> a review row for the operator.
 *   expire    deposits left pending past expired_at become expired (the module's sweeper).
 *
 * Approval credits through the ledger with key `deposit:<id>:credit`, so a callback delivered
 * twice, or raced with the operator, credits once.
 */
import { toMinor } from '../../../contract/money';
import { PaymentErrorText, type ApprovalStatus, type DepositRequest, type DepositResult } from '../../../contract/payments';
import type { Trx } from '../../db';
import { ProviderFailed, ProviderTimeout, conflict, invalid, notFound } from '../errors';
import { checkMethodAndAmount } from './amounts';
import { isSandboxMethod } from './mode';
import type { PaymentsDeps } from './deps';
import type { Replayable } from '../results';
import { isUniqueViolation } from '../../db/errors';
import type { CallbackUpdate, PaymentProvider } from './providers/types';
import { recordEvent } from '../events';
import { needsStatusPolling } from './polling';
import {
  depositForCallback,
  findOwnPayment,
  findPayment,
  findPaymentByRequestId,
  insertPayment,
  overdueDeposits,
  requirePayment,
  setDepositColumns,
} from './repository';
import { approveDeposit, changeStatus, latePaymentKey } from './status';
import { decimalsOf, paymentDetailsOf, requisitOf, toWireTransaction, EMPTY_PAYMENT_COLUMNS, type PaymentTxRow, type StoredPaymentDetails } from './wire';

export type ProviderRegistry = ReadonlyMap<string, PaymentProvider>;

export function providerFor(providers: ProviderRegistry, type: string): PaymentProvider {
  const p = providers.get(type);
  if (!p) throw new Error(`No payment provider for integration type ${type}`);
  return p;
}

/**
 * Everything a payment request carries that decides what happens: the same client_request_id
 * must come with all of it again. (`account_type` can only be "real"; `payment_system` is a
 * display label the server does not use, the method id decides.)
 */
export interface RequestIdentity {
  type: 'deposit' | 'withdrawal';
  methodId: string;
  currency: string;
  /** Minor units. */
  amount: number;
  /** A withdrawal's payout details (requisites and their label); null for a deposit. */
  details: StoredPaymentDetails | null;
}

/** A client_request_id names one request: the same id with anything else different is a 409. */
export function sameRequestOrThrow(row: PaymentTxRow, request: RequestIdentity): PaymentTxRow {
  const stored = paymentDetailsOf(row);
  const same =
    row.transaction_type === request.type &&
    row.payment_method_id === request.methodId &&
    row.currency === request.currency &&
    Number(row.amount) === request.amount &&
    (stored?.requisites ?? null) === (request.details?.requisites ?? null) &&
    (stored?.payment_method ?? null) === (request.details?.payment_method ?? null);
  if (!same) throw conflict(PaymentErrorText.requestIdReused);
  return row;
}

export async function createDeposit(
  deps: PaymentsDeps,
  providers: ProviderRegistry,
  userId: number,
  input: DepositRequest,
): Promise<Replayable<PaymentTxRow>> {
  const checked = await checkMethodAndAmount(deps.db, 'deposit', input.payment_method_id, input.currency, input.amount, deps.mode, deps.rates);
  const { method, currency } = checked;
  const provider = providerFor(providers, method.integration_type);
  const requestId = input.client_request_id ?? null;
  const identity: RequestIdentity = { type: 'deposit', methodId: method.id, currency: currency.iso_code, amount: checked.amount, details: null };
  const replay = async (row: PaymentTxRow) => ({ value: sameRequestOrThrow(await whenOpened(deps, row), identity), created: false });

  if (requestId) {
    const earlier = await findPaymentByRequestId(deps.db, userId, requestId);
    if (earlier) return replay(earlier);
  }

  let inserted: { row: PaymentTxRow; fresh: boolean };
  try {
    inserted = await deps.tx(async (trx) => {
      if (requestId) {
        const earlier = await findPaymentByRequestId(trx, userId, requestId);
        if (earlier) return { row: earlier, fresh: false };
      }
      const now = deps.now();
      const id = await insertPayment(trx, {
        ...EMPTY_PAYMENT_COLUMNS,
        user_id: userId,
        transaction_type: 'deposit',
        status: 'pending',
        client_request_id: requestId,
        payment_method_id: method.id,
        method_name: method.name,
        integration_type: method.integration_type,
        account: 'real',
        currency: currency.iso_code,
        amount: checked.amount,
        final_amount: checked.amount,
        payment_currency: checked.paymentCurrency.iso_code,
        amount_payment_currency: checked.amountPayment,
        exchange_rate: checked.exchangeRate,
        expired_at: provider.depositTtlMs === null ? null : now + provider.depositTtlMs,
        created_at: now,
        updated_at: now,
      });
      return { row: await requirePayment(trx, id), fresh: true };
    });
  } catch (err) {
    if (requestId && isUniqueViolation(err)) {
      const earlier = await findPaymentByRequestId(deps.db, userId, requestId);
      if (earlier) return replay(earlier);
    }
    throw err;
  }
  if (!inserted.fresh) return replay(inserted.row);
  const row = inserted.row;

  let fields;
  try {
    fields = await provider.createDeposit(row, method);
  } catch (err) {
    // The provider could not open the payment: the row fails, the cause stays in the log. An
    // error with kind 'unavailable' (no answer in time: OxapayError) is a 504 with its own text.
    await deps.tx((trx) => changeStatus(trx, row, 'failed', ['pending'], deps.now(), { error_message: PaymentErrorText.providerFailed }));
    deps.log?.warn({ err, transaction_id: row.id }, 'payment provider failed to create a deposit');
    if ((err as { kind?: unknown } | null)?.kind === 'unavailable') throw new ProviderTimeout(PaymentErrorText.providerUnavailable);
    throw new ProviderFailed(PaymentErrorText.providerFailed);
  }
  const stored = await deps.tx(async (trx) => {
    await setDepositColumns(trx, row.id, {
      requisit: fields.requisit ? JSON.stringify(fields.requisit) : null,
      crypto_wallet_address: fields.crypto_wallet_address ?? null,
      crypto_network: fields.crypto_network ?? null,
      invoice_id: fields.invoice_id ?? null,
      payment_url: fields.payment_url ?? null,
      checkout_token: fields.checkout_token ?? null,
    });
    const updated = await requirePayment(trx, row.id);
    // A crypto/link deposit is watched with the provider from now on (polling.ts).
    if (updated.status === 'pending' && needsStatusPolling(updated)) {
      await recordEvent(trx, 'payment.polling', userId, { transaction_id: updated.id, polling: true }, deps.now());
    }
    return updated;
  });
  provider.onCreated?.(stored);
  return { value: stored, created: true };
}

/** How long a replayed request waits for the first one's provider answer (longer than the OxaPay call limit). */
const REPLAY_WAIT_MS = 15_000;

/**
 * A retried request that finds its deposit still being opened (the first request committed the
 * row and is asking the provider, outside any transaction) waits for that answer, so both get
 * the same payment details. Every provider stores at least one of these fields; a row that
 * left `pending` has its answer too. On SQLite this rarely shows (transactions queue in one
 * process); on PostgreSQL the retry runs truly alongside.
 */
async function whenOpened(deps: PaymentsDeps, row: PaymentTxRow): Promise<PaymentTxRow> {
  const opening = (r: PaymentTxRow) =>
    r.status === 'pending' && r.requisit === null && r.crypto_wallet_address === null && r.invoice_id === null && r.payment_url === null;
  const deadline = performance.now() + REPLAY_WAIT_MS;
  let current = row;
  while (opening(current) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    current = (await findPayment(deps.db, row.id)) ?? current;
  }
  return current;
}

/** The deposit answer (spec section 3, Deposit result). */
export async function depositResult(providers: ProviderRegistry, row: PaymentTxRow): Promise<DepositResult> {
  const provider = providerFor(providers, row.integration_type);
  const wire = toWireTransaction(row);
  const integration = await provider.integrationData(row);
  return {
    transaction_id: row.id,
    status: wire.approval_status,
    currency: row.currency,
    payment_method: row.method_name,
    integration_type: wire.integration_type,
    payment_url: row.payment_url,
    amount_payment_currency: wire.amount_payment_currency,
    payment_currency: row.payment_currency,
    exchange_rate: Number(row.exchange_rate),
    expired_at: wire.expired_at,
    invoice_id: row.invoice_id,
    integration_data: integration,
    sandbox: isSandboxMethod(row.payment_method_id),
    transaction: {
      id: row.id,
      amount: wire.amount,
      amount_payment_currency: wire.amount_payment_currency,
      status: wire.approval_status,
      created_at: wire.created_at,
      expired_at: wire.expired_at,
      requisit: requisitOf(row),
    },
  };
}

export async function findOwnTransaction(trx: Trx, userId: number, id: number): Promise<PaymentTxRow> {
  const row = await findOwnPayment(trx, userId, id);
  if (!row) throw notFound(PaymentErrorText.transactionNotFound);
  return row;
}

/** The owner says the manual transfer is done: pending -> processing (repeating it is harmless). */
export async function confirmDeposit(deps: PaymentsDeps, providers: ProviderRegistry, userId: number, id: number): Promise<PaymentTxRow> {
  return deps.tx(async (trx) => {
    const row = await findOwnTransaction(trx, userId, id);
    if (row.transaction_type !== 'deposit') throw notFound(PaymentErrorText.transactionNotFound);
    const provider = providerFor(providers, row.integration_type);
    if (!provider.confirmByUser) throw invalid(PaymentErrorText.notManual);
    if (row.status === 'processing') return row;
    const now = deps.now();
    const open = row.status === 'pending' && (row.expired_at === null || Number(row.expired_at) > now);
    if (!open || !(await changeStatus(trx, row, provider.confirmByUser(row), ['pending'], now))) {
      throw conflict(PaymentErrorText.notConfirmable);
    }
    return requirePayment(trx, id);
  });
}

export interface CallbackResult {
  transactionId: number;
  status: string;
  changed: boolean;
  /** A late payment on a failed deposit: the id of the review row recorded for the operator. */
  reviewId: number | null;
}

/** Deposits a provider-confirmed payment still credits: closed without a payment, not refused. */
const LATE_CREDIT_FROM: readonly ApprovalStatus[] = ['expired', 'cancelled'];
/** Final without money: the provider's hook drops what it watched (the simulated chain's timer). */
const CLOSED_UNPAID: readonly ApprovalStatus[] = ['failed', 'expired', 'cancelled'];

export const LATE_PAYMENT_NOTE: Record<string, string> = {
  expired: 'Late payment: received after the payment window had expired',
  cancelled: 'Late payment: received after the payment was cancelled',
};

/**
 * A provider confirms a payment for a deposit that had FAILED (rejected by the operator, or a
 * failure reported upstream). The money arrived, but someone decided against this deposit, so
 * it is not credited automatically: a new deposit row is recorded in `processing` for the
 * operator (`tx list --status pending` shows it, `tx approve|reject <id>` decides), once per
 * failed deposit (its client_request_id is `late:<id>`). Returns the review row's id, or null
 * when it had been recorded before.
 */
async function recordLatePayment(trx: Trx, row: PaymentTxRow, update: CallbackUpdate, now: number): Promise<number | null> {
  const key = latePaymentKey(row.id);
  if (await findPaymentByRequestId(trx, row.user_id, key)) return null;
  const hash = update.txHash ? ` (transfer ${update.txHash})` : '';
  const id = await insertPayment(trx, {
    ...EMPTY_PAYMENT_COLUMNS,
    user_id: row.user_id,
    transaction_type: 'deposit',
    status: 'processing',
    client_request_id: key,
    payment_method_id: row.payment_method_id,
    method_name: row.method_name,
    integration_type: row.integration_type,
    account: 'real',
    currency: row.currency,
    amount: row.amount,
    final_amount: row.final_amount,
    payment_currency: row.payment_currency,
    amount_payment_currency: row.amount_payment_currency,
    exchange_rate: row.exchange_rate,
    // Only the network is copied: the address, invoice and hash stay with the failed deposit (unique per deposit).
    crypto_network: row.crypto_network,
    error_message: `Late payment for failed deposit #${row.id}${hash}: waiting for the operator's review`,
    created_at: now,
    updated_at: now,
  });
  await recordEvent(trx, 'payment.status', row.user_id, { transaction_id: id, status: 'processing', transaction_type: 'deposit' }, now);
  return id;
}

/**
 * Apply a verified provider callback. Refused (4xx, nothing changes) when the invoice/address
 * is unknown, names another transaction, or the amount or currency differ from the deposit's.
 * A repeated callback is answered as success without a second change.
 *
 * A confirmed payment is never dropped: on a pending/processing deposit it approves and
 * credits; on an expired or cancelled one (closed without a payment) it still approves and
 * credits, with a "Late payment" note; on a failed one it records a review row for the
 * operator (see recordLatePayment). Each happens once however often the callback comes.
 */
export async function applyCallback(
  deps: PaymentsDeps,
  provider: PaymentProvider,
  update: CallbackUpdate,
): Promise<CallbackResult> {
  const result = await deps.tx(async (trx) => {
    const row = await depositForCallback(trx, provider.type, update.lookup);
    if (!row) throw notFound(PaymentErrorText.unknownInvoice);
    if (String(row.id) !== update.orderId) throw invalid(PaymentErrorText.invoiceMismatch);
    if (update.currency !== row.payment_currency) throw invalid(PaymentErrorText.currencyMismatch);
    const paid = toMinor(update.amount, decimalsOf(row.payment_currency));
    if (paid === null || paid !== Number(row.amount_payment_currency)) throw invalid(PaymentErrorText.amountMismatch);

    const now = deps.now();
    let changed = false;
    let reviewId: number | null = null;
    const open: readonly ApprovalStatus[] = ['pending', 'processing'];
    if (update.outcome === 'approved') {
      if (LATE_CREDIT_FROM.includes(row.status as ApprovalStatus)) {
        // Closed without a payment, and now the money arrived: it is the payer's.
        changed = await approveDeposit(trx, row, LATE_CREDIT_FROM, now, {
          crypto_transaction_hash: update.txHash,
          error_message: LATE_PAYMENT_NOTE[row.status],
        });
      } else if (row.status === 'failed') {
        reviewId = await recordLatePayment(trx, row, update, now);
      } else {
        changed = await approveDeposit(trx, row, open, now, { crypto_transaction_hash: update.txHash });
      }
    } else if (update.outcome === 'failed' || update.outcome === 'expired' || update.outcome === 'cancelled') {
      changed = await changeStatus(trx, row, update.outcome, open, now, { error_message: update.errorMessage });
    } else if (update.outcome === 'underpaid') {
      // Noted once (a reconciliation asking again changes nothing).
      if (row.error_message !== update.errorMessage) changed = await changeStatus(trx, row, 'processing', open, now, { error_message: update.errorMessage, crypto_transaction_hash: update.txHash });
    } else if (update.outcome === 'processing') {
      changed = await changeStatus(trx, row, 'processing', ['pending'], now, { crypto_transaction_hash: update.txHash });
    }
    const after = await requirePayment(trx, row.id);
    return { row: after, changed, reviewId };
  }).catch((err) => {
    // The same on-chain transfer may not pay two deposits (unique crypto_transaction_hash).
    if (isUniqueViolation(err)) throw conflict(PaymentErrorText.hashReused);
    throw err;
  });
  if (result.changed) {
    if (result.row.status === 'approved') provider.onApproved?.(result.row);
    else if (CLOSED_UNPAID.includes(result.row.status as ApprovalStatus)) provider.onRejected?.(result.row);
  }
  if (result.reviewId !== null) {
    deps.log?.warn({ transaction_id: result.row.id, review_id: result.reviewId }, 'payments: late payment on a failed deposit recorded for review');
  }
  return { transactionId: result.row.id, status: result.row.status, changed: result.changed, reviewId: result.reviewId };
}

/** Deposits still pending after expired_at become expired; returns the rows that changed. */
export async function expireOverdueDeposits(deps: PaymentsDeps, limit = 200): Promise<PaymentTxRow[]> {
  const now = deps.now();
  const due = await overdueDeposits(deps.db, now, limit);
  const expired: PaymentTxRow[] = [];
  for (const row of due) {
    const changed = await deps.tx((trx) => changeStatus(trx, row, 'expired', ['pending'], deps.now(), { error_message: 'Payment window expired' }));
    if (changed) expired.push({ ...row, status: 'expired' });
  }
  return expired;
}
