/**
 * The ledger: the only way a balance changes. Double entry (docs/money.md, "Accounts").
 *
 * A ledger transaction is a set of signed legs that sums to zero per currency: the user's legs
 * on (user, currency, account) rows and the house's legs on (house account, currency) rows,
 * applied inside the caller's database transaction together with the business row it belongs
 * to (the order, the deposit). postLedger refuses an unbalanced set before writing anything
 * (UnbalancedLedgerError), and the database refuses it too: the transaction's seal row
 * (`ledger_seals`, written after its entries) has an insert trigger that checks the sums
 * (migration 008). Each transaction carries an idempotency key: posting the same key again
 * changes nothing and reports `applied: false`, so a retried request, a duplicated webhook or a
 * settlement run twice never pays twice. A user's balance can never go below zero (CHECK in the
 * schema, and checked here first so the caller gets a clear error); a house balance may.
 *
 * User accounts: `real`, `demo`, `real_hold` (money of pending withdrawals), of `userId`.
 * House accounts: `house:trading` (the other side of every real order), `house:demo_issuer`
 * (source and sink of demo money), `house:clearing:<provider id>` (one per payment provider:
 * deposits debit it, payouts credit it), `house:promotions` (reserved), `house:suspense`
 * (only the migration's counter-entries of unclassifiable legacy postings), `house:adjustments` (the other
 * side of an operator's manual adjustment of a real balance, approved by a second operator).
 * Real and demo never mix: the demo side (`demo`, `house:demo_issuer`) may not share a
 * transaction with any other account.
 *
 * This file alone queries the ledger's tables (`balances`, `house_balances`, `ledger_transactions`,
 * `ledger_entries`, `house_entries`, `ledger_seals`; scripts/check-shape.ts): the other areas read
 * and open balances through it too (a new account's real balance, an order's total under its key,
 * a payment's real entry, the operator's audit and books).
 */
import { sql } from 'kysely';
import { dialectOf, forUpdate, type Trx } from '../db';
import { prepared, preparedRows } from '../db/prepared';
import { findCurrency, DEMO_BALANCE_UNITS } from '../../contract/currencies';
import { fromMinor } from '../../contract/money';
import type { Balances } from '../../contract/user';
import { recordEvent, recordEvents } from './events';

/** A user's account. */
export type UserAccount = 'real' | 'demo' | 'real_hold';
/** Kept for callers that name a user's account. */
export type Account = UserAccount;
/** A house account: `house:trading`, `house:demo_issuer`, `house:promotions`, `house:suspense`, `house:clearing:<provider id>`. */
export type HouseAccount = `house:${string}`;
export type LedgerAccount = UserAccount | HouseAccount;

export const HOUSE_TRADING = 'house:trading' as const;
export const HOUSE_DEMO_ISSUER = 'house:demo_issuer' as const;
export const HOUSE_PROMOTIONS = 'house:promotions' as const;
export const HOUSE_SUSPENSE = 'house:suspense' as const;
/** The other side of an operator's manual balance adjustment (issue 27, four eyes). */
export const HOUSE_ADJUSTMENTS = 'house:adjustments' as const;
const CLEARING_PREFIX = 'house:clearing:';
const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const USER_ACCOUNTS: readonly string[] = ['real', 'demo', 'real_hold'];

/** The clearing account of a payment provider: `house:clearing:<providerId>` (lower case, digits, `_`, `-`; at most 40). */
export function clearingAccount(providerId: string): HouseAccount {
  if (!PROVIDER_ID.test(providerId)) throw new Error(`Invalid payment provider id for a clearing account: ${providerId}`);
  return `${CLEARING_PREFIX}${providerId}`;
}

export function isHouseAccount(account: string): account is HouseAccount {
  if (account === HOUSE_TRADING || account === HOUSE_DEMO_ISSUER || account === HOUSE_PROMOTIONS || account === HOUSE_SUSPENSE || account === HOUSE_ADJUSTMENTS) return true;
  return account.startsWith(CLEARING_PREFIX) && PROVIDER_ID.test(account.slice(CLEARING_PREFIX.length));
}

