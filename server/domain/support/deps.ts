/**
 * What the support center needs (SupportService, built in server/composition.ts): the database,
 * a write transaction, the clock, where attachments are stored, the other areas it reads through
 * their services (linked orders and transactions must be the trader's own; the operator's
 * read-only view of the trader), the audit trail of operator actions, and for the delivery of an
 * answer the domain events, the push to the trader's sockets, Telegram and the mailer.
 */
import type { DB, RunTx } from '../../db';
import type { EventDispatcher } from '../events';
import type { DomainLog } from '../log';
import type { MailMessage } from '../mail';
import type { OrdersService } from '../orders/service';
import type { PaymentsService } from '../payments/service';
import type { ProfileService } from '../profile/service';
import type { AccountsService } from '../auth/accounts';

/** One operator action as the audit trail records it (server/domain/audit). */
export interface SupportAuditEntry {
  operatorId: number;
  role: string;
  action: string;
  target: string;
  reason?: string | null;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
}

/** Who acts in the console (the guard's operator). */
export interface SupportOperator {
  id: number;
  role: string;
  name: string;
  ip?: string | null;
}

export interface SupportDeps {
  db: DB;
  tx: RunTx;
  now: () => number;
  log: Pick<DomainLog, 'error' | 'warn'>;
  dataDir: string;
  /** Linked orders must be the trader's (get throws NotFound otherwise); recent ones for the operator. */
  orders: Pick<OrdersService, 'get' | 'list'>;
  /** Linked transactions likewise (PaymentsService.get/list). */
  payments: Pick<PaymentsService, 'get' | 'list'>;
  profile: Pick<ProfileService, 'getProfile'>;
  accounts: Pick<AccountsService, 'balances'>;
  /** Records an operator action in the hash-chained audit log (in its own transaction). */
  audit: (entry: SupportAuditEntry) => Promise<void>;
  /** Where `support.updated` is heard (delivery.ts). */
  events: Pick<EventDispatcher, 'on'>;
  /** Emit to the owner's room (null: no socket server, e.g. the CLI). */
  emitToUser: ((userId: number, event: string, payload: unknown) => void) | null;
  telegram: { send(chatId: number, text: string): Promise<void> } | null;
  mailer: { enqueue(message: MailMessage): Promise<void> } | null;
  publicUrl: () => string;
}
