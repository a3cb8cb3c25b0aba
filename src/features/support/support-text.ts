/**
 * The support center's texts shared by the trader's views: the FAQ's questions (locale keys
 * under support.faq), the ticket categories and statuses, and the server's support sentences
 * (contract/support.ts SupportText) mapped to their locale keys so they show in the reader's
 * language; any other text goes through t() as it came (a known server text or a locale key).
 */
import { SupportText, TICKET_CATEGORIES, TICKET_STATUSES } from '../../../contract/support';
import type { TFunction } from '../../i18n';

export const FAQ_KEYS = [
  'deposit_time',
  'deposit_methods',
  'withdraw_time',
  'withdraw_hold',
  'verification',
  'verification_files',
  'settlement',
  'early_close',
  'demo',
  'two_factor',
  'limits',
  'notifications',
  'tickets',
] as const;

export { TICKET_CATEGORIES, TICKET_STATUSES };

const SERVER_KEYS: Record<string, string> = {
  [SupportText.ticketNotFound]: 'support.server.ticket_not_found',
  [SupportText.orderNotYours]: 'support.server.order_not_yours',
  [SupportText.transactionNotYours]: 'support.server.transaction_not_yours',
  [SupportText.ticketClosed]: 'support.server.ticket_closed',
  [SupportText.tooManyTickets]: 'support.server.too_many_tickets',
  [SupportText.tooManyOpen]: 'support.server.too_many_open',
  [SupportText.operatorNotFound]: 'support.server.operator_not_found',
  [SupportText.subjectRequired]: 'support.validation.subject',
  [SupportText.subjectTooLong]: 'support.validation.subject',
  [SupportText.messageRequired]: 'support.validation.message',
  [SupportText.messageTooLong]: 'support.validation.message',
  [SupportText.categoryInvalid]: 'support.validation.category',
};

/** A support failure (server text or locale key) in the reader's language. */
export function supportText(t: TFunction, text: string | null | undefined): string {
  if (!text) return '';
  return t(SERVER_KEYS[text] ?? text);
}

/** Whether a FAQ entry matches the search (question or answer, any case, accents ignored). */
export function faqMatches(question: string, answer: string, query: string): boolean {
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase();
  const words = fold(query).split(/\s+/).filter(Boolean);
  const text = fold(`${question} ${answer}`);
  return words.every((w) => text.includes(w));
}
