/**
 * Shared test data for the machine tests: users with balances and front settings.
 */
import type { Balances, FrontSettings, User } from '../../contract/user';

export const NO_SETTINGS: FrontSettings = {
  avatar_url: null,
  currentPair: null,
  currentTimeframe: null,
  balance_type: null,
  current_currency: null,
  language: null,
  theme: null,
};

export function makeUser(overrides: { balances?: Balances; front_settings?: Partial<FrontSettings>; user_id?: number; username?: string } = {}): User {
  return {
    user_id: overrides.user_id ?? 7,
    username: overrides.username ?? 'trader7',
    email: 'trader7@example.com',
    email_verified: true,
    two_factor_enabled: false,
    balances: overrides.balances ?? { USD: { RealBalance: 0, DemoBalance: 10000 } },
    front_settings: { ...NO_SETTINGS, ...overrides.front_settings },
    created_at: 1_700_000_000,
  };
}