/** The house side of an order on `account`: the demo issuer for demo orders, the house's trading account for real ones. */
export function tradingCounterparty(account: UserAccount): HouseAccount {
  return account === 'demo' ? HOUSE_DEMO_ISSUER : HOUSE_TRADING;
}

/** `entries` plus, per currency, the leg on `house` that brings the transaction to zero. */
export function withCounterparty(house: HouseAccount, entries: LedgerEntryInput[]): LedgerEntryInput[] {
  const sums = new Map<string, number>();
  for (const e of entries) sums.set(e.currency, (sums.get(e.currency) ?? 0) + e.amount);
  const legs = [...entries];
  for (const [currency, sum] of sums) if (sum !== 0) legs.push({ currency, account: house, amount: -sum });
  return legs;
}

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
  | 'withdrawal_payout'
  | 'balance_adjustment';

export interface LedgerEntryInput {
  currency: string;
  /** A user account (of the posting's user) or a house account. */
  account: LedgerAccount;
  /** Signed minor units; zero entries are skipped. */
  amount: number;
}

export interface LedgerPost {
  key: string;
  kind: LedgerKind;
  userId: number;
  ref?: { type: string; id: string | number };
  /** Every leg of the transaction; per currency they must sum to zero. */
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

/** A posting whose legs do not sum to zero per currency: a programming error, never a user's. */
export class UnbalancedLedgerError extends Error {
  constructor(
    readonly key: string,
    readonly sums: Record<string, number>,
  ) {
    super(`Ledger transaction ${key} does not balance: ${Object.entries(sums).map(([c, s]) => `${c} ${s}`).join(', ')}`);
  }
}

export interface LedgerResult {
  applied: boolean;
  ledgerTxId: number;
}

/** Check a posting's legs: known accounts and currencies, safe integers, demo apart, zero sum per currency. */
export function checkLegs(post: LedgerPost): void {
  const sums: Record<string, number> = {};
  let demoSide = false;
  let realSide = false;
  for (const e of post.entries) {
    if (!Number.isSafeInteger(e.amount)) throw new RangeError(`Ledger amount must be a safe integer: ${e.amount}`);
    if (!findCurrency(e.currency)) throw new Error(`Unknown currency ${e.currency}`);
    if (!USER_ACCOUNTS.includes(e.account) && !isHouseAccount(e.account)) throw new Error(`Unknown ledger account ${e.account}`);
    if (e.amount === 0) continue;
    if (e.account === 'demo' || e.account === HOUSE_DEMO_ISSUER) demoSide = true;
    else realSide = true;
    sums[e.currency] = (sums[e.currency] ?? 0) + e.amount;
  }
  if (demoSide && realSide) throw new Error('A ledger transaction may not mix demo and real accounts');
  const off = Object.fromEntries(Object.entries(sums).filter(([, s]) => s !== 0));
  if (Object.keys(off).length > 0) throw new UnbalancedLedgerError(post.key, off);
}

export async function postLedger(trx: Trx, post: LedgerPost, now = Date.now()): Promise<LedgerResult> {
  checkLegs(post);
  await lockBalances(trx, post);

  // The key is claimed with the insert itself: nothing comes back when the key exists already
  // (a retried request, a duplicated webhook, a settlement run twice), and nothing is changed.
  const [tx] = (await insertLedgerTxs.run(trx, [txRow(post, now)])).rows;
  if (!tx) {
    const existing = await ledgerTxByKey.first(trx, { key: post.key });
    if (!existing) throw new Error(`Ledger transaction ${post.key} neither inserted nor found`);
    return { applied: false, ledgerTxId: Number(existing.id) };
  }
  const ledgerTxId = Number(tx.id);

  for (const e of post.entries) {
    if (e.amount === 0) continue;
    if (isHouseAccount(e.account)) {
      await postHouseLeg(trx, ledgerTxId, e.account, e.currency, e.amount, now);
      continue;
    }
    const account = e.account as UserAccount;
    const after = await applyUserLeg(trx, post.userId, account, e.currency, e.amount, now);
    await insertUserEntries.run(trx, [
      { ledger_tx_id: ledgerTxId, user_id: post.userId, currency: e.currency, account, amount: e.amount, balance_after: after, created_at: now },
    ]);
  }
  // The seal closes the transaction; its trigger checks the zero sum per currency again.
  await insertSeals.run(trx, [{ ledger_tx_id: ledgerTxId, created_at: now }]);
  // Every applied posting is the user's (a demo reset to the amount already held included): their
  // sessions hear it, as they did before the house legs existed.
  await recordEvent(trx, 'balances.changed', post.userId, { kind: post.kind }, now);
  return { applied: true, ledgerTxId };
}

/**
 * Several postings in one go (a settlement batch's payouts): the same rules and rows as calling
 * postLedger for each in turn (legs checked, idempotency keys, entries with their balance after,
 * seals, a 'balances.changed' event per applied posting), written with multi-row statements: one
 * insert per table for the whole list, and one balance update per user account and currency
 * and per house account touched. All or nothing: a posting that would take a user balance below
 * zero at its turn throws InsufficientBalanceError and, like any error, leaves the caller's
 * transaction to roll back. The keys must differ from each other.
 */
export async function postLedgerMany(trx: Trx, posts: readonly LedgerPost[], now = Date.now()): Promise<LedgerResult[]> {
  if (posts.length === 0) return [];
  const keys = new Set<string>();
  for (const post of posts) {
    checkLegs(post);
    if (keys.has(post.key)) throw new Error(`postLedgerMany: the key ${post.key} is given twice`);
    keys.add(post.key);
  }
  await lockBalanceRows(trx, posts);

  const inserted = await insertLedgerTxs.run(
    trx,
    posts.map((post) => txRow(post, now)),
  );
  const idOf = new Map(inserted.rows.map((r) => [r.idempotency_key, Number(r.id)]));
  const results: LedgerResult[] = [];
  const applied: { post: LedgerPost; ledgerTxId: number }[] = [];
  for (const post of posts) {
    const id = idOf.get(post.key);
    if (id !== undefined) {
      applied.push({ post, ledgerTxId: id });
      results.push({ applied: true, ledgerTxId: id });
      continue;
    }
    const existing = await ledgerTxByKey.first(trx, { key: post.key });
    if (!existing) throw new Error(`Ledger transaction ${post.key} neither inserted nor found`);
    results.push({ applied: false, ledgerTxId: Number(existing.id) });
  }
  if (applied.length === 0) return results;

  // The legs in posting order, grouped by the balance they move.
  type Leg = { ledgerTxId: number; userId: number; account: LedgerAccount; currency: string; amount: number; after: number };
  const userLegs = new Map<string, Leg[]>();
  const houseLegs = new Map<string, Leg[]>();
  for (const { post, ledgerTxId } of applied) {
    for (const e of post.entries) {
      if (e.amount === 0) continue;
      const house = isHouseAccount(e.account);
      const groups = house ? houseLegs : userLegs;
      const key = house ? `${e.account}\u0000${e.currency}` : `${post.userId}\u0000${e.account}\u0000${e.currency}`;
      let legs = groups.get(key);
      if (!legs) groups.set(key, (legs = []));
      legs.push({ ledgerTxId, userId: post.userId, account: e.account, currency: e.currency, amount: e.amount, after: 0 });
    }
  }
  // Each balance moves once by its legs' sum; each leg's balance after is the final amount less
  // the legs after it (what posting them one by one would have stored).
  const settleAfters = (legs: Leg[], final: number, user: boolean) => {
    let after = final;
    for (let i = legs.length - 1; i >= 0; i--) {
      legs[i].after = after;
      if (user && after < 0) throw new InsufficientBalanceError(legs[i].currency, legs[i].account as UserAccount);
      after -= legs[i].amount;
    }
  };
  const sum = (legs: Leg[]) => legs.reduce((a, l) => a + l.amount, 0);
  for (const legs of userLegs.values()) {
    const { userId, account, currency } = legs[0];
    settleAfters(legs, await applyUserLeg(trx, userId, account as UserAccount, currency, sum(legs), now), true);
  }
  for (const legs of houseLegs.values()) {
    const { account, currency } = legs[0];
    const row = await upsertHouseBalance.first(trx, { account, currency, amount: sum(legs), updated_at: now });
    const final = Number(row!.amount);
    if (!Number.isSafeInteger(final)) throw new RangeError('Balance out of range');
    settleAfters(legs, final, false);
  }
  // Entries in posting order (ids ascending as postLedger one by one would give them).
  const byTx = (a: Leg, b: Leg) => a.ledgerTxId - b.ledgerTxId;
  const users = [...userLegs.values()].flat().sort(byTx);
  const houses = [...houseLegs.values()].flat().sort(byTx);
  if (users.length > 0) {
    await insertUserEntries.run(
      trx,
      users.map((l) => ({
        ledger_tx_id: l.ledgerTxId,
        user_id: l.userId,
        currency: l.currency,
        account: l.account,
        amount: l.amount,
        balance_after: l.after,
        created_at: now,
      })),
    );
  }
  if (houses.length > 0) {
    await insertHouseEntries.run(
      trx,
      houses.map((l) => ({ ledger_tx_id: l.ledgerTxId, account: l.account, currency: l.currency, amount: l.amount, balance_after: l.after, created_at: now })),
    );
  }
  // The seals close the transactions; their trigger checks each one's zero sum per currency.
  await insertSeals.run(
    trx,
    applied.map((a) => ({ ledger_tx_id: a.ledgerTxId, created_at: now })),
  );
  await recordEvents(
    trx,
    applied.map((a) => ({ type: 'balances.changed' as const, userId: a.post.userId, payload: { kind: a.post.kind } })),
    now,
  );
  return results;
}

/**
 * Add `amount` to a user's balance row and return the new amount: one conditional update that
 * refuses to go below zero (the CHECK in the schema is the last line; this gives the caller the
 * clear error), or the row's first insert. Only when the update changes nothing is the row read,
 * to tell a missing row from an insufficient balance.
 */
async function applyUserLeg(trx: Trx, userId: number, account: UserAccount, currency: string, amount: number, now: number): Promise<number> {
  const key = { user_id: userId, currency, account };
  const updated = await addToBalance.first(trx, { ...key, amount, updated_at: now });
  if (updated) {
    const after = Number(updated.amount);
    if (!Number.isSafeInteger(after)) throw new RangeError('Balance out of range');
    return after;
  }
  const row = await balanceRow.first(trx, key);
  if (row || amount < 0) throw new InsufficientBalanceError(currency, account);
  await insertBalance.run(trx, { ...key, amount, updated_at: now });
  return amount;
}

// The ledger's statements, built once (server/db/prepared.ts): they run for every order placed and settled.
const ledgerTxByKey = prepared((db, p: { key: string }) => db.selectFrom('ledger_transactions').select('id').where('idempotency_key', '=', p.key));
const addToBalance = prepared((db, p: { user_id: number; currency: string; account: string; amount: number; updated_at: number }) =>
  db
    .updateTable('balances')
    .set({ amount: sql<number>`amount + ${p.amount}`, updated_at: p.updated_at })
    .where('user_id', '=', p.user_id)
    .where('currency', '=', p.currency)
    .where('account', '=', p.account)
    .where(sql<number>`amount + ${p.amount}`, '>=', 0)
    .returning('amount'),
);
const balanceRow = prepared((db, p: { user_id: number; currency: string; account: string }) =>
  db.selectFrom('balances').select('amount').where('user_id', '=', p.user_id).where('currency', '=', p.currency).where('account', '=', p.account),
);
const insertBalance = prepared((db, p: { user_id: number; currency: string; account: string; amount: number; updated_at: number }) =>
  db.insertInto('balances').values({ user_id: p.user_id, currency: p.currency, account: p.account, amount: p.amount, updated_at: p.updated_at }),
);
const upsertHouseBalance = prepared((db, p: { account: string; currency: string; amount: number; updated_at: number }) =>
  db
    .insertInto('house_balances')
    .values({ account: p.account, currency: p.currency, amount: p.amount, updated_at: p.updated_at })
    .onConflict((oc) =>
      oc.columns(['account', 'currency']).doUpdateSet({ amount: sql<number>`house_balances.amount + excluded.amount`, updated_at: sql<number>`excluded.updated_at` }),
    )
    .returning('amount'),
);

/** The `ledger_transactions` row of a posting. */
const txRow = (post: LedgerPost, now: number) => ({
  key: post.key,
  kind: post.kind,
  user_id: post.userId,
  ref_type: post.ref?.type ?? null,
  ref_id: post.ref ? String(post.ref.id) : null,
  created_at: now,
});

// One and several postings use the same statements (one row is a shape of its own).
const insertLedgerTxs = preparedRows(
  (db, rows: { key: string; kind: string; user_id: number; ref_type: string | null; ref_id: string | null; created_at: number }[]) =>
    db
      .insertInto('ledger_transactions')
      .values(rows.map((p) => ({ idempotency_key: p.key, kind: p.kind, user_id: p.user_id, ref_type: p.ref_type, ref_id: p.ref_id, created_at: p.created_at })))
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning(['id', 'idempotency_key']),
);
const insertUserEntries = preparedRows(
  (db, rows: { ledger_tx_id: number; user_id: number; currency: string; account: string; amount: number; balance_after: number; created_at: number }[]) =>
    db.insertInto('ledger_entries').values(
      rows.map((p) => ({
        ledger_tx_id: p.ledger_tx_id,
        user_id: p.user_id,
        currency: p.currency,
        account: p.account,
        amount: p.amount,
        balance_after: p.balance_after,
        created_at: p.created_at,
      })),
    ),
);
const insertHouseEntries = preparedRows(
  (db, rows: { ledger_tx_id: number; account: string; currency: string; amount: number; balance_after: number; created_at: number }[]) =>
    db.insertInto('house_entries').values(
      rows.map((p) => ({ ledger_tx_id: p.ledger_tx_id, account: p.account, currency: p.currency, amount: p.amount, balance_after: p.balance_after, created_at: p.created_at })),
    ),
);
const insertSeals = preparedRows((db, rows: { ledger_tx_id: number; created_at: number }[]) =>
  db.insertInto('ledger_seals').values(rows.map((p) => ({ ledger_tx_id: p.ledger_tx_id, created_at: p.created_at }))),
);

/**
 * PostgreSQL: lock every existing balance row the posting touches (the user's, then the house's,
 * each in a fixed order) before reading any, so concurrent postings on one balance run one after
 * another and never both act on the same old amount, and two postings never lock two rows in
 * opposite orders. A row that does not exist yet cannot be locked: two first postings racing to
 * insert it make one fail with a unique violation, and its transaction runs again
 * (server/db/index.ts). SQLite's BEGIN IMMEDIATE already serializes every write transaction.
 */
async function lockBalances(trx: Trx, post: LedgerPost): Promise<void> {
  return lockBalanceRows(trx, [post]);
}

/** lockBalances for several postings: every user row (by user, currency, account), then every house row. */
async function lockBalanceRows(trx: Trx, posts: readonly LedgerPost[]): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  const user = new Map<string, { userId: number; currency: string; account: string }>();
  const house = new Map<string, { currency: string; account: string }>();
  for (const post of posts) {
    for (const e of post.entries) {
      if (e.amount === 0) continue;
      if (isHouseAccount(e.account)) house.set(`${e.account}\u0000${e.currency}`, { currency: e.currency, account: e.account });
      else user.set(`${post.userId}\u0000${e.account}\u0000${e.currency}`, { userId: post.userId, currency: e.currency, account: e.account });
    }
  }
  if (user.size > 0) {
    await trx
      .selectFrom('balances')
      .select('amount')
      .where((eb) =>
        eb.or([...user.values()].map((k) => eb.and([eb('user_id', '=', k.userId), eb('currency', '=', k.currency), eb('account', '=', k.account)]))),
      )
      .orderBy('user_id')
      .orderBy('currency')
      .orderBy('account')
      .forUpdate()
      .execute();
  }
  if (house.size > 0) {
    await trx
      .selectFrom('house_balances')
      .select('amount')
      .where((eb) => eb.or([...house.values()].map((k) => eb.and([eb('account', '=', k.account), eb('currency', '=', k.currency)]))))
      .orderBy('account')
      .orderBy('currency')
      .forUpdate()
      .execute();
  }
}

