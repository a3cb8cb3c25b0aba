/** Reading and shaping users: the wire User of contract/user.ts from a users row. */
import * as v from 'valibot';
import type { Trx } from '../db';
import { FrontSettingsSchema, type FrontSettings, type User } from '../../contract/user';
import { getBalances } from './ledger';

export const EMPTY_FRONT_SETTINGS: FrontSettings = {
  avatar_url: null,
  currentPair: null,
  currentTimeframe: null,
  balance_type: null,
  current_currency: null,
  language: null,
  theme: null,
};

/** Stored JSON to FrontSettings; unknown or broken values fall back to null, never throw. */
export function parseFrontSettings(json: string): FrontSettings {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    raw = {};
  }
  const merged = { ...EMPTY_FRONT_SETTINGS, ...(typeof raw === 'object' && raw ? raw : {}) };
  const result = v.safeParse(FrontSettingsSchema, merged);
  return result.success ? result.output : EMPTY_FRONT_SETTINGS;
}

export async function loadUser(trx: Trx, userId: number): Promise<User | null> {
  const row = await trx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!row) return null;
  return {
    user_id: row.id,
    username: row.username,
    email: row.email,
    email_verified: row.email_verified_at !== null,
    two_factor_enabled: Number(row.two_factor_enabled) === 1,
    balances: await getBalances(trx, row.id, [row.currency]),
    front_settings: parseFrontSettings(row.front_settings),
    created_at: Math.floor(Number(row.created_at) / 1000),
  };
}
