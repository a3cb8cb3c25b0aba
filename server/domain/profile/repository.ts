/**
 * The profile's reads that other areas need (the profile's own flows keep their queries beside
 * their rules: personal.ts, documents.ts, telegram.ts, two-factor.ts, ...): where and how a fired
 * price alert reaches its owner (alerts/delivery.ts) and the owner's stored time zone (the
 * trading journal, statistics/journal.ts). Every function takes the handle first.
 */
import type { DB } from '../../db';

/** Where and how a fired alert reaches its owner: the account's email and language, the email switch, the linked chat. */
export function deliverySettings(db: DB, userId: number) {
  return db
    .selectFrom('users as u')
    .leftJoin('user_profiles as p', 'p.user_id', 'u.id')
    .leftJoin('telegram_links as t', 't.user_id', 'u.id')
    .select(['u.email', 'u.username', 'u.front_settings', 'p.notify_email', 't.chat_id', 't.language_code'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

/** The time zone the user saved in their profile (IANA name, unchecked), or null/undefined when none is stored. */
export async function storedTimeZone(db: DB, userId: number): Promise<string | null | undefined> {
  const row = await db.selectFrom('user_profiles').select('timezone').where('user_id', '=', userId).executeTakeFirst();
  return row?.timezone;
}

/** Documents waiting for a compliance decision (the KYC queue's size). */
export async function documentsAwaitingReview(db: DB): Promise<number> {
  const row = await db
    .selectFrom('documents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', 'in', ['uploaded', 'pending'])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
