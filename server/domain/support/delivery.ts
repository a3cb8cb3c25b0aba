/**
 * Delivery of a support answer or status change (the `support.updated` domain event, recorded
 * in the transaction of the change): the socket event `support_update` {ticket, message} to the
 * trader's room (the ticket list and an open thread update without a reload), and for an answer
 * (not a status change) a Telegram message when the trader linked a chat and an email when the
 * trader's email notifications are on (the default). Internal notes record no event. A failed
 * channel is logged and never stops the others.
 */
import { SUPPORT_UPDATE_EVENT, type SupportUpdateEvent, type Ticket, type TicketMessage } from '../../../contract/support';
import { pickLanguage } from '../auth/emails';
import type { DomainEvent } from '../events';
import { parseFrontSettings } from '../users';
import { DEFAULT_NOTIFICATIONS } from '../profile/personal';
import { deliverySettings } from '../profile/repository';
import { telegramLanguage } from '../profile/telegram-texts';
import type { SupportDeps } from './deps';
import { supportReplyEmail, supportReplyLine, type SupportReplyText } from './texts';

export interface SupportDeliveryDeps extends Pick<SupportDeps, 'db' | 'events' | 'log' | 'emitToUser' | 'telegram' | 'mailer' | 'publicUrl'> {
  support: { updateFor(ticketId: number, messageId: number | null): Promise<{ userId: number; ticket: Ticket; message: TicketMessage | null } | null> };
}

export interface SupportDelivered {
  socket: boolean;
  telegram: boolean;
  email: boolean;
}

export async function deliverSupportUpdate(deps: Omit<SupportDeliveryDeps, 'events'>, event: DomainEvent<'support.updated'>): Promise<SupportDelivered> {
  const done: SupportDelivered = { socket: false, telegram: false, email: false };
  const update = await deps.support.updateFor(event.payload.ticket_id, event.payload.message_id);
  if (!update) return done;
  if (deps.emitToUser) {
    const payload: SupportUpdateEvent = { ticket: update.ticket, message: update.message };
    deps.emitToUser(update.userId, SUPPORT_UPDATE_EVENT, payload);
    done.socket = true;
  }
  if (!update.message) return done;
  const user = await deliverySettings(deps.db, update.userId);
  if (!user) return done;
  const text: SupportReplyText = { ticketId: update.ticket.id, subject: update.ticket.subject, link: `${deps.publicUrl()}/help?ticket=${update.ticket.id}` };
  const interfaceLanguage = parseFrontSettings(user.front_settings).language;
  if (deps.telegram && user.chat_id !== null && user.chat_id !== undefined) {
    try {
      await deps.telegram.send(Number(user.chat_id), supportReplyLine(telegramLanguage(interfaceLanguage, user.language_code), text));
      done.telegram = true;
    } catch (err) {
      deps.log.error({ err, ticket: update.ticket.id }, 'support Telegram message failed');
    }
  }
  const emailOn = user.notify_email === null || user.notify_email === undefined ? DEFAULT_NOTIFICATIONS.email : Number(user.notify_email) === 1;
  if (deps.mailer && emailOn && user.email) {
    try {
      await deps.mailer.enqueue(supportReplyEmail(pickLanguage(interfaceLanguage), user.email, user.username, text));
      done.email = true;
    } catch (err) {
      deps.log.error({ err, ticket: update.ticket.id }, 'support email failed');
    }
  }
  return done;
}

/** Subscribe delivery; answers a function that unsubscribes it. */
export function startSupportDelivery(deps: SupportDeliveryDeps): () => void {
  return deps.events.on('support.updated', async (e) => {
    try {
      await deliverSupportUpdate(deps, e);
    } catch (err) {
      deps.log.error({ err, event: e.id }, 'support delivery failed');
    }
  });
}
