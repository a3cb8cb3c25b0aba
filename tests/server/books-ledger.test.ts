/**
 * Double entry (issue 13 item 1, docs/money.md "Accounts: double entry"): postLedger refuses an
 * unbalanced posting before writing anything; the database refuses one too (the seal trigger);
 * migration 008 gives every pre-008 one-sided transaction its counter-leg so old books balance.
 * Real SQLite files, the real migrations.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationsFor } from '../../server/db/migrations';
import { openDatabase, transaction, type DB } from '../../server/db';
import type { Database } from '../../server/db/schema';
import { exposureDrift } from '../../server/domain/orders/exposure';
import {
  auditLedger,
  checkZeroSum,
  clearingAccount,
  HOUSE_DEMO_ISSUER,
  HOUSE_TRADING,
  postLedger,
  readBooks,
  resetDemo,
  UnbalancedLedgerError,
  withCounterparty,
} from '../../server/domain/ledger';

const dirs: string[] = [];
const dbs: Kysely<Database>[] = [];
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.destroy();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-books-'));
  dirs.push(dir);
  return path.join(dir, 'tradeterminal.db');
}

function rawDb(file: string): Kysely<Database> {
  const sqlite = new SQLite(file);
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  dbs.push(db);
  return db;
}

const migrator = (db: Kysely<Database>) => new Migrator({ db, provider: { getMigrations: async () => migrationsFor('sqlite') } });

async function insertUser(db: Kysely<any>, name: string): Promise<number> {
  const now = Date.now();
  const row = await sql<{ id: number }>`insert into users (username, email, password_hash, first_name, last_name, phone, currency, password_changed_at, created_at, updated_at)
    values (${name}, ${`${name}@example.test`}, 'x', 'A', 'B', '+1000', 'USD', ${now}, ${now}, ${now}) returning id`.execute(db);
  return row.rows[0].id;
}

/** One pre-008 posting: header + user legs only, balances moved as the old postLedger did. */
async function legacyPost(
  db: Kysely<any>,
  key: string,
  kind: string,
  userId: number,
  ref: [string, string] | null,
  legs: { currency: string; account: string; amount: number }[],
): Promise<void> {
  const now = Date.now();
  const tx = await sql<{ id: number }>`insert into ledger_transactions (idempotency_key, kind, user_id, ref_type, ref_id, created_at)
    values (${key}, ${kind}, ${userId}, ${ref?.[0] ?? null}, ${ref?.[1] ?? null}, ${now}) returning id`.execute(db);
  for (const l of legs) {
    const current = await sql<{ amount: number }>`select amount from balances where user_id = ${userId} and currency = ${l.currency} and account = ${l.account}`.execute(db);
    if (current.rows.length === 0) {
      await sql`insert into balances (user_id, currency, account, amount, updated_at) values (${userId}, ${l.currency}, ${l.account}, ${l.amount}, ${now})`.execute(db);
    } else {
      await sql`update balances set amount = amount + ${l.amount} where user_id = ${userId} and currency = ${l.currency} and account = ${l.account}`.execute(db);
    }
    const after = await sql<{ amount: number }>`select amount from balances where user_id = ${userId} and currency = ${l.currency} and account = ${l.account}`.execute(db);
    await sql`insert into ledger_entries (ledger_tx_id, user_id, currency, account, amount, balance_after, created_at)
      values (${tx.rows[0].id}, ${userId}, ${l.currency}, ${l.account}, ${l.amount}, ${after.rows[0].amount}, ${now})`.execute(db);
  }
}

