/**
 * Persisted candles: batched upserts of the candles that changed, the latest N of a series,
 * the candles a restarted service continues, and time-based retention per timeframe.
 */
import type { Candle } from '../../../contract/market';
import { TIMEFRAMES, TIMEFRAME_SECONDS, type Timeframe } from '../../../contract/user';
import type { DB, Trx } from '../../db';
import { bucketStart } from './candles';

/** Candles kept per timeframe: twice what a chart shows, so a restart never leaves a short chart. */
export const CANDLE_RETENTION_COUNT = 2000;

/** Rows per statement: 9 parameters each. */
const CANDLE_CHUNK = 400;

type CandleRow = {
  pair_code: string;
  timeframe: string;
  bucket: number | string | bigint;
  open: number | string;
  high: number | string;
  low: number | string;
  close: number | string;
  volume: number | string | bigint;
};

const rowToCandle = (r: CandleRow): Candle => ({
  pair_code: r.pair_code,
  timeframe: r.timeframe as Timeframe,
  timestamp: Number(r.bucket),
  open: Number(r.open),
  high: Number(r.high),
  low: Number(r.low),
  close: Number(r.close),
  volume: Number(r.volume),
});

const candleRow = (c: Candle, isBackfill: boolean) => ({
  pair_code: c.pair_code,
  timeframe: c.timeframe,
  bucket: c.timestamp,
  open: c.open,
  high: c.high,
  low: c.low,
  close: c.close,
  volume: c.volume,
  is_backfill: isBackfill ? 1 : 0,
});

/** Write live candles: insert, or replace the OHLCV of the stored candle of the same bucket. */
export async function upsertCandles(trx: Trx, candles: readonly Candle[]): Promise<void> {
  for (let i = 0; i < candles.length; i += CANDLE_CHUNK) {
    const rows = candles.slice(i, i + CANDLE_CHUNK).map((c) => candleRow(c, false));
    await trx
      .insertInto('market_candles')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['pair_code', 'timeframe', 'bucket']).doUpdateSet((eb) => ({
          open: eb.ref('excluded.open'),
          high: eb.ref('excluded.high'),
          low: eb.ref('excluded.low'),
          close: eb.ref('excluded.close'),
          volume: eb.ref('excluded.volume'),
        })),
      )
      .execute();
  }
}

/** Write generated history; a bucket that already has a candle keeps it. */
export async function insertBackfill(trx: Trx, candles: readonly Candle[]): Promise<void> {
  for (let i = 0; i < candles.length; i += CANDLE_CHUNK) {
    const rows = candles.slice(i, i + CANDLE_CHUNK).map((c) => candleRow(c, true));
    await trx
      .insertInto('market_candles')
      .values(rows)
      .onConflict((oc) => oc.columns(['pair_code', 'timeframe', 'bucket']).doNothing())
      .execute();
  }
}

/** The newest `limit` stored candles of a series, oldest first. */
export async function storedCandles(db: DB | Trx, pairCode: string, timeframe: Timeframe, limit: number): Promise<Candle[]> {
  const rows = await db
    .selectFrom('market_candles')
    .select(['pair_code', 'timeframe', 'bucket', 'open', 'high', 'low', 'close', 'volume'])
    .where('pair_code', '=', pairCode)
    .where('timeframe', '=', timeframe)
    .orderBy('bucket', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map(rowToCandle);
}

/**
 * The stored candles that contain `timeMs` in every timeframe: after a restart, the first tick
 * that falls in one of these buckets updates that candle instead of opening a fresh one.
 */
export async function candlesContaining(db: DB | Trx, pairCode: string, timeMs: number): Promise<Candle[]> {
  const rows = await db
    .selectFrom('market_candles')
    .select(['pair_code', 'timeframe', 'bucket', 'open', 'high', 'low', 'close', 'volume'])
    .where('pair_code', '=', pairCode)
    .where((eb) =>
      eb.or(TIMEFRAMES.map((tf) => eb.and([eb('timeframe', '=', tf), eb('bucket', '=', bucketStart(timeMs, tf))]))),
    )
    .execute();
  return rows.map(rowToCandle);
}

/** The oldest bucket (unix s) of a timeframe that retention keeps at `nowMs`. */
export function candleRetentionCutoff(nowMs: number, timeframe: Timeframe): number {
  return bucketStart(nowMs, timeframe) - CANDLE_RETENTION_COUNT * TIMEFRAME_SECONDS[timeframe];
}

/**
 * Delete a pair's candles older than CANDLE_RETENTION_COUNT buckets of their timeframe before
 * `nowMs` (per pair and timeframe, so each delete walks the primary key). Returns rows deleted.
 */
export async function pruneCandles(trx: Trx, pairCode: string, nowMs: number): Promise<number> {
  let deleted = 0;
  for (const tf of TIMEFRAMES) {
    const result = await trx
      .deleteFrom('market_candles')
      .where('pair_code', '=', pairCode)
      .where('timeframe', '=', tf)
      .where('bucket', '<', candleRetentionCutoff(nowMs, tf))
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}

/** The newest stored candle of a series that starts at or before `bucket` (unix s), or undefined. */
export async function candleAtOrBefore(db: DB | Trx, pairCode: string, timeframe: Timeframe, bucket: number): Promise<Candle | undefined> {
  const row = await db
    .selectFrom('market_candles')
    .select(['pair_code', 'timeframe', 'bucket', 'open', 'high', 'low', 'close', 'volume'])
    .where('pair_code', '=', pairCode)
    .where('timeframe', '=', timeframe)
    .where('bucket', '<=', bucket)
    .orderBy('bucket', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? rowToCandle(row) : undefined;
}

/** The oldest stored candle of a series, or undefined. */
export async function earliestCandle(db: DB | Trx, pairCode: string, timeframe: Timeframe): Promise<Candle | undefined> {
  const row = await db
    .selectFrom('market_candles')
    .select(['pair_code', 'timeframe', 'bucket', 'open', 'high', 'low', 'close', 'volume'])
    .where('pair_code', '=', pairCode)
    .where('timeframe', '=', timeframe)
    .orderBy('bucket', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row ? rowToCandle(row) : undefined;
}
