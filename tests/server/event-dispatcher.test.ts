/**
 * The outbox's dispatcher in cursor mode (server/domain/events.ts): a poke after a commit
 * delivers what is new, a page at a time and in order; a drain stops at a short page (it does
 * not read again to find nothing), so it must not lose what is recorded while it delivers: an
 * event recorded and poked meanwhile is delivered by that poke, one recorded elsewhere (no poke:
 * another process) by the next poll. The pokes of one turn of the event loop share one read.
 * Real database (the project's), real dispatcher.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { transaction, type DB } from '../../server/db';
import { DELIVERY_PAGE, EventDispatcher, recordEvent, recordEvents } from '../../server/domain/events';
import { useTestDatabase } from '../support/test-database';

const database = useTestDatabase('dispatch');
let db: DB;
beforeAll(() => void (db = database.db));

const until = async (ok: () => boolean, ms = 4000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('event dispatcher (cursor)', () => {
  it('delivers several pages in order on one poke', async () => {
    const events = new EventDispatcher(db, 60_000);
    await events.start();
    const heard: number[] = [];
    events.on('alert.fired', (e) => void heard.push(e.payload.alert_id));
    const count = DELIVERY_PAGE * 2 + 7;
    await transaction(db, (trx) => recordEvents(trx, Array.from({ length: count }, (_, i) => ({ type: 'alert.fired', userId: null, payload: { alert_id: i } }))));
    await events.poke();
    expect(heard).toEqual(Array.from({ length: count }, (_, i) => i));
    await events.stop();
  });

  it('an event recorded and poked while a delivery runs is delivered by that poke; one recorded without a poke, by the poll', async () => {
    const events = new EventDispatcher(db, 60_000);
    await events.start();
    const heard: number[] = [];
    events.on('alert.fired', async (e) => {
      heard.push(e.payload.alert_id);
      // The first event's listener commits another and pokes, as every ctx.tx does.
      if (e.payload.alert_id === 1) {
        await transaction(db, (trx) => recordEvent(trx, 'alert.fired', null, { alert_id: 2 }));
        void events.poke();
      }
    });
    await transaction(db, (trx) => recordEvent(trx, 'alert.fired', null, { alert_id: 1 }));
    await events.poke();
    await until(() => heard.length === 2);
    expect(heard).toEqual([1, 2]);
    await events.stop();

    const polling = new EventDispatcher(db, 20);
    await polling.start();
    const late: number[] = [];
    polling.on('alert.fired', (e) => void late.push(e.payload.alert_id));
    await polling.poke();
    await transaction(db, (trx) => recordEvent(trx, 'alert.fired', null, { alert_id: 3 }));
    await until(() => late.length === 1);
    expect(late).toEqual([3]);
    await polling.stop();
  });

  it('starts no delivery once stopped, and reports a failed one instead of rejecting', async () => {
    let reads = 0;
    let failing = false;
    const plugin: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        reads++;
        if (failing) throw new Error('database refused');
        return args.result;
      },
    };
    const errors: unknown[] = [];
    const events = new EventDispatcher(db.withPlugin(plugin), 60_000, (err) => errors.push(err));
    await events.start();
    const heard: number[] = [];
    events.on('alert.fired', (e) => void heard.push(e.payload.alert_id));
    // A drain that fails (as after the database was closed under it) resolves the poke and is reported.
    failing = true;
    await transaction(db, (trx) => recordEvent(trx, 'alert.fired', null, { alert_id: 200 }));
    await expect(events.poke()).resolves.toBeUndefined();
    expect(String(errors[0])).toMatch(/database refused/);
    failing = false;
    await events.poke();
    expect(heard).toEqual([200]);
    // After stop (shutdown: the database is destroyed next), a commit that finishes and pokes reads nothing.
    await events.stop();
    reads = 0;
    await transaction(db, (trx) => recordEvent(trx, 'alert.fired', null, { alert_id: 201 }));
    await events.poke();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reads).toBe(0);
    expect(heard).toEqual([200]);
  });

  it('the pokes of one turn of the event loop share one read', async () => {
    // Counts the dispatcher's reads of the outbox (every query its handle runs passes the plugin).
    let reads = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        if (args.result.rows.length === 0 || 'type' in (args.result.rows[0] as object)) reads++;
        return args.result;
      },
    };
    const events = new EventDispatcher(db.withPlugin(counting), 60_000);
    await events.start();
    const heard: number[] = [];
    events.on('alert.fired', (e) => void heard.push(e.payload.alert_id));
    reads = 0;
    // Ten commits, then their ten pokes (one each, as ctx.tx does) within one turn.
    for (let i = 0; i < 10; i++) await transaction(db, (trx) => recordEvent(trx, 'alert.fired', null, { alert_id: 100 + i }));
    await Promise.all(Array.from({ length: 10 }, () => events.poke()));
    expect(heard).toEqual(Array.from({ length: 10 }, (_, i) => 100 + i));
    // Whatever drain the pokes left behind has run before the count.
    await events.stop();
    expect(reads).toBe(1);
  });
});