/** One house leg: one upsert of the house balance (returning the new amount) and one entry. */
async function postHouseLeg(trx: Trx, ledgerTxId: number, account: HouseAccount, currency: string, amount: number, now: number): Promise<void> {
  const row = await upsertHouseBalance.first(trx, { account, currency, amount, updated_at: now });
  const after = Number(row!.amount);
  if (!Number.isSafeInteger(after)) throw new RangeError('Balance out of range');
  await insertHouseEntries.run(trx, [{ ledger_tx_id: ledgerTxId, account, currency, amount, balance_after: after, created_at: now }]);
}

/** The balance row of one user account in one currency (undefined: never opened). */
function storedBalance(trx: Trx, userId: number, currency: string, account: Account) {
  return trx
    .selectFrom('balances')
    .select('amount')
    .where('user_id', '=', userId)
    .where('currency', '=', currency)
    .where('account', '=', account)
    .executeTakeFirst();
}

export async function getBalanceMinor(trx: Trx, userId: number, currency: string, account: Account): Promise<number> {
  const row = await storedBalance(trx, userId, currency, account);
  return Number(row?.amount ?? 0);
}

/**
 * Open a user's real account in `currency` at zero unless it exists (registration, a currency
 * chosen later). No money moves, so no ledger entry is due: the audit compares balances with
 * entry sums, and zero matches zero.
 */
