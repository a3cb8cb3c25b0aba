/**
 * The Telegram notifier works from its own queue (server/domain/profile/telegram-notify.ts): the
 * event dispatcher hands it an event and goes on to the next listener, so a slow Bot API (or a
 * burst of settlements) never holds up the pushes to traders' sockets; the queued messages are
 * still sent, in order, each to its own user's chat, and users without a link get nothing.
 * Real database (the project's), real dispatcher; the sender is a test double that the test
 * releases by hand.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { transaction, type DB } from '../../server/db';
import { EventDispatcher, recordEvent, type DomainEvent } from '../../server/domain/events';
import { startTelegramNotifier } from '../../server/domain/profile/telegram-notify';
import type { TelegramSender } from '../../server/domain/profile/telegram';
import { useTestDatabase } from '../support/test-database';
import { insertUserRow } from '../support/users';

const database = useTestDatabase('tg-queue');
let db: DB;
beforeAll(() => void (db = database.db));

/** A sender whose every send waits until the test opens the gate. */
function gatedSender() {
  const sent: { chatId: number; text: string }[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const sender: TelegramSender = {
    mode: 'outbox',
    async send(chatId: number, text: string) {
      await gate;
      sent.push({ chatId, text });
    },
  };
  return { sender, sent, open };
}

const until = async (ok: () => boolean, ms = 4000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** `count` closed orders of `userId` (what an order.settled event names). */
async function settledOrders(userId: number, now: number, count: number, prefix: string): Promise<number[]> {
  const orderIds: number[] = [];
  for (let i = 0; i < count; i++) {
    const row = await db
      .insertInto('orders')
      .values({
        user_id: userId,
        client_request_id: `${prefix}-${i}`,
        pair_code: 'EURUSD',
        pair_human_code: 'EUR/USD',
        direction: 'up',
        account: 'demo',
        currency: 'USD',
        stake: 1_000,
        payout_rate_bp: 9_200,
        price_precision: 5,
        expiry_seconds: 60,
        accepted_at: now,
        open_price: 1.1,
        entry_tick_time: now,
        entry_tick_seq: 1,
        expires_at: now,
        status: 'closed',
        result: 'won',
        payout: 1_920,
        closed_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    orderIds.push(Number(row.id));
  }
  return orderIds;
}

async function linkTelegram(userId: number, chatId: number, now: number) {
  await db
    .insertInto('telegram_links')
    .values({ user_id: userId, telegram_id: chatId, chat_id: chatId, username: 'trader', first_name: 'T', last_name: null, language_code: 'en', linked_at: now })
    .execute();
}

describe('Telegram notifier queue', () => {
  it('hands settled orders to a slow Bot API without holding up the next listener; sends every message later, in order', async () => {
    const now = Date.now();
    const linked = await insertUserRow(db, 'tg-linked', now);
    const other = await insertUserRow(db, 'tg-other', now);
    await linkTelegram(linked, 777001, now);
    const orderIds = await settledOrders(linked, now, 3, 'tg');

    const events = new EventDispatcher(db, 60_000);
    await events.start();
    const { sender, sent, open } = gatedSender();
    const log = { warn: () => undefined, error: () => undefined };
    const stop = startTelegramNotifier({ db, events, sender, log });
    // Registered after the notifier: it hears each event only once the notifier has let go of it.
    const heard: DomainEvent<'order.settled'>[] = [];
    events.on('order.settled', (e) => void heard.push(e));

    await transaction(db, async (trx) => {
      for (const id of orderIds) await recordEvent(trx, 'order.settled', linked, { order_id: id, result: 'won', payout: 19.2, currency: 'USD' }, now);
      await recordEvent(trx, 'order.settled', other, { order_id: 999_999, result: 'lost', payout: 0, currency: 'USD' }, now);
    });
    await events.poke();
    // Every event reached the next listener while the Bot API had answered nothing yet.
    expect(heard.map((e) => e.payload.order_id)).toEqual([...orderIds, 999_999]);
    expect(sent).toEqual([]);

    open();
    await until(() => sent.length === orderIds.length);
    await new Promise((r) => setTimeout(r, 50));
    // One message per settled order of the linked user, in order; none for the user without a link.
    expect(sent.map((m) => m.chatId)).toEqual(orderIds.map(() => 777001));
    expect(sent.map((m) => orderIds.findIndex((id) => m.text.includes(`#${id}`)))).toEqual([0, 1, 2]);
    stop();
    await events.stop();
  });

  it('a message that cannot be made costs only itself, not the rest of its batch', async () => {
    const now = Date.now();
    const linked = await insertUserRow(db, 'tg-bad-event', now);
    await linkTelegram(linked, 777002, now);
    const [first, last] = await settledOrders(linked, now, 2, 'tg-bad');
    const events = new EventDispatcher(db, 60_000);
    await events.start();
    const { sender, sent, open } = gatedSender();
    open();
    const errors: unknown[] = [];
    const stop = startTelegramNotifier({ db, events, sender, log: { warn: () => undefined, error: (e: unknown) => void errors.push(e) } });

    // Between two good events, one whose read throws: a payment.status whose transaction id is
    // not a number (an outbox row the database driver cannot bind).
    await transaction(db, async (trx) => {
      await recordEvent(trx, 'order.settled', linked, { order_id: first!, result: 'won', payout: 19.2, currency: 'USD' }, now);
      await recordEvent(trx, 'payment.status', linked, { transaction_id: { not: 'a number' } as unknown as number, status: 'completed', transaction_type: 'deposit' }, now);
      await recordEvent(trx, 'order.settled', linked, { order_id: last!, result: 'won', payout: 19.2, currency: 'USD' }, now);
    });
    await events.poke();
    await until(() => sent.length === 2 && errors.length === 1);
    expect(sent.map((m) => [m.chatId, m.text.includes(`#${first}`), m.text.includes(`#${last}`)])).toEqual([
      [777002, true, false],
      [777002, false, true],
    ]);
    stop();
    await events.stop();
  });
});
