/** Hourly clean-up of the profile area's short-lived rows: expired Telegram link codes and two-factor challenges. */
import type { DB } from '../../db';

export async function pruneProfileData(db: DB, now: number): Promise<void> {
  await db.deleteFrom('telegram_link_codes').where('expires_at', '<=', now).execute();
  await db.deleteFrom('two_factor_challenges').where('expires_at', '<=', now).execute();
}