export async function openRealBalance(trx: Trx, userId: number, currency: string, now: number): Promise<void> {
  await trx
    .insertInto('balances')
    .values({ user_id: userId, currency, account: 'real', amount: 0, updated_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'currency', 'account']).doNothing())
    .execute();
}

/** Whether the user has a balance row for `account` in `currency` (at any amount, zero included). */
export async function hasBalanceRow(trx: Trx, userId: number, currency: string, account: Account): Promise<boolean> {
  return (await storedBalance(trx, userId, currency, account)) !== undefined;
}

/** Set the demo balance of one currency to the standard demo amount (new account, demo reset); the demo issuer is the other side. */
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
  // Locked: the posting is computed from this amount (two racing resets must not both use it).
  const row = await forUpdate(
    trx,
    trx.selectFrom('balances').select('amount').where('user_id', '=', userId).where('currency', '=', cur.iso_code).where('account', '=', 'demo'),
  ).executeTakeFirst();
  const current = Number(row?.amount ?? 0);
  return postLedger(
    trx,
    { key, kind, userId, entries: withCounterparty(HOUSE_DEMO_ISSUER, [{ currency: cur.iso_code, account: 'demo', amount: target - current }]) },
    now,
  );
}

/** Every balance row of a user (currency, account, minor units): the operator console's view. */
export async function balanceRowsOf(db: Trx, userId: number): Promise<{ currency: string; account: string; amount: number }[]> {
  const rows = await db.selectFrom('balances').select(['currency', 'account', 'amount']).where('user_id', '=', userId).orderBy('currency').orderBy('account').execute();
  return rows.map((r) => ({ currency: r.currency, account: r.account, amount: Number(r.amount) }));
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

/** What the ledger holds in all under one key (an order's `order:<id>:stake` or `order:<id>:settle`), minor units. */
export async function ledgerSum(db: Trx, key: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries')
    .innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_entries.ledger_tx_id')
    .select((eb) => eb.fn.sum<number>('ledger_entries.amount').as('total'))
    .where('ledger_transactions.idempotency_key', '=', key)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** The `real` account's entry of a ledger transaction (its amount and the balance after it), if any. */
export function realLedgerEntry(trx: Trx, ledgerTxId: number): Promise<{ balance_after: number; amount: number } | undefined> {
  return trx
    .selectFrom('ledger_entries')
    .select(['balance_after', 'amount'])
    .where('ledger_tx_id', '=', ledgerTxId)
    .where('account', '=', 'real')
    .executeTakeFirst();
}

export interface AuditDifference {
  /** null for a house account. */
  user_id: number | null;
  currency: string;
  account: string;
  balance: number;
  entries_sum: number;
}

/**
 * Recompute every balance (users' and the house's) from the entries and report the rows that
 * disagree (including entries with no balance row and balance rows with no entries). An empty
 * list means the ledger and the balances agree to the minor unit.
 */
export async function auditLedger(trx: Trx): Promise<AuditDifference[]> {
  const rows = await sql<AuditDifference>`
    select user_id, currency, account, sum(balance) as balance, sum(entries_sum) as entries_sum from (
      select user_id, currency, account, amount as balance, 0 as entries_sum from balances
      union all
      select user_id, currency, account, 0 as balance, amount as entries_sum from ledger_entries
      union all
      select null as user_id, currency, account, amount as balance, 0 as entries_sum from house_balances
      union all
      select null as user_id, currency, account, 0 as balance, amount as entries_sum from house_entries
    ) t
    group by user_id, currency, account
    having sum(balance) <> sum(entries_sum)
  `.execute(trx);
  return rows.rows.map((r) => ({ ...r, user_id: r.user_id === null ? null : Number(r.user_id), balance: Number(r.balance), entries_sum: Number(r.entries_sum) }));
}

/** How many balance rows there are: the users' (`balances`) and the house's (`house_balances`). */
export async function balanceRowCounts(trx: Trx): Promise<{ users: number; house: number }> {
  const row = await trx
    .selectFrom('balances')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const house = await trx
    .selectFrom('house_balances')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { users: Number(row.n), house: Number(house.n) };
}

export interface ZeroSumReport {
  /** Currencies whose balances (every user and house account) do not add up to zero. */
  currencies: { currency: string; sum: number }[];
  /** Ledger transactions whose legs do not add up to zero in a currency. */
  transactions: { ledger_tx_id: number; currency: string; sum: number }[];
  /** Ledger transactions without a seal (written by something other than postLedger). */
  unsealed: number[];
}

/** The double-entry check: every currency and every transaction sums to zero, every transaction is sealed. */
export async function checkZeroSum(trx: Trx): Promise<ZeroSumReport> {
  const currencies = await sql<{ currency: string; sum: number }>`
    select currency, sum(amount) as sum from (
      select currency, amount from balances union all select currency, amount from house_balances
    ) t group by currency having sum(amount) <> 0 order by currency
  `.execute(trx);
  const transactions = await sql<{ ledger_tx_id: number; currency: string; sum: number }>`
    select ledger_tx_id, currency, sum(amount) as sum from (
      select ledger_tx_id, currency, amount from ledger_entries
      union all
      select ledger_tx_id, currency, amount from house_entries
    ) t group by ledger_tx_id, currency having sum(amount) <> 0 order by ledger_tx_id limit 100
  `.execute(trx);
  const unsealed = await sql<{ id: number }>`
    select t.id from ledger_transactions t left join ledger_seals s on s.ledger_tx_id = t.id where s.ledger_tx_id is null order by t.id limit 100
  `.execute(trx);
  return {
    currencies: currencies.rows.map((r) => ({ currency: r.currency, sum: Number(r.sum) })),
    transactions: transactions.rows.map((r) => ({ ledger_tx_id: Number(r.ledger_tx_id), currency: r.currency, sum: Number(r.sum) })),
    unsealed: unsealed.rows.map((r) => Number(r.id)),
  };
}

export interface Books {
  currencies: Record<string, { accounts: Record<string, number>; sum: number }>;
}

/**
 * The books per currency: the users' accounts summed per kind (`users:real`, `users:demo`,
 * `users:real_hold`) and every house account, in minor units, and their sum (0 when the books
 * balance).
 */
export async function readBooks(trx: Trx): Promise<Books> {
  const rows = await sql<{ currency: string; account: string; amount: number }>`
    select currency, 'users:' || account as account, sum(amount) as amount from balances group by currency, account
    union all
    select currency, account, amount from house_balances
    order by 1, 2
  `.execute(trx);
  const books: Books = { currencies: {} };
  for (const r of rows.rows) {
    const cur = (books.currencies[r.currency] ??= { accounts: {}, sum: 0 });
    cur.accounts[r.account] = Number(r.amount);
    cur.sum += Number(r.amount);
  }
  return books;
}
