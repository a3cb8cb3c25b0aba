/**
 * Account-level rate limits, kept in the database (auth_attempts) so they hold across restarts
 * and whichever IP the attempts come from. The per-IP limits are @fastify/rate-limit's, set on
 * the routes. Both are off when config.rateLimit is false.
 *
 * A rule counts attempts of one scope for one subject (a lower-cased email or identifier, or
 * `user:<id>`) in a sliding window.
 */
import type { Trx } from '../../db';

export interface AccountRule {
  scope: string;
  max: number;
  windowMs: number;
}

export const ACCOUNT_RULES = {
  /** Failed logins per account: the 11th try within 15 minutes is refused with 429. */
  loginFailures: { scope: 'login_failure', max: 10, windowMs: 15 * 60_000 },
  /** Reset emails per address: beyond 5 an hour the request is silently dropped. */
  resetRequests: { scope: 'reset_request', max: 5, windowMs: 60 * 60_000 },
  /** Verification emails per address: beyond 5 an hour silently dropped. */
  verificationRequests: { scope: 'verification_request', max: 5, windowMs: 60 * 60_000 },
} as const satisfies Record<string, AccountRule>;

export class AccountLimiter {
  constructor(readonly enabled: boolean) {}

  /** Whether `subject` has used up the rule's allowance in the window ending now. */
  async isExhausted(trx: Trx, rule: AccountRule, subject: string, now: number): Promise<boolean> {
    if (!this.enabled) return false;
    const row = await trx
      .selectFrom('auth_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('scope', '=', rule.scope)
      .where('subject', '=', subject)
      .where('created_at', '>', now - rule.windowMs)
      .executeTakeFirst();
    return Number(row?.n ?? 0) >= rule.max;
  }

  /** Count one attempt (and forget this subject's attempts that fell out of the window). */
  async record(trx: Trx, rule: AccountRule, subject: string, now: number): Promise<void> {
    if (!this.enabled) return;
    await trx
      .deleteFrom('auth_attempts')
      .where('scope', '=', rule.scope)
      .where('subject', '=', subject)
      .where('created_at', '<=', now - rule.windowMs)
      .execute();
    await trx.insertInto('auth_attempts').values({ scope: rule.scope, subject, created_at: now }).execute();
  }

  /** Forget a subject's attempts (a successful login clears its failures). */
  async clear(trx: Trx, rule: AccountRule, subject: string): Promise<void> {
    if (!this.enabled) return;
    await trx.deleteFrom('auth_attempts').where('scope', '=', rule.scope).where('subject', '=', subject).execute();
  }
}
