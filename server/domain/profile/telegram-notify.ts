/**
 * The Telegram notifier: listens to the domain events `order.settled` (expiry or early close)
 * and `payment.status` (every status change of a deposit or withdrawal, including the ones the
 * operator CLI makes in another process) and messages the owner's linked Telegram chat in the
 * owner's language. Users without a link get nothing. Delivery goes through the TelegramSender
 * (Bot API or the outbox); a failed delivery is logged and never affects the change itself.
 */
import { findCurrency } from '../../../contract/currencies';
import { formatMinor } from '../../../contract/money';
import type { DB } from '../../db';
import { prepared } from '../../db/prepared';
import type { DomainEvent, EventDispatcher } from '../events';
import { parseFrontSettings } from '../users';
import type { ProfileLog } from './deps';
import { safeSend, type TelegramSender } from './telegram';
import { paymentStatusFacts } from './payment-facts';
import { orderSettledText, paymentStatusText, telegramLanguage } from './telegram-texts';

export interface NotifierDeps {
  db: DB;
  events: EventDispatcher;
  sender: TelegramSender;
  log: ProfileLog;
}

const decimalsOf = (code: string) => findCurrency(code)?.decimals ?? 2;

/** The linked chat of a user and the language to write in, or null when the user has no link. */
// Asked for every order settled (most users have no link): built once (server/db/prepared.ts).
const recipientRow = prepared((db, p: { user_id: number }) =>
  db
    .selectFrom('telegram_links as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.chat_id', 't.language_code', 'u.front_settings'])
    .where('t.user_id', '=', p.user_id),
);

async function recipient(db: DB, userId: number): Promise<{ chatId: number; lang: 'en' | 'ru' | 'es' } | null> {
  const row = await recipientRow.first(db, { user_id: userId });
  if (!row) return null;
  return { chatId: Number(row.chat_id), lang: telegramLanguage(parseFrontSettings(row.front_settings).language, row.language_code) };
}

export async function notifyOrderSettled(deps: Omit<NotifierDeps, 'events'>, event: DomainEvent<'order.settled'>): Promise<boolean> {
  if (event.userId === null) return false;
  const to = await recipient(deps.db, event.userId);
  if (!to) return false;
  const order = await deps.db
    .selectFrom('orders')
    .select(['id', 'pair_human_code', 'direction', 'account', 'currency', 'stake', 'payout'])
    .where('id', '=', event.payload.order_id)
    .where('user_id', '=', event.userId)
    .executeTakeFirst();
  if (!order) return false;
  const decimals = decimalsOf(order.currency);
  const text = orderSettledText(to.lang, {
    id: order.id,
    pair: order.pair_human_code,
    direction: order.direction === 'down' ? 'down' : 'up',
    account: order.account === 'real' ? 'real' : 'demo',
    result: event.payload.result,
    stake: formatMinor(Number(order.stake), decimals),
    payout: formatMinor(Number(order.payout ?? 0), decimals),
    currency: order.currency,
  });
  return safeSend(deps, deps.sender, to.chatId, text);
}

export async function notifyPaymentStatus(deps: Omit<NotifierDeps, 'events'>, event: DomainEvent<'payment.status'>): Promise<boolean> {
  if (event.userId === null) return false;
  const to = await recipient(deps.db, event.userId);
  if (!to) return false;
  const facts = await paymentStatusFacts(deps.db, event.userId, event);
  if (!facts) return false;
  const text = paymentStatusText(to.lang, facts);
  return safeSend(deps, deps.sender, to.chatId, text);
}

/** Subscribe the notifier; answers a function that unsubscribes it. */
export function startTelegramNotifier(deps: NotifierDeps): () => void {
  const offs = [
    deps.events.on('order.settled', (e) => notifyOrderSettled(deps, e).then(() => undefined)),
    deps.events.on('payment.status', (e) => notifyPaymentStatus(deps, e).then(() => undefined)),
  ];
  return () => {
    for (const off of offs) off();
  };
}