describe('migration 008 on books written before it', () => {
  it('adds the counter-entry of every old transaction, so every currency and every transaction sums to zero', async () => {
    const file = tempFile();
    const old = rawDb(file);
    const to007 = await migrator(old).migrateTo('007_ledger_guards');
    expect(to007.error).toBeUndefined();
    const now = Date.now();

    const u1 = await insertUser(old, 'legacy1');
    const u2 = await insertUser(old, 'legacy2');
    await sql`insert into payment_methods (id, name, avatar_url, category, country_code, currency_code, supports_all_currencies, integration_type, sums_currency, min_amount, max_amount, estimated_processing_time, sort_order, created_at, updated_at)
      values ('usdt_trc20', 'USDT', '', 'crypto', 'ALL', 'ALL', 1, 'crypto_address', 'USD', 1000, 5000000, 'up to 1 hour', 1, ${now}, ${now})`.execute(old);
    const payment = (userId: number, type: string, amount: number) =>
      sql<{ id: number }>`insert into payment_transactions (user_id, transaction_type, status, payment_method_id, method_name, integration_type, account, currency, amount, final_amount, payment_currency, amount_payment_currency, exchange_rate, created_at, updated_at)
        values (${userId}, ${type}, 'approved', 'usdt_trc20', 'USDT', 'crypto_address', 'real', 'USD', ${amount}, ${amount}, 'USDT', ${amount}, '1', ${now}, ${now}) returning id`.execute(old);
    const dep = (await payment(u1, 'deposit', 50_000)).rows[0].id;
    const wd = (await payment(u1, 'withdrawal', 10_000)).rows[0].id;

    await legacyPost(old, `demo-open:${u1}:USD`, 'demo_open', u1, null, [{ currency: 'USD', account: 'demo', amount: 1_000_000 }]);
    await legacyPost(old, `demo-open:${u2}:EUR`, 'demo_open', u2, null, [{ currency: 'EUR', account: 'demo', amount: 1_000_000 }]);
    await legacyPost(old, 'seed:demo-real', 'deposit_credit', u2, ['seed', 'demo'], [{ currency: 'EUR', account: 'real', amount: 100_000 }]);
    await legacyPost(old, `deposit:${dep}:credit`, 'deposit_credit', u1, ['payment', String(dep)], [{ currency: 'USD', account: 'real', amount: 50_000 }]);
    await legacyPost(old, 'order:1:stake', 'order_stake', u1, ['order', '1'], [{ currency: 'USD', account: 'real', amount: -2_000 }]);
    await legacyPost(old, 'order:1:settle', 'order_payout', u1, ['order', '1'], [{ currency: 'USD', account: 'real', amount: 3_640 }]);
    await legacyPost(old, 'order:2:stake', 'order_stake', u1, ['order', '2'], [{ currency: 'USD', account: 'demo', amount: -5_000 }]);
    await legacyPost(old, `withdrawal:${wd}:hold`, 'withdrawal_hold', u1, ['payment', String(wd)], [
      { currency: 'USD', account: 'real', amount: -10_000 },
      { currency: 'USD', account: 'real_hold', amount: 10_000 },
    ]);
    await legacyPost(old, `withdrawal:${wd}:payout`, 'withdrawal_payout', u1, ['payment', String(wd)], [{ currency: 'USD', account: 'real_hold', amount: -10_000 }]);
    await legacyPost(old, 'odd:1', 'deposit_credit', u2, ['manual', 'x'], [{ currency: 'EUR', account: 'real', amount: 7 }]);
    // Open real orders from before 008: the exposure the risk limit reads starts from them.
    for (const [direction, stake, status] of [['up', 2_000, 'open'], ['up', 1_000, 'open'], ['down', 500, 'open'], ['down', 700, 'closed']] as const) {
      await sql`insert into orders (user_id, pair_code, pair_human_code, direction, account, currency, stake, payout_rate_bp, price_precision, expiry_seconds, accepted_at, expires_at, open_price, entry_tick_time, entry_tick_seq, status)
        values (${u1}, 'EURUSD', 'EUR/USD', ${direction}, 'real', 'USD', ${stake}, 9200, 5, 60, ${now}, ${now + 60_000}, 1.16, ${now}, 1, ${status})`.execute(old);
    }
    await old.destroy();
    dbs.splice(dbs.indexOf(old), 1);

    // Before 008 the books of the old data cannot balance: only the users' side exists.
    // openDatabase migrates to the latest (008 and later).
    const db = await openDatabase(file);
    dbs.push(db);
    expect(await checkZeroSum(db)).toEqual({ currencies: [], transactions: [], unsealed: [] });
    expect(await auditLedger(db)).toEqual([]);
    const books = await readBooks(db);
    expect(books.currencies.USD).toEqual({
      accounts: {
        'house:clearing:crypto_address': -50_000 + 10_000,
        'house:demo_issuer': -1_000_000 + 5_000,
        'house:trading': 2_000 - 3_640,
        'users:demo': 995_000,
        'users:real': 50_000 - 2_000 + 3_640 - 10_000,
        'users:real_hold': 0,
      },
      sum: 0,
    });
    expect(books.currencies.EUR).toEqual({
      accounts: { 'house:clearing:seed': -100_000, 'house:demo_issuer': -1_000_000, 'house:suspense': -7, 'users:demo': 1_000_000, 'users:real': 100_007 },
      sum: 0,
    });
    expect(await db.selectFrom('pair_exposure').selectAll().orderBy('direction', 'desc').execute()).toEqual([
      { pair_code: 'EURUSD', direction: 'up', currency: 'USD', open_count: 2, stakes: 3_000, payouts: 3_840 + 1_920 },
      { pair_code: 'EURUSD', direction: 'down', currency: 'USD', open_count: 1, stakes: 500, payouts: 960 },
    ]);
    expect(await exposureDrift(db)).toEqual([]);
    // Every old transaction is sealed: nothing can be added to it any more.
    const first = await db.selectFrom('ledger_transactions').select('id').orderBy('id').executeTakeFirstOrThrow();
    await expect(
      sql`insert into house_entries (ledger_tx_id, account, currency, amount, balance_after, created_at) values (${first.id}, 'house:trading', 'USD', 1, 1, 0)`.execute(db),
    ).rejects.toThrow(/sealed/);
  });
});

