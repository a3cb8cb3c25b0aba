/**
 * What the support center needs (SupportService, built in server/composition.ts): the database,
 * a write transaction, the clock, where attachments are stored, the other areas it reads through
 * their services (linked orders and transactions must be the trader's own; the operator's
 * read-only view of the trader), and for the delivery of an answer the domain events, the push to the trader's sockets, Telegram and the mailer.
 */
import type { DB, RunTx } from '../../db';
import type { EventDispatcher } from '../events';
import type { DomainLog } from '../log';
import type { MailMessage } from '../mail';
import type { OrdersService } from '../orders/service';
import type { PaymentsService } from '../payments/service';
import type { ProfileService } from '../profile/service';
import type { AccountsService } from '../auth/accounts';
import type { OperatorsService } from '../operators/service';


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
  /** The assignee must be a live support or admin operator; the inbox shows their names. */
  operators: Pick<OperatorsService, 'get' | 'list'>;
  /** Where `support.updated` is heard (delivery.ts). */
  events: Pick<EventDispatcher, 'on'>;
  /** Emit to the owner's room (null: no socket server, e.g. the CLI). */
  emitToUser: ((userId: number, event: string, payload: unknown) => void) | null;
  telegram: { send(chatId: number, text: string): Promise<void> } | null;
  mailer: { enqueue(message: MailMessage): Promise<void> } | null;
  publicUrl: () => string;
}
