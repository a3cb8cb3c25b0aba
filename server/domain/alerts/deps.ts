/**
 * What the price alerts need (AlertsService, built in server/composition.ts): the database, a
 * write transaction, the clock, the market (pairs, latest prices, the tick stream), and for the
 * delivery of a fired alert the domain events, the push to the owner's sockets, the Telegram
 * sender and the mailer.
 */
import type { DB, RunTx } from '../../db';
import type { EventDispatcher } from '../events';
import type { DomainLog } from '../log';
import type { MailMessage } from '../mail';
import type { MarketService } from '../market/types';

export interface AlertsDeps {
  db: DB;
  tx: RunTx;
  now: () => number;
  log: Pick<DomainLog, 'error'>;
  market: Pick<MarketService, 'getPair' | 'latestTick' | 'onTick'>;
  /**
   * Several nodes share the database (docs/cluster.md): every node re-reads the waiting alerts
   * every ALERT_REFRESH_MS, so alerts created on another node (or left by a stopped one) are
   * watched here too; the firing's `fired_at is null` claim keeps it to one firing.
   */
  cluster?: boolean;
  /** Where `alert.fired` is heard (delivery.ts). */
  events: Pick<EventDispatcher, 'on'>;
  /** Emit to the owner's room (null: no socket server, e.g. the CLI). */
  emitToUser: ((userId: number, event: string, payload: unknown) => void) | null;
  /** The profile's Telegram sender (messages to a linked chat); null: no Telegram delivery. */
  telegram: { send(chatId: number, text: string): Promise<void> } | null;
  /** null: no email delivery. */
  mailer: { enqueue(message: MailMessage): Promise<void> } | null;
}
