/**
 * The ledger: the only way a balance changes.
 *
 * A ledger transaction is a set of signed entries on (user, currency, account) rows, applied
 * inside the caller's database transaction together with the business row it belongs to (the
 * order, the deposit). Each carries an idempotency key: posting the same key again changes
 * nothing and reports `applied: false`, so a retried request, a duplicated webhook or a
 * settlement run twice never pays twice. A balance row can never go below zero (CHECK in the
 * schema, and checked here first so the caller gets a clear error).
 *
 * Accounts: `real`, `demo`, and `real_hold` (money of pending withdrawals). Real and demo never
 * mix: one ledger transaction may not touch both a demo and a non-demo account.
 */
import { sql } from 'kysely';
import type { Trx } from '../db';
import { findCurrency, DEMO_BALANCE_UNITS } from '../../contract/currencies';
import { fromMinor } from '../../contract/money';
import type { Balances } from '../../contract/user';
import { recordEvent } from './events';

export type Account = 'real' | 'demo' | 'real_hold';

export type LedgerKind =
  | 'demo_open'
  | 'demo_reset'
  | 'order_stake'
  | 'order_payout'
  | 'order_refund'
  | 'order_early_close'
  | 'deposit_credit'
  | 'withdrawal_hold'
  | 'withdrawal_release'
  | 'withdrawal_payout';

export interface LedgerEntryInput {
  currency: string;
  account: Account;
  /** Signed minor units; zero entries are skipped. */
  amount: number;
}

export interface LedgerPost {
  key: string;
  kind: LedgerKind;
  userId: number;
  ref?: { type: string; id: string | number };
  entries: LedgerEntryInput[];
}

export class InsufficientBalanceError extends Error {
  constructor(
    readonly currency: string,
    readonly account: Account,
  ) {
    super('Insufficient balance');
  }
}

export interface LedgerResult {
  applied: boolean;
  ledgerTxId: number;
}

export async function postLedger(trx: Trx, post: LedgerPost, now = Date.now()): Promise<LedgerResult> {
  const existing = await trx
    .selectFrom('ledger_transactions')
    .select(['id'])
    .where('idempotency_key', '=', post.key)
    .executeTakeFirst();
  if (existing) return { applied: false, ledgerTxId: existing.id };

  const demo = post.entries.some((e) => e.account === 'demo');
  const nonDemo = post.entries.some((e) => e.account !== 'demo');
  if (demo && nonDemo) throw new Error('A ledger transaction may not mix demo and real accounts');
  for (const e of post.entries) {
    if (!Number.isSafeInteger(e.amount)) throw new RangeError(`Ledger amount must be a safe integer: ${e.amount}`);
    if (!findCurrency(e.currency)) throw new Error(`Unknown currency ${e.currency}`);
  }

  const tx = await trx
    .insertInto('ledger_transactions')
    .values({
      idempotency_key: post.key,
      kind: post.kind,
      user_id: post.userId,
      ref_type: post.ref?.type ?? null,
      ref_id: post.ref ? String(post.ref.id) : null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  for (const e of post.entries) {
    if (e.amount === 0) continue;
    const row = await trx
      .selectFrom('balances')
      .select('amount')
      .where('user_id', '=', post.userId)
      .where('currency', '=', e.currency)
      .where('account', '=', e.account)
      .executeTakeFirst();
    const before = Number(row?.amount ?? 0);
    const after = before + e.amount;
    if (after < 0) throw new InsufficientBalanceError(e.currency, e.account);
    if (!Number.isSafeInteger(after)) throw new RangeError('Balance out of range');
    if (row) {
      await trx
        .updateTable('balances')
        .set({ amount: after, updated_at: now })
        .where('user_id', '=', post.userId)
        .where('currency', '=', e.currency)
        .where('account', '=', e.account)
        .execute();
    } else {
      await trx
        .insertInto('balances')
        .values({ user_id: post.userId, currency: e.currency, account: e.account, amount: after, updated_at: now })
        .execute();
    }
    await trx
      .insertInto('ledger_entries')
      .values({
        ledger_tx_id: tx.id,
        user_id: post.userId,
        currency: e.currency,
        account: e.account,
        amount: e.amount,
        balance_after: after,
        created_at: now,
      })
      .execute();
  }
  await recordEvent(trx, 'balances.changed', post.userId, { kind: post.kind }, now);
  return { applied: true, ledgerTxId: tx.id };
}

export async function getBalanceMinor(trx: Trx, userId: number, currency: string, account: Account): Promise<number> {
  const row = await trx
    .selectFrom('balances')
    .select('amount')
    .where('user_id', '=', userId)
    .where('currency', '=', currency)
    .where('account', '=', account)
    .executeTakeFirst();
  return Number(row?.amount ?? 0);
}

/** Set the demo balance of one currency to the standard demo amount (new account, demo reset). */
export async function resetDemo(
  trx: Trx,
  userId: number,
  currency: string,
  key: string,
  kind: 'demo_open' | 'demo_reset',
  now = Date.now(),
): Promise<LedgerResult> {
  const cur = findCurrency(currency);
  if (!cur) throw new Error(`Unknown currency ${currency}`);
  const target = DEMO_BALANCE_UNITS * 10 ** cur.decimals;
  const current = await getBalanceMinor(trx, userId, cur.iso_code, 'demo');
  return postLedger(
    trx,
    { key, kind, userId, entries: [{ currency: cur.iso_code, account: 'demo', amount: target - current }] },
    now,
  );
}

/**
 * The user's balances in the wire shape: a map by currency code of {RealBalance, DemoBalance}.
 * Every currency the user has a row in appears; `ensure` adds currencies with zeros.
 */
export async function getBalances(trx: Trx, userId: number, ensure: string[] = []): Promise<Balances> {
  const rows = await trx
    .selectFrom('balances')
    .select(['currency', 'account', 'amount'])
    .where('user_id', '=', userId)
    .execute();
  const out: Balances = {};
  for (const code of ensure) out[code] = { RealBalance: 0, DemoBalance: 0 };
  for (const r of rows) {
    const cur = findCurrency(r.currency);
    if (!cur) continue;
    const entry = (out[r.currency] ??= { RealBalance: 0, DemoBalance: 0 });
    if (r.account === 'real') entry.RealBalance = fromMinor(Number(r.amount), cur.decimals);
    if (r.account === 'demo') entry.DemoBalance = fromMinor(Number(r.amount), cur.decimals);
  }
  return out;
}

export interface AuditDifference {
  user_id: number;
  currency: string;
  account: string;
  balance: number;
  entries_sum: number;
}

/**
 * Recompute every balance from the entries and report the rows that disagree (including
 * entries with no balance row and balance rows with no entries). An empty list means the
 * ledger and the balances agree to the minor unit.
 */
export async function auditLedger(trx: Trx): Promise<AuditDifference[]> {
  const rows = await sql<AuditDifference>`
    select user_id, currency, account, sum(balance) as balance, sum(entries_sum) as entries_sum from (
      select user_id, currency, account, amount as balance, 0 as entries_sum from balances
      union all
      select user_id, currency, account, 0 as balance, amount as entries_sum from ledger_entries
    ) t
    group by user_id, currency, account
    having sum(balance) <> sum(entries_sum)
  `.execute(trx);
  return rows.rows.map((r) => ({ ...r, balance: Number(r.balance), entries_sum: Number(r.entries_sum) }));
}
