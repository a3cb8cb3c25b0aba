/**
 * Hot-path queries built once (server/db/prepared.ts), on the database of the project (SQLite on
 * `node`, PostgreSQL on `server-pg`): slots are bound parameters filled per call, constants stay,
 * one compiled text is reused, and a slot the call leaves out is refused. On SQLite a query with
 * no transaction open runs on the connection at once, and one issued while another caller's
 * transaction is open waits for it (never runs inside it or sees its rows).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf, openDatabase, SQLITE_FILE, transaction, type DB } from '../../server/db';
import { prepared } from '../../server/db/prepared';
import { prepareDatabase, releaseDatabase } from '../support/test-database';

let db: DB;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-prepared-'));
  db = await openDatabase({ dataDir: dir, databaseUrl: await prepareDatabase(dir) });
});
afterAll(async () => {
  await db?.destroy();
  await releaseDatabase(dir);
  fs.rmSync(dir, { recursive: true, force: true });
});

const insertRate = prepared((d, p: { pair_code: string; max: number; now: number }) =>
  d
    .insertInto('risk_limits')
    .values({ pair_code: p.pair_code, max_loss_usd_minor: p.max, updated_at: p.now })
    .onConflict((oc) => oc.column('pair_code').doUpdateSet({ max_loss_usd_minor: sql<number>`excluded.max_loss_usd_minor + 0`, updated_at: sql<number>`excluded.updated_at` }))
    .returning(['pair_code', 'max_loss_usd_minor']),
);
const limitsAbove = prepared((d, p: { above: number }) =>
  d.selectFrom('risk_limits').select(['pair_code', 'max_loss_usd_minor']).where('max_loss_usd_minor', '>', p.above).where('pair_code', '<>', 'NONE').orderBy('pair_code'),
);

describe('prepared queries', () => {
  it('fills the slots per call and keeps the constants', async () => {
    const a = await insertRate.first(db, { pair_code: 'EURUSD', max: 500, now: 1 });
    expect(a).toEqual({ pair_code: 'EURUSD', max_loss_usd_minor: 500 });
    await insertRate.run(db, { pair_code: 'BTCUSD', max: 900, now: 2 });
    const updated = await insertRate.run(db, { pair_code: 'EURUSD', max: 700, now: 3 });
    expect(updated.rows).toEqual([{ pair_code: 'EURUSD', max_loss_usd_minor: 700 }]);
    expect(updated.changes).toBe(1);

    expect(await limitsAbove.all(db, { above: 600 })).toEqual([
      { pair_code: 'BTCUSD', max_loss_usd_minor: 900 },
      { pair_code: 'EURUSD', max_loss_usd_minor: 700 },
    ]);
    expect(await limitsAbove.all(db, { above: 800 })).toEqual([{ pair_code: 'BTCUSD', max_loss_usd_minor: 900 }]);
    // One text per dialect, with bound parameters (no value written into it).
    expect(limitsAbove.sqlFor(db)).not.toContain('800');
  });

  it('runs inside a transaction on its connection and rolls back with it', async () => {
    await expect(
      transaction(db, async (trx) => {
        await insertRate.run(trx, { pair_code: 'ETHUSD', max: 1000, now: 4 });
        expect(await limitsAbove.all(trx, { above: 950 })).toEqual([{ pair_code: 'ETHUSD', max_loss_usd_minor: 1000 }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await limitsAbove.all(db, { above: 950 })).toEqual([]);
  });

  it('never runs inside, or sees, a transaction another caller has open', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const written = new Promise<void>((resolve) => (inserted = resolve));
    let committed = false;
    const writer = transaction(db, async (trx) => {
      await insertRate.run(trx, { pair_code: 'XAUUSD', max: 5000, now: 5 });
      inserted();
      await gate;
    }).then(() => {
      committed = true;
    });
    await written;
    // Issued while the transaction is open (its row written, its commit still to come).
    const read = limitsAbove.all(db, { above: 4000 }).then((rows) => ({ rows, afterCommit: committed }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await writer;
    const { rows, afterCommit } = await read;
    if (dialectOf(db) === 'sqlite') {
      // One connection: the read waits for the commit, then sees the committed row.
      expect(afterCommit).toBe(true);
      expect(rows).toEqual([{ pair_code: 'XAUUSD', max_loss_usd_minor: 5000 }]);
    } else {
      // A pool: the read runs beside the transaction and sees what was committed before it.
      expect(rows).toEqual([]);
    }
  });

  it('with no transaction open, runs on the SQLite connection at once', async () => {
    // SQLite's own (on either project): PostgreSQL always goes through the driver's pool.
    const file = path.join(dir, 'direct', SQLITE_FILE);
    const lite = await openDatabase(file);
    const other = new SQLite(file, { readonly: true });
    try {
      const pending = insertRate.run(lite, { pair_code: 'XAGUSD', max: 300, now: 6 });
      // Committed before the caller even awaits it (no turn through the driver's queue): another
      // connection already reads it.
      expect(other.prepare('select max_loss_usd_minor from risk_limits where pair_code = ?').get('XAGUSD')).toEqual({ max_loss_usd_minor: 300 });
      expect((await pending).rows).toEqual([{ pair_code: 'XAGUSD', max_loss_usd_minor: 300 }]);
    } finally {
      other.close();
      await lite.destroy();
    }
  });

  it('refuses a call that leaves a slot out (never a silent NULL)', async () => {
    await expect(limitsAbove.all(db, {} as { above: number })).rejects.toThrow('no value for slot "above"');
  });
});
