/**
 * Outgoing mail for every area (ctx.services.mailer). With SMTP_URL set, messages go out
 * through nodemailer; without it they are written to the `outbox` table and echoed on the
 * console, so a person on a fresh machine can still read a reset code (`npm run admin --
 * outbox`). The outbox is generic (a `channel` column) so the Telegram sender keeps its
 * undeliverable messages there too.
 */
import nodemailer from 'nodemailer';
import type { DB, Trx } from '../db';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export type OutboxChannel = 'email' | 'telegram';

export interface OutboxEntry {
  channel: OutboxChannel;
  recipient: string;
  subject: string;
  body: string;
}

export interface OutboxRow extends OutboxEntry {
  id: number;
  created_at: number;
}

/** The part of a nodemailer transporter the mailer uses. */
export interface MailTransport {
  sendMail(message: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
  close?(): void;
}

export interface MailLog {
  error(obj: object, msg: string): void;
}

export interface MailerOptions {
  db: DB;
  from: string;
  now: () => number;
  log: MailLog;
  /** SMTP URL (smtp://user:pass@host:587, smtps://...); without it mail goes to the outbox. */
  smtpUrl?: string;
  /** A transport to use instead of one built from smtpUrl. */
  transport?: MailTransport;
  /** Print outbox messages on the console (off for silent test servers). */
  echo?: boolean;
}

export async function writeOutbox(db: Trx, entry: OutboxEntry, now: number): Promise<number> {
  const row = await db
    .insertInto('outbox')
    .values({ ...entry, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The newest outbox messages, returned oldest first so the latest ends up last on a terminal. */
export async function latestOutbox(
  db: Trx,
  filter: { limit: number; channel?: OutboxChannel; recipient?: string },
): Promise<OutboxRow[]> {
  let q = db.selectFrom('outbox').selectAll();
  if (filter.channel) q = q.where('channel', '=', filter.channel);
  if (filter.recipient) q = q.where((eb) => eb(eb.fn('lower', ['recipient']), '=', filter.recipient!.toLowerCase()));
  const rows = await q.orderBy('id', 'desc').limit(filter.limit).execute();
  return rows.reverse().map((r) => ({ ...r, channel: r.channel as OutboxChannel, created_at: Number(r.created_at) }));
}

export class Mailer {
  private readonly transport: MailTransport | null;
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly options: MailerOptions) {
    this.transport = options.transport ?? (options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null);
  }

  /** 'smtp' when mail really leaves the machine, 'outbox' when it is kept in the database. */
  get mode(): 'smtp' | 'outbox' {
    return this.transport ? 'smtp' : 'outbox';
  }

  /** Deliver now; rejects when the SMTP server refuses. */
  async send(message: MailMessage): Promise<void> {
    if (this.transport) {
      await this.transport.sendMail({ from: this.options.from, to: message.to, subject: message.subject, text: message.text });
      return;
    }
    await writeOutbox(this.options.db, { channel: 'email', recipient: message.to, subject: message.subject, body: message.text }, this.options.now());
    if (this.options.echo) {
      console.log(['', `--- mail to ${message.to}: ${message.subject}`, message.text, '---', ''].join('\n'));
    }
  }

  /**
   * Hand a message over without making the caller wait on the network, and never fail the
   * caller: an SMTP delivery runs in the background (so a request's timing does not reveal
   * whether a mail was sent); the outbox write is local and awaited.
   */
  async enqueue(message: MailMessage): Promise<void> {
    const delivery = this.send(message).catch((err: unknown) => {
      this.options.log.error({ err, to: message.to, subject: message.subject }, 'mail delivery failed');
    });
    if (!this.transport) return delivery;
    this.pending.add(delivery);
    void delivery.finally(() => this.pending.delete(delivery));
  }

  /** Wait for background deliveries (shutdown). */
  async flush(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  async close(): Promise<void> {
    await this.flush();
    this.transport?.close?.();
  }
}
