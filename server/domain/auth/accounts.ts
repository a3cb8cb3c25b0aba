/**
 * The signed-in user's account as the SPA shows it (ctx.services.accounts, built in
 * server/composition.ts): the socket's userdata (the balances of the account currency and the
 * currency shown), the balances pushed after every change (update_balances), and saving the
 * front settings (PATCH/POST /api/v2/profile/front-settings). Reads the users row through the
 * auth area's repository and the balances through the ledger; it needs no tokens, mailer or
 * limits, so it is apart from AuthService.
 */
import type { FrontSettings, FrontSettingsUpdate, Balances } from '../../../contract/user';
import type { UserdataEvent } from '../../../contract/socket';
import { DEFAULT_CURRENCY } from '../../../contract/currencies';
import { ErrorText } from '../../../contract/envelope';
import { getBalances } from '../ledger';
import { parseFrontSettings } from '../users';
import { NotFound } from '../errors';
import type { AuthDeps } from './deps';
import { currencyAndSettings } from './repository';
import { updateFrontSettings } from './front-settings';

export type AccountsDeps = Pick<AuthDeps, 'db' | 'tx' | 'now'>;

export class AccountsService {
  constructor(private readonly deps: AccountsDeps) {}

  /** get_userdata's answer (without the currency list): null when the user is gone. */
  async userdata(userId: number): Promise<UserdataEvent['userdata'] | null> {
    const { db } = this.deps;
    const user = await currencyAndSettings(db, userId);
    if (!user) return null;
    const fs = parseFrontSettings(user.front_settings);
    const balances = await getBalances(db, userId, [user.currency]);
    return { balances, currency_code: fs.current_currency ?? user.currency ?? DEFAULT_CURRENCY };
  }

  /** Every balance of a user (update_balances after a change). */
  balances(userId: number): Promise<Balances> {
    return getBalances(this.deps.db, userId);
  }

  /** Merge the given keys into the user's front settings (front-settings.ts); the full settings after. */
  async updateFrontSettings(userId: number, patch: FrontSettingsUpdate): Promise<FrontSettings> {
    const now = this.deps.now();
    const settings = await this.deps.tx((trx) => updateFrontSettings(trx, userId, patch, now));
    if (!settings) throw new NotFound(ErrorText.userNotFound);
    return settings;
  }
}
