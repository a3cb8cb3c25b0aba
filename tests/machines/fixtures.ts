/**
 * Shared test data for the machine tests: users with balances and front settings.
 */
import type { Balances, FrontSettings, User } from '../../contract/user';
import type { Profile } from '../../contract/profile';

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

/** The profile of makeUser()'s trader (GET /api/v2/user/profile). */
export function makeProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    user_id: 7,
    username: 'trader7',
    email: 'trader7@example.com',
    email_verified: true,
    first_name: 'Ada',
    last_name: 'Lovelace',
    phone: '+442079460958',
    second_email: null,
    birthday: null,
    gender: null,
    timezone: null,
    citizenship: null,
    nickname: null,
    notifications: { email: true, push: false, sms: false },
    telegram: null,
    passport: null,
    avatar_url: null,
    two_factor_enabled: false,
    created_at: 1_700_000_000,
    ...overrides,
  };
}
