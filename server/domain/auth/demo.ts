/**
 * The demo login a person can try right away (SEED_DEMO_USER, on by default): user `demo`,
 * verified, USD, with the standard demo balance and 1,000 USD of real money (credited through
 * the ledger like a deposit, key `seed:demo-real`, so it is paid once however often this runs;
 * the other side is the clearing account of the pseudo-provider `seed`, `house:clearing:seed`).
 */
import type { AuthDeps } from './deps';
import { toMinor } from '../../../contract/money';
import { clearingAccount, postLedger, withCounterparty } from '../ledger';
import { createAccount } from './register';
import { findUserByIdentifier } from './login';
import { hashPassword, verifyPassword } from './passwords';

export const DEMO_LOGIN = { username: 'demo', password: 'Demo#Trade2026' } as const;
export const DEMO_EMAIL = 'demo@tradeterminal.local';
const DEMO_REAL_USD = 1000;

/**
 * Create the demo user when it does not exist. Returns the login to print, or null when the
 * demo user exists with another password (someone changed it: printing it would mislead).
 */
export async function seedDemoUser(deps: Pick<AuthDeps, 'db' | 'tx' | 'now'>): Promise<{ username: string; password: string } | null> {
  const existing = await findUserByIdentifier(deps.db, DEMO_LOGIN.username);
  if (existing) return (await verifyPassword(existing.password_hash, DEMO_LOGIN.password)) ? { ...DEMO_LOGIN } : null;

  const passwordHash = await hashPassword(DEMO_LOGIN.password);
  const now = deps.now();
  const real = toMinor(DEMO_REAL_USD, 2)!;
  await deps.tx(async (trx) => {
    const userId = await createAccount(
      trx,
      {
        username: DEMO_LOGIN.username,
        email: DEMO_EMAIL,
        passwordHash,
        firstName: 'Demo',
        lastName: 'Trader',
        phone: '+10000000000',
        currency: 'USD',
        language: null,
        tracking: { source: 'seed' },
        verified: true,
      },
      now,
    );
    await postLedger(
      trx,
      { key: 'seed:demo-real', kind: 'deposit_credit', userId, ref: { type: 'seed', id: 'demo' }, entries: withCounterparty(clearingAccount('seed'), [{ currency: 'USD', account: 'real', amount: real }]) },
      now,
    );
  });
  return { ...DEMO_LOGIN };
}
