/**
 * Price alerts end to end against a real server whose prices come from a ManualFeed: the REST
 * contract (validation, owner only, the per-user cap), the firing rule (not before the level,
 * once at it, never after a delete) and the delivery (price_alert on every open session of the
 * owner and none of a stranger's; Telegram when linked; email unless switched off), read back
 * from the socket and the outbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { MAX_PENDING_ALERTS, type PriceAlert } from '../../contract/alerts';
import { makeUser, startOrdersServer, type OrdersServer, type TestUser } from '../support/orders-harness';

let s: OrdersServer;
beforeAll(async () => {
  s = await startOrdersServer();
});
afterAll(async () => {
  await s.server.close();
});

const PAIR = 'EURUSD';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function create(user: TestUser, body: Record<string, unknown>) {
  return s.server.api<{ alert: PriceAlert }>('POST', '/api/v2/alerts', body, user.token);
}

async function listen(user: TestUser): Promise<{ socket: Socket; got: PriceAlert[] }> {
  const socket = await s.server.socket();
  const got: PriceAlert[] = [];
  socket.on('price_alert', (p: { alert: PriceAlert }) => got.push(p.alert));
  socket.emit('provide_token', { token: user.token });
  await sleep(150);
  return { socket, got };
}

/** Push a tick and wait until any firing it caused has committed and been delivered. */
async function tick(price: number) {
  s.feed.push(PAIR, price, s.clock!.advance(100));
  await s.server.ctx.services.alerts.settled();
  await s.server.ctx.events.poke();
  await sleep(60);
}

async function outbox(channel: 'email' | 'telegram', recipient: string) {
  return s.server.ctx.db.selectFrom('outbox').selectAll().where('channel', '=', channel).where('recipient', '=', recipient).orderBy('id').execute();
}

async function emailOf(user: TestUser) {
  const row = await s.server.ctx.db.selectFrom('users').select('email').where('id', '=', user.id).executeTakeFirstOrThrow();
  return row.email;
}

