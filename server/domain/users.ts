/**
 * Shaping users: the stored front settings (parseFrontSettings, never throws) and the wire User
 * of contract/user.ts from a users row and its balances. Pure; the auth area's repository
 * (server/domain/auth/repository.ts) reads the row.
 */
import * as v from 'valibot';
import type { Selectable } from 'kysely';
import type { UsersTable } from '../db/tables/core';
import { FrontSettingsSchema, type Balances, type FrontSettings, type User } from '../../contract/user';

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

/** The wire User of a users row, with the balances read for it. */
export function wireUser(row: Selectable<UsersTable>, balances: Balances): User {
  return {
    user_id: row.id,
    username: row.username,
    email: row.email,
    email_verified: row.email_verified_at !== null,
    two_factor_enabled: Number(row.two_factor_enabled) === 1,
    balances,
    front_settings: parseFrontSettings(row.front_settings),
    created_at: Math.floor(Number(row.created_at) / 1000),
  };
}
