/**
 * Saving the SPA's front settings (current pair, timeframe, balance type, currency, language,
 * theme, chart setups): the given keys are merged into users.front_settings; a chart setups
 * update replaces only the pairs it names (contract/chart.ts, mergeChartSetups). Choosing a currency the user
 * has no account in yet opens it like registration does (real at zero, demo at 10,000), with
 * the same idempotency key, so it can happen only once per currency.
 */
import type { Trx } from '../../db';
import type { FrontSettings, FrontSettingsUpdate } from '../../../contract/user';
import { hasBalanceRow, openRealBalance, resetDemo } from '../ledger';
import { parseFrontSettings } from '../users';
import { mergeChartSetups } from '../../../contract/chart';

export async function updateFrontSettings(trx: Trx, userId: number, patch: FrontSettingsUpdate, now: number): Promise<FrontSettings | null> {
  const row = await trx.selectFrom('users').select('front_settings').where('id', '=', userId).executeTakeFirst();
  if (!row) return null;
  const stored = parseFrontSettings(row.front_settings);
  const { chart_setups, ...rest } = patch;
  const merged: FrontSettings = { ...stored, ...rest };
  if (chart_setups) merged.chart_setups = mergeChartSetups(stored.chart_setups, chart_setups);
  await trx
    .updateTable('users')
    .set({ front_settings: JSON.stringify(merged), updated_at: now })
    .where('id', '=', userId)
    .execute();
  if (patch.current_currency) await openCurrency(trx, userId, patch.current_currency, now);
  return merged;
}

/** Open the real (zero) and demo (10,000) accounts of a currency unless the user has them. */
export async function openCurrency(trx: Trx, userId: number, currency: string, now: number): Promise<void> {
  await openRealBalance(trx, userId, currency, now);
  if (!(await hasBalanceRow(trx, userId, currency, 'demo'))) await resetDemo(trx, userId, currency, `demo-open:${userId}:${currency}`, 'demo_open', now);
}