describe('REST', () => {
  it('refuses bad input with a 4xx and stores nothing', async () => {
    const user = await makeUser(s);
    await tick(1.16);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ pair_code: PAIR, direction: 'sideways', price: '1.2' }, 400, 'Direction must be above or below'],
      [{ pair_code: PAIR, direction: 'above', price: 'abc' }, 400, 'Price must be a positive decimal number'],
      [{ pair_code: PAIR, direction: 'above', price: -1 }, 400, 'Price must be a positive decimal number'],
      [{ pair_code: PAIR, direction: 'above', price: '1.1700001' }, 400, 'The price has more decimals than the pair'],
      [{ pair_code: PAIR, direction: 'above', price: '1.15' }, 400, 'An "above" alert must be higher than the current price'],
      [{ pair_code: PAIR, direction: 'below', price: '1.17' }, 400, 'A "below" alert must be lower than the current price'],
      [{ pair_code: 'NOPE', direction: 'below', price: '1.1' }, 404, 'Pair not found'],
      [{ pair_code: PAIR, direction: 'below', price: '1.1', extra: 1 }, 400, 'Unknown field'],
    ];
    for (const [body, status, message] of cases) {
      const r = await create(user, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error).toBe(message);
    }
    const list = await s.server.api<{ alerts: PriceAlert[] }>('GET', '/api/v2/alerts', undefined, user.token);
    expect(list.body.data!.alerts).toEqual([]);
    expect((await s.server.api('GET', '/api/v2/alerts')).status).toBe(401);
  });

  it('creates, lists and deletes for the owner only, with the exact level', async () => {
    const user = await makeUser(s);
    const stranger = await makeUser(s);
    await tick(1.16);
    const r = await create(user, { pair_code: PAIR, direction: 'above', price: '1.1625' });
    expect(r.status).toBe(201);
    const alert = r.body.data!.alert;
    expect(alert).toMatchObject({ pair_code: PAIR, pair_human_code: 'EUR/USD', direction: 'above', price: 1.1625, price_text: '1.16250', fired_at_ms: null });
    const row = await s.server.ctx.db.selectFrom('price_alerts').selectAll().where('id', '=', alert.alert_id).executeTakeFirstOrThrow();
    expect(Number(row.price_scaled)).toBe(116250);
    expect(Number(row.price_precision)).toBe(5);

    expect((await s.server.api('GET', '/api/v2/alerts', undefined, stranger.token)).body.data.alerts).toEqual([]);
    expect((await s.server.api('DELETE', `/api/v2/alerts/${alert.alert_id}`, undefined, stranger.token)).status).toBe(404);
    const mine = await s.server.api<{ alerts: PriceAlert[]; max_pending: number }>('GET', '/api/v2/alerts', undefined, user.token);
    expect(mine.body.data!.alerts.map((a) => a.alert_id)).toEqual([alert.alert_id]);
    expect(mine.body.data!.max_pending).toBe(MAX_PENDING_ALERTS);
    const del = await s.server.api('DELETE', `/api/v2/alerts/${alert.alert_id}`, undefined, user.token);
    expect(del.status).toBe(200);
    expect((await s.server.api('DELETE', `/api/v2/alerts/${alert.alert_id}`, undefined, user.token)).status).toBe(404);
    expect((await s.server.api('DELETE', '/api/v2/alerts/abc', undefined, user.token)).status).toBe(400);
  });

  it(`keeps at most ${MAX_PENDING_ALERTS} waiting alerts per user`, async () => {
    const user = await makeUser(s);
    await tick(1.16);
    for (let i = 0; i < MAX_PENDING_ALERTS; i++) expect((await create(user, { pair_code: PAIR, direction: 'above', price: 1.5 + i / 1000 })).status).toBe(201);
    const over = await create(user, { pair_code: PAIR, direction: 'above', price: 1.9 });
    expect(over.status).toBe(409);
    expect(over.body.error).toBe(`At most ${MAX_PENDING_ALERTS} waiting alerts`);
    // Someone else is not limited by it.
    expect((await create(await makeUser(s), { pair_code: PAIR, direction: 'above', price: 1.9 })).status).toBe(201);
  });
});

