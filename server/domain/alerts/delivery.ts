/**
 * Delivery of a fired price alert (the `alert.fired` domain event, recorded in the transaction
 * that set fired_at): the socket event `price_alert` to the owner's room (every open session
 * shows a toast), a Telegram message when the owner linked a chat, and an email when the
 * owner's email notifications are on (the default). A failed channel is logged and never
 * stops the others. AlertsService.start() subscribes it, stop() unsubscribes it.
 */
import { PRICE_ALERT_EVENT, type PriceAlert, type PriceAlertEvent } from '../../../contract/alerts';
import { pickLanguage } from '../auth/emails';
import type { DomainEvent } from '../events';
import { parseFrontSettings } from '../users';
import { DEFAULT_NOTIFICATIONS } from '../profile/personal';
import { deliverySettings } from '../profile/repository';
import { telegramLanguage } from '../profile/telegram-texts';
import type { AlertsDeps } from './deps';
import { firedAlertEmail, firedAlertLine, type FiredAlertText } from './texts';

export interface AlertDeliveryDeps extends Pick<AlertsDeps, 'db' | 'events' | 'log' | 'emitToUser' | 'telegram' | 'mailer'> {
  /** The alert as its owner sees it (AlertsService.get). */
  alerts: { get(userId: number, id: number): Promise<PriceAlert | null> };
}

export interface Delivered {
  socket: boolean;
  telegram: boolean;
  email: boolean;
}

export async function deliverFiredAlert(deps: Omit<AlertDeliveryDeps, 'events'>, event: DomainEvent<'alert.fired'>): Promise<Delivered> {
  const done: Delivered = { socket: false, telegram: false, email: false };
  if (event.userId === null) return done;
  const alert = await deps.alerts.get(event.userId, event.payload.alert_id);
  if (!alert || alert.fired_at_ms === null) return done;
  if (deps.emitToUser) {
    const payload: PriceAlertEvent = { alert };
    deps.emitToUser(event.userId, PRICE_ALERT_EVENT, payload);
    done.socket = true;
  }
  const user = await deliverySettings(deps.db, event.userId);
  if (!user) return done;
  const text: FiredAlertText = {
    pair: alert.pair_human_code,
    direction: alert.direction,
    level: alert.price_text,
    price: alert.fired_price === null ? alert.price_text : alert.fired_price.toFixed(alert.precision),
  };
  const interfaceLanguage = parseFrontSettings(user.front_settings).language;
  if (deps.telegram && user.chat_id !== null && user.chat_id !== undefined) {
    try {
      await deps.telegram.send(Number(user.chat_id), firedAlertLine(telegramLanguage(interfaceLanguage, user.language_code), text));
      done.telegram = true;
    } catch (err) {
      deps.log.error({ err, alert: alert.alert_id }, 'price alert Telegram message failed');
    }
  }
  const emailOn = user.notify_email === null || user.notify_email === undefined ? DEFAULT_NOTIFICATIONS.email : Number(user.notify_email) === 1;
  if (deps.mailer && emailOn && user.email) {
    try {
      await deps.mailer.enqueue(firedAlertEmail(pickLanguage(interfaceLanguage), user.email, user.username, text));
      done.email = true;
    } catch (err) {
      deps.log.error({ err, alert: alert.alert_id }, 'price alert email failed');
    }
  }
  return done;
}

/** Subscribe delivery; answers a function that unsubscribes it. */
export function startAlertDelivery(deps: AlertDeliveryDeps): () => void {
  return deps.events.on('alert.fired', async (e) => {
    try {
      await deliverFiredAlert(deps, e);
    } catch (err) {
      deps.log.error({ err, event: e.id }, 'price alert delivery failed');
    }
  });
}
