/**
 * postLedgerMany (server/domain/ledger.ts): a settlement batch's payouts posted with multi-row
 * statements must leave exactly the rows that posting them one by one with postLedger leaves
 * (balances, entries with their balance after, house entries, seals, events), keep the
 * idempotency keys, and refuse what postLedger refuses. On the project's database (SQLite on
 * `node`, PostgreSQL on `server-pg`). Also the multi-row prepared queries it is built on.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf, openDatabase, transaction, type DB } from '../../server/db';
import { MAX_ROWS_PER_STATEMENT, preparedRows } from '../../server/db/prepared';
import {
  auditLedger,
  checkZeroSum,
  clearingAccount,
  HOUSE_DEMO_ISSUER,
  HOUSE_TRADING,
  InsufficientBalanceError,
  postLedger,
  postLedgerMany,
  withCounterparty,
  type LedgerPost,
} from '../../server/domain/ledger';
import { prepareDatabase, releaseDatabase } from '../support/test-database';
import { insertUserRow } from '../support/users';

const dbs: { db: DB; dir: string }[] = [];
async function freshDb(): Promise<DB> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-ledger-many-'));
  const db = await openDatabase({ dataDir: dir, databaseUrl: await prepareDatabase(dir) });
  dbs.push({ db, dir });
  return db;
}
afterAll(async () => {
  for (const { db, dir } of dbs) {
    await db.destroy();
    await releaseDatabase(dir);
  }
});

/** Three users; the same ids in every fresh database (inserted in the same order). */
async function users(db: DB): Promise<number[]> {
  const out: number[] = [];
  for (const name of ['ann', 'bob', 'cat']) out.push(await insertUserRow(db, name, 1));
  return out;
}

/** Deposits and demo money first (one by one), then a batch of payouts, refunds and stakes. */
function postings([a, b, c]: number[]): { setup: LedgerPost[]; batch: LedgerPost[] } {
  const deposit = (userId: number, key: string, amount: number): LedgerPost => ({
    key,
    kind: 'deposit_credit',
    userId,
    entries: withCounterparty(clearingAccount('manual'), [{ currency: 'USD', account: 'real', amount }]),
  });
  const real = (userId: number, key: string, amount: number, kind: LedgerPost['kind'] = 'order_payout'): LedgerPost => ({
    key,
    kind,
    userId,
    ref: { type: 'order', id: key },
    entries: withCounterparty(HOUSE_TRADING, [{ currency: 'USD', account: 'real', amount }]),
  });
  const demo = (userId: number, key: string, amount: number): LedgerPost => ({
    key,
    kind: 'order_payout',
    userId,
    entries: withCounterparty(HOUSE_DEMO_ISSUER, [{ currency: 'EUR', account: 'demo', amount }]),
  });
  return {
    setup: [deposit(a, 'dep-a', 1_000), deposit(b, 'dep-b', 500), demo(c, 'demo-c', 10_000)],
    batch: [
      real(a, 'o1', 192),
      real(b, 'o2', 100, 'order_refund'),
      demo(c, 'o3', 1_920),
      real(a, 'o4', -700, 'order_stake'),
      real(a, 'o5', 384),
      demo(c, 'o6', 960),
      real(b, 'o7', 96),
    ],
  };
}