describe('firing', () => {
  it('does not fire before the level, fires once at it, on every session of the owner only', async () => {
    const user = await makeUser(s);
    const stranger = await makeUser(s);
    await tick(1.16);
    const a = await listen(user);
    const b = await listen(user);
    const other = await listen(stranger);
    const alert = (await create(user, { pair_code: PAIR, direction: 'above', price: '1.16500' })).body.data!.alert;
    const below = (await create(user, { pair_code: PAIR, direction: 'below', price: '1.15' })).body.data!.alert;

    await tick(1.16499);
    expect(a.got).toEqual([]);
    const waiting = await s.server.ctx.db.selectFrom('price_alerts').select('fired_at').where('id', '=', alert.alert_id).executeTakeFirstOrThrow();
    expect(waiting.fired_at).toBeNull();

    await tick(1.165);
    expect(a.got.map((x) => x.alert_id)).toEqual([alert.alert_id]);
    expect(b.got.map((x) => x.alert_id)).toEqual([alert.alert_id]);
    expect(a.got[0]).toMatchObject({ fired_price: 1.165, direction: 'above' });
    expect(a.got[0]!.fired_at_ms).not.toBeNull();
    expect(other.got).toEqual([]);

    await tick(1.17);
    await tick(1.166);
    expect(a.got.map((x) => x.alert_id)).toEqual([alert.alert_id]);
    // The other alert still waits, and fires on its own crossing.
    await tick(1.1499);
    expect(a.got.map((x) => x.alert_id)).toEqual([alert.alert_id, below.alert_id]);
    const list = await s.server.api<{ alerts: PriceAlert[] }>('GET', '/api/v2/alerts', undefined, user.token);
    expect(list.body.data!.alerts.every((x) => x.fired_at_ms !== null)).toBe(true);
    const events = await s.server.ctx.db.selectFrom('domain_events').select('payload').where('type', '=', 'alert.fired').where('user_id', '=', user.id).execute();
    expect(events).toHaveLength(2);
  });

  it('fires exactly the alerts a tick reaches, whatever order they were set in', async () => {
    const user = await makeUser(s);
    await tick(1.16);
    const a = await listen(user);
    const levels = ['1.16300', '1.16100', '1.16200'];
    const ids: Record<string, number> = {};
    for (const level of levels) ids[level] = (await create(user, { pair_code: PAIR, direction: 'above', price: level })).body.data!.alert.alert_id;
    const low = (await create(user, { pair_code: PAIR, direction: 'below', price: '1.15900' })).body.data!.alert.alert_id;
    await tick(1.1625);
    expect(a.got.map((x) => x.alert_id).sort()).toEqual([ids['1.16100'], ids['1.16200']].sort());
    await tick(1.1629);
    expect(a.got).toHaveLength(2);
    await tick(1.163);
    expect(a.got.map((x) => x.alert_id)).toContain(ids['1.16300']);
    expect(a.got.map((x) => x.alert_id)).not.toContain(low);
    expect(s.server.ctx.services.alerts.waitingCount(PAIR)).toBeGreaterThanOrEqual(1);
  });

  it('never fires a deleted alert', async () => {
    const user = await makeUser(s);
    await tick(1.16);
    const a = await listen(user);
    const alert = (await create(user, { pair_code: PAIR, direction: 'below', price: '1.155' })).body.data!.alert;
    expect((await s.server.api('DELETE', `/api/v2/alerts/${alert.alert_id}`, undefined, user.token)).status).toBe(200);
    await tick(1.15);
    await tick(1.14);
    expect(a.got).toEqual([]);
    const events = await s.server.ctx.db.selectFrom('domain_events').select('id').where('type', '=', 'alert.fired').where('user_id', '=', user.id).execute();
    expect(events).toHaveLength(0);
  });
});

describe('delivery per the notification settings', () => {
  it('emails by default and sends nothing to Telegram without a link', async () => {
    const user = await makeUser(s);
    await tick(1.16);
    await create(user, { pair_code: PAIR, direction: 'above', price: '1.161' });
    await tick(1.1612);
    const mails = await outbox('email', await emailOf(user));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Price alert: EUR/USD above 1.16100');
    expect(mails[0]!.body).toContain('EUR/USD is above 1.16100: the price is 1.16120.');
  });

  it('with email off and a linked Telegram chat: one Telegram message in the user language, no email', async () => {
    const user = await makeUser(s);
    const now = s.server.ctx.now();
    await s.server.ctx.db.updateTable('users').set({ front_settings: JSON.stringify({ language: 'ru' }) }).where('id', '=', user.id).execute();
    await s.server.ctx.db
      .insertInto('user_profiles')
      .values({ user_id: user.id, notify_email: 0, updated_at: now } as never)
      .execute();
    const chatId = 700_000 + user.id;
    await s.server.ctx.db
      .insertInto('telegram_links')
      .values({ user_id: user.id, telegram_id: chatId, chat_id: chatId, username: null, first_name: 'T', last_name: null, language_code: 'en', linked_at: now })
      .execute();
    await tick(1.16);
    await create(user, { pair_code: PAIR, direction: 'below', price: '1.159' });
    await tick(1.1589);
    expect(await outbox('email', await emailOf(user))).toHaveLength(0);
    const messages = await outbox('telegram', String(chatId));
    expect(messages).toHaveLength(1);
    expect(messages[0]!.body).toBe('🔔 EUR/USD опустился ниже 1.15900: цена 1.15890.');
  });
});
