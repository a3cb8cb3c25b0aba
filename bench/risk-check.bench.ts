/**
 * The risk check at placement (docs/money.md, "Risk limit per pair"): the time `checkPairRisk`
 * adds to an order's write transaction when its pair already has N open real orders (a quarter
 * of 4N open orders over four pairs), net of an empty transaction. It reads `pair_exposure`
 * (kept by triggers on orders) by primary key, so it should not grow with N.
 * Baseline (same run, same data): the aggregate over the pair's open orders that the check
 * would run without the kept figures (the partial index `orders_open_pair`, migration 014).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, transaction } from '../server/db';
import { checkPairRisk } from '../server/domain/orders/exposure';
import { emit, size, SMOKE, tempDir } from './lib';

const ON_PAIR = size(12_500, 100);
const REPS = size(2000, 50);

const us = (x: number) => `${x < 10 ? x.toFixed(1) : Math.round(x)} µs`;

async function main() {
  const dir = tempDir('risk');
  const db = await openDatabase(path.join(dir, 'tradeterminal.db'));
  try {
    const now = Date.now();
    const user = await sql<{ id: number }>`insert into users (username, email, password_hash, first_name, last_name, phone, currency, password_changed_at, created_at, updated_at)
      values ('bench', 'bench@example.test', 'x', 'B', 'B', '+1', 'USD', ${now}, ${now}, ${now}) returning id`.execute(db);
    const uid = user.rows[0].id;
    await transaction(db, async (trx) => {
      for (let i = 0; i < ON_PAIR * 4; i++) {
        const pair = ['EURUSD', 'GBPUSD', 'BTCUSD', 'AAPL'][i % 4];
        await sql`insert into orders (user_id, pair_code, pair_human_code, direction, account, currency, stake, payout_rate_bp, price_precision, expiry_seconds, accepted_at, expires_at, open_price, entry_tick_time, entry_tick_seq, status)
          values (${uid}, ${pair}, ${pair}, ${i % 8 < 4 ? 'up' : 'down'}, 'real', 'USD', 1000, 9200, 5, 3600, ${now}, ${now + 3_600_000}, 1.16, ${now}, 1, 'open')`.execute(trx);
      }
    });
    const order = { pairCode: 'EURUSD', direction: 'up' as const, account: 'real', currency: 'USD', stake: 1000, payoutRateBp: 9200 };
    const time = async (fn: () => Promise<unknown>) => {
      for (let i = 0; i < Math.min(50, REPS); i++) await fn();
      const t0 = performance.now();
      for (let i = 0; i < REPS; i++) await fn();
      return ((performance.now() - t0) / REPS) * 1000;
    };
    const empty = await time(() => transaction(db, async () => undefined));
    const check = (await time(() => transaction(db, (trx) => checkPairRisk(trx, order, 1_000_000_000)))) - empty;
    const aggregate =
      (await time(() =>
        transaction(db, (trx) =>
          sql`select direction, currency, count(*), sum(stake), sum(stake + stake * payout_rate_bp / 10000) from orders
              where pair_code = 'EURUSD' and status = 'open' and account = 'real' group by direction, currency`.execute(trx),
        ),
      )) - empty;
    emit({
      id: 'risk-check',
      measure: `risk check per placement, ${ON_PAIR} open real orders on the pair`,
      value: us(check),
      baseline: `${us(aggregate)} (aggregate over the open orders)`,
      goal: '< 250 µs, flat in the open orders',
      met: SMOKE ? null : check < 250,
      note: `net of an empty write transaction (${us(empty)}); ${REPS} checks`,
    });
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