/** Every row the postings wrote, without ids and times (which differ by construction). */
async function snapshot(db: DB) {
  const txs = await db.selectFrom('ledger_transactions').select(['id', 'idempotency_key', 'kind', 'user_id', 'ref_type', 'ref_id']).orderBy('id').execute();
  const keyOf = new Map(txs.map((t) => [Number(t.id), t.idempotency_key]));
  const entries = await db.selectFrom('ledger_entries').select(['ledger_tx_id', 'user_id', 'currency', 'account', 'amount', 'balance_after']).orderBy('id').execute();
  const house = await db.selectFrom('house_entries').select(['ledger_tx_id', 'account', 'currency', 'amount', 'balance_after']).orderBy('id').execute();
  const seals = await db.selectFrom('ledger_seals').select('ledger_tx_id').orderBy('ledger_tx_id').execute();
  const events = await db.selectFrom('domain_events').select(['type', 'user_id', 'payload']).orderBy('id').execute();
  const balances = await db.selectFrom('balances').select(['user_id', 'currency', 'account', 'amount']).orderBy('user_id').orderBy('currency').orderBy('account').execute();
  const houseBalances = await db.selectFrom('house_balances').select(['account', 'currency', 'amount']).orderBy('account').orderBy('currency').execute();
  const byKey = <T extends { ledger_tx_id: number }>(rows: T[]) =>
    rows.map(({ ledger_tx_id, ...r }) => ({ key: keyOf.get(Number(ledger_tx_id)), ...r })).map((r) => JSON.parse(JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))));
  return {
    txs: txs.map(({ id: _id, ...t }) => t),
    entries: byKey(entries),
    house: byKey(house),
    seals: seals.map((s) => keyOf.get(Number(s.ledger_tx_id))),
    events,
    balances: balances.map((r) => ({ ...r, amount: Number(r.amount) })),
    houseBalances: houseBalances.map((r) => ({ ...r, amount: Number(r.amount) })),
  };
}

describe('postLedgerMany', () => {
  let one: DB;
  let many: DB;
  let ids: number[];
  beforeAll(async () => {
    one = await freshDb();
    many = await freshDb();
    ids = await users(one);
    expect(await users(many)).toEqual(ids);
    const { setup, batch } = postings(ids);
    for (const db of [one, many]) for (const p of setup) await transaction(db, (trx) => postLedger(trx, p, 10));
    await transaction(one, async (trx) => {
      for (const p of batch) await postLedger(trx, p, 20);
    });
    const results = await transaction(many, (trx) => postLedgerMany(trx, batch, 20));
    expect(results.map((r) => r.applied)).toEqual(batch.map(() => true));
  });

  it('stores what posting one by one stores: entries and their balance after, house legs, seals, events, balances', async () => {
    const a = await snapshot(one);
    const b = await snapshot(many);
    expect(b).toEqual(a);
    // The balance after of each user leg, in posting order (a: 1,000 + 192 - 700 + 384).
    expect(b.entries.filter((e) => e.user_id === ids[0]).map((e) => e.balance_after)).toEqual([1_000, 1_192, 492, 876]);
    expect(await auditLedger(many)).toEqual([]);
    expect(await checkZeroSum(many)).toEqual({ currencies: [], transactions: [], unsealed: [] });
  });

  it('a key posted before changes nothing and reports applied: false; the rest are posted', async () => {
    const [a] = ids;
    const again: LedgerPost = { key: 'o1', kind: 'order_payout', userId: a, entries: withCounterparty(HOUSE_TRADING, [{ currency: 'USD', account: 'real', amount: 192 }]) };
    const fresh: LedgerPost = { key: 'o8', kind: 'order_payout', userId: a, entries: withCounterparty(HOUSE_TRADING, [{ currency: 'USD', account: 'real', amount: 50 }]) };
    const before = await snapshot(many);
    const results = await transaction(many, (trx) => postLedgerMany(trx, [again, fresh], 30));
    expect(results[0].applied).toBe(false);
    expect(results[0].ledgerTxId).toBe(Number((await many.selectFrom('ledger_transactions').select('id').where('idempotency_key', '=', 'o1').executeTakeFirstOrThrow()).id));
    expect(results[1].applied).toBe(true);
    const after = await snapshot(many);
    expect(after.txs).toEqual([...before.txs, { idempotency_key: 'o8', kind: 'order_payout', user_id: a, ref_type: null, ref_id: null }]);
    expect(after.balances.find((r) => r.user_id === a && r.account === 'real')?.amount).toBe(876 + 50);
    expect(await auditLedger(many)).toEqual([]);
  });

  it('refuses a posting that takes a balance below zero at its turn, and writes nothing', async () => {
    const db = await freshDb();
    const [a] = await users(db);
    const leg = (key: string, amount: number): LedgerPost => ({ key, kind: 'order_stake', userId: a, entries: withCounterparty(HOUSE_TRADING, [{ currency: 'USD', account: 'real', amount }]) });
    await transaction(db, (trx) => postLedger(trx, { ...leg('dep', 100), kind: 'deposit_credit', entries: withCounterparty(clearingAccount('manual'), [{ currency: 'USD', account: 'real', amount: 100 }]) }));
    const before = await snapshot(db);
    // The sum (100 - 150 + 200) would do, but the stake's turn comes before the credit.
    await expect(transaction(db, (trx) => postLedgerMany(trx, [leg('s1', -150), leg('c1', 200)]))).rejects.toBeInstanceOf(InsufficientBalanceError);
    expect(await snapshot(db)).toEqual(before);
    // The other way round is fine.
    await transaction(db, (trx) => postLedgerMany(trx, [leg('c1', 200), leg('s1', -150)]));
    expect((await snapshot(db)).entries.map((e) => e.balance_after)).toEqual([100, 300, 150]);
  });

  it('refuses a list that names a key twice, and an unbalanced posting, before writing', async () => {
    const [a] = ids;
    const p: LedgerPost = { key: 'twice', kind: 'order_payout', userId: a, entries: withCounterparty(HOUSE_TRADING, [{ currency: 'USD', account: 'real', amount: 5 }]) };
    const before = await snapshot(many);
    await expect(transaction(many, (trx) => postLedgerMany(trx, [p, p]))).rejects.toThrow('given twice');
    await expect(
      transaction(many, (trx) => postLedgerMany(trx, [{ ...p, key: 'one-sided', entries: [{ currency: 'USD', account: 'real', amount: 5 }] }])),
    ).rejects.toThrow('does not balance');
    expect(await snapshot(many)).toEqual(before);
  });
});

