/**
 * Hot-path queries built once (server/db/prepared.ts), on the database of the project (SQLite on
 * `node`, PostgreSQL on `server-pg`): slots are bound parameters filled per call, constants stay,
 * one compiled text is reused, and a slot the call leaves out is refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, transaction, type DB } from '../../server/db';
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

  it('refuses a call that leaves a slot out (never a silent NULL)', async () => {
    await expect(limitsAbove.all(db, {} as { above: number })).rejects.toThrow('no value for slot "above"');
  });
});
