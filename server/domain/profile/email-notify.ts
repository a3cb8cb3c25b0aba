/**
 * The email notifier, the profile's email subscription made real: it listens to the domain
 * event `payment.status` (every status change of a deposit or withdrawal, including the ones the
 * operator CLI makes in another process) and, when the owner's `notifications.email` is on (the
 * default for a user who never saved the setting), mails the account's email address in the
 * user's interface language. Subscription off: nothing is sent. Delivery goes through the
 * shared Mailer (SMTP when SMTP_URL is set, otherwise the outbox table); a failed delivery is
 * logged and never affects the payment. Push and SMS subscriptions have no sender yet.
 */
import type { DB } from '../../db';
import type { DomainEvent, EventDispatcher } from '../events';
import type { Mailer } from '../mail';
import { pickLanguage } from '../auth/emails';
import { parseFrontSettings } from '../users';
import type { ProfileLog } from './deps';
import { paymentStatusEmail, supportSessionEmail } from './email-texts';
import { DEFAULT_NOTIFICATIONS } from './personal';
import { paymentStatusFacts } from './payment-facts';

export interface EmailNotifierDeps {
  db: DB;
  events: Pick<EventDispatcher, 'on'>;
  /** Only `enqueue` is used: it never throws and does not hold the caller on SMTP. */
  mailer: Pick<Mailer, 'enqueue'>;
  log: ProfileLog;
  /** The site's address, for the link to the transaction history. */
  publicUrl: () => string;
}

/** The address to write to and the language, or null when the user is gone or unsubscribed. */
async function subscriber(db: DB, userId: number): Promise<{ email: string; username: string; lang: 'en' | 'ru' | 'es' } | null> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('user_profiles as p', 'p.user_id', 'u.id')
    .select(['u.email', 'u.username', 'u.front_settings', 'p.notify_email'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row || !row.email) return null;
  const subscribed = row.notify_email === null || row.notify_email === undefined ? DEFAULT_NOTIFICATIONS.email : Number(row.notify_email) === 1;
  if (!subscribed) return null;
  return { email: row.email, username: row.username, lang: pickLanguage(parseFrontSettings(row.front_settings).language) };
}

/** Mail the owner about a payment's new status; true when a message was handed to the mailer. */
export async function emailPaymentStatus(deps: Omit<EmailNotifierDeps, 'events'>, event: DomainEvent<'payment.status'>): Promise<boolean> {
  if (event.userId === null) return false;
  const to = await subscriber(deps.db, event.userId);
  if (!to) return false;
  const facts = await paymentStatusFacts(deps.db, event.userId, event);
  if (!facts) return false;
  const message = paymentStatusEmail(to.lang, to.email, { ...facts, username: to.username, historyUrl: `${deps.publicUrl()}/profile#transactions` });
  await deps.mailer.enqueue(message);
  return true;
}

/**
 * Tell the user an operator opened their account (the console's "open as user"), when their
 * email notifications are on; true when a message was handed to the mailer.
 */
export async function emailSupportSession(deps: { db: DB; mailer: Pick<Mailer, 'enqueue'> }, userId: number): Promise<boolean> {
  const to = await subscriber(deps.db, userId);
  if (!to) return false;
  await deps.mailer.enqueue(supportSessionEmail(to.lang, to.email, to.username));
  return true;
}

/** Subscribe the notifier; answers a function that unsubscribes it. */
export function startEmailNotifier(deps: EmailNotifierDeps): () => void {
  const off = deps.events.on('payment.status', async (e) => {
    try {
      await emailPaymentStatus(deps, e);
    } catch (err) {
      deps.log.error({ err, event: e.id }, 'payment status email failed');
    }
  });
  return off;
}