describe('the zero-sum rule', () => {
  async function freshDb(): Promise<{ db: DB; userId: number }> {
    const db = await openDatabase(tempFile());
    dbs.push(db);
    const userId = await insertUser(db, 'fresh');
    await transaction(db, (trx) => resetDemo(trx, userId, 'USD', 'demo-open:1', 'demo_open'));
    return { db, userId };
  }

  it('postLedger refuses legs that do not sum to zero per currency, and writes nothing', async () => {
    const { db, userId } = await freshDb();
    const before = await readBooks(db);
    const count = async () => (await db.selectFrom('ledger_transactions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    const n = await count();
    await expect(
      transaction(db, (trx) => postLedger(trx, { key: 'one-sided', kind: 'deposit_credit', userId, entries: [{ currency: 'USD', account: 'real', amount: 100 }] })),
    ).rejects.toBeInstanceOf(UnbalancedLedgerError);
    await expect(
      transaction(db, (trx) =>
        postLedger(trx, {
          key: 'two-currencies',
          kind: 'deposit_credit',
          userId,
          // Balanced in total but not per currency.
          entries: [
            { currency: 'USD', account: 'real', amount: 100 },
            { currency: 'EUR', account: clearingAccount('manual'), amount: -100 },
          ],
        }),
      ),
    ).rejects.toThrow(/does not balance: USD 100, EUR -100/);
    // The demo issuer may not pay real money.
    await expect(
      transaction(db, (trx) =>
        postLedger(trx, { key: 'demo-pays-real', kind: 'deposit_credit', userId, entries: withCounterparty(HOUSE_DEMO_ISSUER, [{ currency: 'USD', account: 'real', amount: 100 }]) }),
      ),
    ).rejects.toThrow(/mix demo and real/);
    expect(await count()).toBe(n);
    expect(await readBooks(db)).toEqual(before);

    const ok = await transaction(db, (trx) =>
      postLedger(trx, { key: 'deposit', kind: 'deposit_credit', userId, entries: withCounterparty(clearingAccount('manual'), [{ currency: 'USD', account: 'real', amount: 100 }]) }),
    );
    expect(ok.applied).toBe(true);
    const books = await readBooks(db);
    expect(books.currencies.USD.accounts['house:clearing:manual']).toBe(-100);
    expect(books.currencies.USD.sum).toBe(0);
  });

  it('the database refuses to seal an unbalanced transaction, and to add a leg to a sealed one', async () => {
    const { db, userId } = await freshDb();
    const stake = await transaction(db, (trx) =>
      postLedger(trx, { key: 'stake', kind: 'order_stake', userId, entries: withCounterparty(HOUSE_DEMO_ISSUER, [{ currency: 'USD', account: 'demo', amount: -500 }]) }),
    );
    // A writer that bypasses postLedger: a header and one leg, then the seal.
    await expect(
      transaction(db, async (trx) => {
        const tx = await trx
          .insertInto('ledger_transactions')
          .values({ idempotency_key: 'rogue', kind: 'order_payout', user_id: userId, ref_type: null, ref_id: null, created_at: 0 })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.insertInto('house_entries').values({ ledger_tx_id: tx.id, account: HOUSE_TRADING, currency: 'USD', amount: -999, balance_after: -999, created_at: 0 }).execute();
        await trx.insertInto('ledger_seals').values({ ledger_tx_id: tx.id, created_at: 0 }).execute();
      }),
    ).rejects.toThrow(/does not balance/);
    await expect(
      sql`insert into ledger_entries (ledger_tx_id, user_id, currency, account, amount, balance_after, created_at) values (${stake.ledgerTxId}, ${userId}, 'USD', 'demo', 1, 1, 0)`.execute(db),
    ).rejects.toThrow(/sealed/);
    // The seal and the house legs are append-only too.
    await expect(sql`delete from ledger_seals where ledger_tx_id = ${stake.ledgerTxId}`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`update house_entries set amount = 0`.execute(db)).rejects.toThrow(/append-only/);
    // A transaction left unsealed (written around postLedger) is reported by the check.
    await sql`insert into ledger_transactions (idempotency_key, kind, user_id, created_at) values ('unsealed', 'order_payout', ${userId}, 0)`.execute(db);
    const report = await checkZeroSum(db);
    expect(report.unsealed).toHaveLength(1);
    expect(report.currencies).toEqual([]);
  });
});