describe('preparedRows', () => {
  const insertLimits = preparedRows((d, rows: { pair_code: string; max: number }[]) =>
    d.insertInto('risk_limits').values(rows.map((r) => ({ pair_code: r.pair_code, max_loss_usd_minor: r.max, updated_at: 0 }))).returning('pair_code'),
  );

  it('sends any number of rows as statements of power-of-two sizes, in order', async () => {
    const db = await freshDb();
    const rows = Array.from({ length: MAX_ROWS_PER_STATEMENT + 25 }, (_, i) => ({ pair_code: `P${String(i).padStart(3, '0')}`, max: i }));
    const r = await transaction(db, (trx) => insertLimits.run(trx, rows));
    expect(r.changes).toBe(rows.length);
    expect(r.rows.map((x) => x.pair_code).sort()).toEqual(rows.map((x) => x.pair_code));
    const stored = await db.selectFrom('risk_limits').select(['pair_code', 'max_loss_usd_minor']).orderBy('pair_code').execute();
    expect(stored.map((s) => [s.pair_code, Number(s.max_loss_usd_minor)])).toEqual(rows.map((x) => [x.pair_code, x.max]));
    // One text per row count, with bound parameters only.
    const text = insertLimits.sqlFor(db, 3);
    expect(text.match(/\(\s*[?$]/g)?.length).toBe(3);
    expect(text).not.toContain('P000');
  });

  it('refuses a row that leaves a slot out, and an empty list', async () => {
    const db = await freshDb();
    await expect(insertLimits.run(db, [{ pair_code: 'A', max: 1 }, { pair_code: 'B' } as { pair_code: string; max: number }])).rejects.toThrow(
      'no value for slot "max" of row 1',
    );
    await expect(insertLimits.run(db, [])).rejects.toThrow('no rows');
    expect(await db.selectFrom('risk_limits').select('pair_code').execute()).toEqual([]);
  });
});

describe('ledger indexes', () => {
  it('a posting writes only indexes a query reads: the legs by transaction (the seal trigger), not by user or account', async () => {
    const db = await freshDb();
    const names =
      dialectOf(db) === 'postgres'
        ? (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename in ('ledger_transactions', 'ledger_entries', 'house_entries')`.execute(db)).rows
        : (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name in ('ledger_transactions', 'ledger_entries', 'house_entries')`.execute(db)).rows;
    const indexes = names.map((r) => r.name);
    expect(indexes).toEqual(expect.arrayContaining(['ledger_entries_tx', 'house_entries_tx']));
    // Migration 013 dropped these: nothing reads them, and every order wrote them.
    for (const unused of ['ledger_tx_user', 'ledger_entries_account', 'house_entries_account']) expect(indexes).not.toContain(unused);
  });
});
