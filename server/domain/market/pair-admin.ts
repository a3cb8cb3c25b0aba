/**
 * Operator changes to the pair list: a pair enabled or disabled (`admin pairs enable|disable`).
 * The `pairs` row's active flag changes inside one transaction together with a `pairs.changed`
 * domain event, so the running server (its EventDispatcher, which polls for changes made by
 * the CLI process) refreshes its pair cache and pushes `pairs` to every socket.
 */
import { recordEvent } from '../events';
import { forUpdate, transaction, type DB, type Trx } from '../../db';

export interface PairRow {
  pair_code: string;
  pair_human_code: string;
  category: string;
  is_active: boolean;
}

export async function listPairRows(db: DB): Promise<PairRow[]> {
  const rows = await db.selectFrom('pairs').select(['pair_code', 'pair_human_code', 'category', 'is_active']).orderBy('sort_order').orderBy('pair_code').execute();
  return rows.map((r) => ({ pair_code: r.pair_code, pair_human_code: r.pair_human_code, category: r.category, is_active: Number(r.is_active) !== 0 }));
}

/** Set a pair's active flag. Returns null for an unknown pair, else whether anything changed. */
export async function setPairActive(
  db: DB,
  pairCode: string,
  active: boolean,
  now = Date.now(),
  hook?: (trx: Trx) => Promise<void>,
): Promise<{ changed: boolean } | null> {
  return transaction(db, async (trx) => {
    const result = await setPairActiveIn(trx, pairCode, active, now);
    if (result?.changed && hook) await hook(trx);
    return result;
  });
}

/** The same on the caller's transaction (a four-eyes approval executes it there). */
export async function setPairActiveIn(trx: Trx, pairCode: string, active: boolean, now: number): Promise<{ changed: boolean } | null> {
  const row = await forUpdate(trx, trx.selectFrom('pairs').select(['is_active']).where('pair_code', '=', pairCode)).executeTakeFirst();
  if (!row) return null;
  if ((Number(row.is_active) !== 0) === active) return { changed: false };
  await trx.updateTable('pairs').set({ is_active: active ? 1 : 0, updated_at: now }).where('pair_code', '=', pairCode).execute();
  await recordEvent(trx, 'pairs.changed', null, { pair_code: pairCode, is_active: active }, now);
  return { changed: true };
}

/** Whether a pair is active; null for an unknown pair. */
export async function pairActive(db: Trx, pairCode: string): Promise<boolean | null> {
  const row = await db.selectFrom('pairs').select('is_active').where('pair_code', '=', pairCode).executeTakeFirst();
  return row ? Number(row.is_active) !== 0 : null;
}
