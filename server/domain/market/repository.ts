/**
 * The market's own tables besides the tick log (tick-log.ts, tick-chain.ts) and the candles
 * (candle-store.ts): `pairs`, the catalogue as operated, and `market_series`, where each pair's
 * recorded history begins (its first tick, the anchor) and whether the history before it was
 * generated (backfill). Operator changes to `pairs` go through pair-admin.ts. Also here for
 * other areas: the lock on a pair's row that serializes real placements (orders) and the
 * operator's lookup of a stored pair (CLI).
 */
import type { Selectable } from 'kysely';
import { TIMEFRAMES } from '../../../contract/user';
import type { DB, Trx } from '../../db';
import type { PairsTable } from '../../db/tables/market';
import { CATALOGUE, pairLogoPath } from './catalogue';

/** A pair's first recorded tick (backfilled history ends here) and whether that history is written. */
export interface SeriesAnchor {
  time: number;
  price: number;
  backfilled: boolean;
}

export type PairRecord = Selectable<PairsTable>;

/** Add the catalogue pairs the table lacks; rows an operator changed stay as they are. */
export async function seedPairs(trx: Trx, now: number): Promise<void> {
  const rows = CATALOGUE.map((spec, i) => ({
    pair_code: spec.pair_code,
    pair_human_code: spec.pair_human_code,
    category: spec.category,
    is_active: spec.is_active ? 1 : 0,
    payout_rate: spec.payout_rate,
    precision: spec.precision,
    timeframes: JSON.stringify(TIMEFRAMES),
    logo: pairLogoPath(spec.pair_code),
    sort_order: i + 1,
    created_at: now,
    updated_at: now,
  }));
  await trx.insertInto('pairs').values(rows).onConflict((oc) => oc.column('pair_code').doNothing()).execute();
}

/** Every pairs row, in display order. */
export function pairRecords(db: DB | Trx): Promise<PairRecord[]> {
  return db.selectFrom('pairs').selectAll().orderBy('sort_order').orderBy('pair_code').execute();
}

/** The code of the pairs row `pairCode` names, or undefined when the table has no such pair. */
export async function storedPairCode(db: DB | Trx, pairCode: string): Promise<string | undefined> {
  const row = await db.selectFrom('pairs').select('pair_code').where('pair_code', '=', pairCode).executeTakeFirst();
  return row?.pair_code;
}

/**
 * PostgreSQL: lock the pair's row for the rest of the transaction. Real placements on one pair
 * take it first (orders/exposure.ts), so two of them never both pass the risk check on the same
 * exposure.
 */
export function lockPairRow(trx: Trx, pairCode: string): Promise<unknown> {
  return trx.selectFrom('pairs').select('pair_code').where('pair_code', '=', pairCode).forUpdate().execute();
}

/** Each pair's active flag as stored. */
export async function pairActiveFlags(db: DB | Trx): Promise<{ pair_code: string; is_active: boolean }[]> {
  const rows = await db.selectFrom('pairs').select(['pair_code', 'is_active']).execute();
  return rows.map((r) => ({ pair_code: r.pair_code, is_active: Number(r.is_active) !== 0 }));
}

const toAnchor = (r: { anchor_time: number | string; anchor_price: number | string; backfilled: number | string }): SeriesAnchor => ({
  time: Number(r.anchor_time),
  price: Number(r.anchor_price),
  backfilled: Number(r.backfilled) === 1,
});

/** Every stored anchor, by pair. */
export async function seriesAnchors(db: DB | Trx): Promise<Map<string, SeriesAnchor>> {
  const rows = await db.selectFrom('market_series').selectAll().execute();
  return new Map(rows.map((r) => [r.pair_code, toAnchor(r)]));
}

/** One pair's stored anchor, if it has one yet. */
export async function seriesAnchor(db: DB | Trx, pairCode: string): Promise<SeriesAnchor | undefined> {
  const row = await db.selectFrom('market_series').selectAll().where('pair_code', '=', pairCode).executeTakeFirst();
  return row ? toAnchor(row) : undefined;
}

/** Record first ticks as anchors (not backfilled yet); a pair that has one keeps it. */
export async function insertAnchors(trx: Trx, anchors: ReadonlyMap<string, { time: number; price: number }>): Promise<void> {
  if (!anchors.size) return;
  await trx
    .insertInto('market_series')
    .values([...anchors].map(([pair_code, a]) => ({ pair_code, anchor_time: a.time, anchor_price: a.price, backfilled: 0 })))
    .onConflict((oc) => oc.column('pair_code').doNothing())
    .execute();
}

/** The history before the pair's anchor is written. */
export async function markBackfilled(trx: Trx, pairCode: string, anchor: { time: number; price: number }): Promise<void> {
  await trx
    .insertInto('market_series')
    .values({ pair_code: pairCode, anchor_time: anchor.time, anchor_price: anchor.price, backfilled: 1 })
    .onConflict((oc) => oc.column('pair_code').doUpdateSet({ backfilled: 1 }))
    .execute();
}
