/**
 * The price alerts' queries: the only place that reads or writes `price_alerts`. Every function
 * takes the handle first: the database, or a running transaction's `trx`. What the alerts need
 * of other tables is their owners': the lock on the owner's row (auth/repository.ts
 * `lockUserRow`) and the owner's delivery settings (profile/repository.ts `deliverySettings`).
 */
import type { Selectable } from 'kysely';
import type { DB, Trx } from '../../db';
import type { PriceAlertsTable } from '../../db/tables/alerts';

/** A stored alert as read back. */
export type AlertRow = Selectable<PriceAlertsTable>;

/** The values of a new alert. */
export interface NewAlert {
  user_id: number;
  pair_code: string;
  direction: 'above' | 'below';
  price_scaled: number;
  price_precision: number;
  created_at: number;
}

/** Every alert still waiting (not fired). */
export function waitingAlerts(db: DB): Promise<AlertRow[]> {
  return db.selectFrom('price_alerts').selectAll().where('fired_at', 'is', null).execute();
}

/** The owner's latest `limit` alerts, newest first. */
export function alertsOf(db: DB, userId: number, limit: number): Promise<AlertRow[]> {
  return db.selectFrom('price_alerts').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(limit).execute();
}

/** The owner's alert, or undefined (anyone else's too). */
export function findAlert(db: DB, userId: number, id: number): Promise<AlertRow | undefined> {
  return db.selectFrom('price_alerts').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** The pair of the owner's alert, or undefined. */
export function alertPair(db: DB, userId: number, id: number): Promise<{ pair_code: string } | undefined> {
  return db.selectFrom('price_alerts').select(['pair_code']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** How many of the user's alerts wait. */
export async function pendingCount(trx: Trx, userId: number): Promise<number> {
  const count = await trx
    .selectFrom('price_alerts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('fired_at', 'is', null)
    .executeTakeFirst();
  return Number(count?.n ?? 0);
}

export function insertAlert(trx: Trx, alert: NewAlert): Promise<AlertRow> {
  return trx
    .insertInto('price_alerts')
    .values({ ...alert, fired_at: null, fired_price_scaled: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function deleteAlert(trx: Trx, userId: number, id: number): Promise<unknown> {
  return trx.deleteFrom('price_alerts').where('id', '=', id).where('user_id', '=', userId).execute();
}

/** Set fired_at only where it is still null: the number of rows updated is 1 for the one firing that wins. */
export function markFired(trx: Trx, id: number, firedAt: number, firedPriceScaled: number) {
  return trx
    .updateTable('price_alerts')
    .set({ fired_at: firedAt, fired_price_scaled: firedPriceScaled })
    .where('id', '=', id)
    .where('fired_at', 'is', null)
    .executeTakeFirst();
}
