/**
 * Creating accounts: the users row (front settings with the chosen currency and the demo
 * account selected), the real balance row at zero and the demo balance of 10,000 through the
 * ledger, all in the caller's transaction. Used by registration and by the demo-user seed.
 */
import type { Trx } from '../../db';
import type { Language } from '../../../contract/user';
import { AuthText } from '../../../contract/auth';
import { openRealBalance, resetDemo } from '../ledger';
import { EMPTY_FRONT_SETTINGS } from '../users';
import { conflict } from '../errors';

export interface NewAccount {
  username: string;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  phone: string;
  currency: string;
  language: Language | null;
  tracking: Record<string, string>;
  verified: boolean;
}

/** The text of the first uniqueness conflict (case-insensitive), or null. */
export async function findAccountConflict(trx: Trx, username: string, email: string): Promise<string | null> {
  const byName = await trx
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .executeTakeFirst();
  if (byName) return AuthText.usernameTaken;
  const byEmail = await trx
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  return byEmail ? AuthText.emailTaken : null;
}


/** Insert the user and open its balances; throws 409 when the username or email is taken. */
export async function createAccount(trx: Trx, account: NewAccount, now: number): Promise<number> {
  const taken = await findAccountConflict(trx, account.username, account.email);
  if (taken) throw conflict(taken);
  const frontSettings = {
    ...EMPTY_FRONT_SETTINGS,
    current_currency: account.currency,
    balance_type: 'DemoBalance' as const,
    language: account.language,
  };
  const row = await trx
    .insertInto('users')
    .values({
      username: account.username,
      email: account.email,
      password_hash: account.passwordHash,
      first_name: account.firstName,
      last_name: account.lastName,
      phone: account.phone,
      currency: account.currency,
      front_settings: JSON.stringify(frontSettings),
      tracking: JSON.stringify(account.tracking),
      email_verified_at: account.verified ? now : null,
      two_factor_secret: null,
      password_changed_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const userId = row.id;
  // The real account exists from the start at zero; no money moves, so no ledger entry is due
  // (the audit compares balances with entry sums, and zero matches zero).
  await openRealBalance(trx, userId, account.currency, now);
  await resetDemo(trx, userId, account.currency, `demo-open:${userId}:${account.currency}`, 'demo_open', now);
  return userId;
}
