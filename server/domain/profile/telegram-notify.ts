/**
 * The Telegram notifier: listens to the domain events `order.settled` (expiry or early close)
 * and `payment.status` (every status change of a deposit or withdrawal, including the ones the
 * operator CLI makes in another process) and messages the owner's linked Telegram chat in the
 * owner's language. Users without a link get nothing. Delivery goes through the TelegramSender
 * (Bot API or the outbox); a failed delivery is logged and never affects the change itself.
 *
 * The notifier keeps its own queue: the event dispatcher hands it an event and moves on, so a
 * burst of settlements (10,000 in a second) or a slow Bot API never holds up the other listeners
 * (the pushes to the traders' sockets). The queue is worked in batches of NOTIFY_BATCH events,
 * their recipients read with one query, and holds at most NOTIFY_QUEUE_MAX (the oldest dropped,
 * with a warning). Like the rest of the outbox's listeners it is at most once across a restart.
 */
import { findCurrency } from '../../../contract/currencies';
import { formatMinor } from '../../../contract/money';
import type { DB } from '../../db';
import type { DomainEvent, EventDispatcher } from '../events';
import { parseFrontSettings } from '../users';
import type { ProfileLog } from './deps';
import { safeSend, type TelegramSender } from './telegram';
import { paymentStatusFacts } from './payment-facts';
import { settledOrderForMessage } from '../orders/repository';
import { orderSettledText, paymentStatusText, telegramLanguage } from './telegram-texts';

export interface NotifierDeps {
  db: DB;
  events: Pick<EventDispatcher, 'on'>;
  sender: TelegramSender;
  log: ProfileLog;
}

const decimalsOf = (code: string) => findCurrency(code)?.decimals ?? 2;

/** A linked chat and the language to write in. */
export interface Recipient {
  chatId: number;
  lang: 'en' | 'ru' | 'es';
}

const recipientOf = (row: { chat_id: number | string; language_code: string | null; front_settings: string }): Recipient => ({
  chatId: Number(row.chat_id),
  lang: telegramLanguage(parseFrontSettings(row.front_settings).language, row.language_code),
});

/** The recipients of several users at once (one query); a user without a link is absent. */
async function recipients(db: DB, userIds: readonly number[]): Promise<Map<number, Recipient>> {
  const rows = await db
    .selectFrom('telegram_links as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.user_id', 't.chat_id', 't.language_code', 'u.front_settings'])
    .where('t.user_id', 'in', userIds)
    .execute();
  return new Map(rows.map((r) => [Number(r.user_id), recipientOf(r)]));
}

/** Message the owner of a settled order at their linked chat `to`. */
export async function notifyOrderSettled(deps: Omit<NotifierDeps, 'events'>, event: DomainEvent<'order.settled'>, to: Recipient): Promise<boolean> {
  if (event.userId === null) return false;
  const order = await settledOrderForMessage(deps.db, event.payload.order_id, event.userId);
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

/** Message the owner of a payment whose status changed at their linked chat `to`. */
export async function notifyPaymentStatus(deps: Omit<NotifierDeps, 'events'>, event: DomainEvent<'payment.status'>, to: Recipient): Promise<boolean> {
  if (event.userId === null) return false;
  const facts = await paymentStatusFacts(deps.db, event.userId, event);
  if (!facts) return false;
  const text = paymentStatusText(to.lang, facts);
  return safeSend(deps, deps.sender, to.chatId, text);
}

/** Events worked per batch (their recipients read with one query). */
export const NOTIFY_BATCH = 100;
/** Events waiting at most; beyond, the oldest are dropped (and a warning logged). */
export const NOTIFY_QUEUE_MAX = 10_000;

type Notifiable = DomainEvent<'order.settled'> | DomainEvent<'payment.status'>;

/** Subscribe the notifier; answers a function that unsubscribes it (events still queued are dropped). */
export function startTelegramNotifier(deps: NotifierDeps): () => void {
  const queue: Notifiable[] = [];
  let working = false;
  let stopped = false;
  let dropped = 0;

  const work = async () => {
    while (!stopped && queue.length > 0) {
      if (dropped > 0) {
        deps.log.warn({ dropped }, 'telegram notifications dropped: the queue was full');
        dropped = 0;
      }
      const batch = queue.splice(0, NOTIFY_BATCH);
      let to: Map<number, Recipient>;
      try {
        to = await recipients(deps.db, [...new Set(batch.map((e) => e.userId!))]);
      } catch (err) {
        deps.log.error({ err, events: batch.length }, 'telegram notifications failed: their recipients could not be read');
        continue;
      }
      for (const e of batch) {
        const r = to.get(e.userId!);
        if (!r || stopped) continue;
        // One message that cannot be made (a read that fails, an event it cannot read) costs
        // only itself, not the rest of the batch.
        try {
          if (e.type === 'order.settled') await notifyOrderSettled(deps, e, r);
          else await notifyPaymentStatus(deps, e, r);
        } catch (err) {
          deps.log.error({ err, event: e.id, type: e.type }, 'telegram notification failed');
        }
      }
    }
    working = false;
  };
  const take = (e: Notifiable) => {
    if (stopped || e.userId === null) return;
    if (queue.length >= NOTIFY_QUEUE_MAX) {
      queue.shift();
      dropped++;
    }
    queue.push(e);
    if (!working) {
      working = true;
      setImmediate(() => void work());
    }
  };
  const offs = [deps.events.on('order.settled', take), deps.events.on('payment.status', take)];
  return () => {
    stopped = true;
    queue.length = 0;
    for (const off of offs) off();
  };
}
