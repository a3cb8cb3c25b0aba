/**
 * What a notification about a payment's new status says, whatever the channel (email,
 * Telegram): read once from the owner's transaction row, with the status the event carries (the
 * row may have moved on since the event was recorded).
 */
import { findCurrency } from '../../../contract/currencies';
import { formatMinor } from '../../../contract/money';
import type { DB } from '../../db';
import type { DomainEvent } from '../events';
import { paymentNoticeRow } from '../payments/repository';

export interface PaymentStatusFacts {
  id: number;
  type: 'deposit' | 'withdrawal';
  status: DomainEvent<'payment.status'>['payload']['status'];
  /** The amount with the currency's decimals, e.g. "25.00". */
  amount: string;
  currency: string;
  reason: string | null;
}

/** The facts of the event's transaction, or null when it is not the user's (or is gone). */
export async function paymentStatusFacts(db: DB, userId: number, event: DomainEvent<'payment.status'>): Promise<PaymentStatusFacts | null> {
  const tx = await paymentNoticeRow(db, userId, event.payload.transaction_id);
  if (!tx) return null;
  return {
    id: tx.id,
    type: tx.transaction_type === 'withdrawal' ? 'withdrawal' : 'deposit',
    status: event.payload.status,
    amount: formatMinor(Number(tx.amount), findCurrency(tx.currency)?.decimals ?? 2),
    currency: tx.currency,
    reason: tx.error_message,
  };
}
