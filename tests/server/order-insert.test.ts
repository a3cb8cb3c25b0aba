/**
 * The placement's order insert (server/domain/orders/repository.ts storeOrder) answers the row
 * as stored without reading it back and without `returning *` (on SQLite the insert hands over
 * the id; `returning` cost as much as the insert). The answer must be the stored row, column for
 * column, defaults included: on the project's database (SQLite on `node`, PostgreSQL on
 * `server-pg`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { transaction, type DB } from '../../server/db';
import { storeOrder, type NewOrder } from '../../server/domain/orders/repository';
import { useTestDatabase } from '../support/test-database';
import { insertUserRow } from '../support/users';

const database = useTestDatabase('order-insert');
let db: DB;
beforeAll(() => void (db = database.db));

describe('order insert', () => {
  it('answers the stored row, column for column, for each new order', async () => {
    const now = Date.now();
    const userId = await insertUserRow(db, 'order-insert', now);
    const order = (i: number): NewOrder => ({
      user_id: userId,
      client_request_id: i === 0 ? null : `req-${i}`,
      pair_code: 'BTCUSD',
      pair_human_code: 'BTC/USD',
      direction: i % 2 ? 'up' : 'down',
      account: i % 2 ? 'demo' : 'real',
      currency: 'USD',
      stake: 1_250 + i,
      payout_rate_bp: 8_500,
      price_precision: 2,
      expiry_seconds: 60,
      accepted_at: now + i,
      expires_at: now + i + 60_000,
      open_price: 64_123.45,
      entry_tick_time: now - 50,
      entry_tick_seq: 41 + i,
    });
    const answers = await transaction(db, async (trx) => [await storeOrder(trx, order(0)), await storeOrder(trx, order(1))]);
    expect(answers[1]!.id).toBeGreaterThan(answers[0]!.id);
    for (const answer of answers) {
      const stored = await db.selectFrom('orders').selectAll().where('id', '=', answer.id).executeTakeFirstOrThrow();
      expect(answer).toStrictEqual(stored);
    }
  });
});
