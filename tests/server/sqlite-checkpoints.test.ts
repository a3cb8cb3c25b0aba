/**
 * SQLite hot-path storage (docs/performance.md, "Fifth pass"):
 *   - WAL checkpoints run in a worker thread (server/db/checkpointer.ts), not inside commits, and
 *     under writes that never pause the worker finishes one while the writes are held, so the WAL
 *     starts over without the server's own commit checkpointing (docs/performance.md, "Eleventh pass");
 *   - a new database has small pages (fewer bytes written per commit);
 *   - the batch read of settlement searches by primary key, not by the status index;
 *   - prepared queries run directly on the connection a write transaction holds, nowhere else.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { checkpointerOf, heldSqliteOf, openDatabase, SQLITE_PAGE_SIZE, transaction, type CheckpointTuning, type DB, type Trx } from '../../server/db';
import { AUTOCHECKPOINT_BYTES, FALLBACK_AUTOCHECKPOINT_BYTES, startCheckpointer } from '../../server/db/checkpointer';
import { batchRowsQuery } from '../../server/domain/orders/repository';

const open: DB[] = [];
afterEach(async () => {
  for (const db of open.splice(0)) await db.destroy();
});

async function tempDb(backgroundCheckpoints: boolean, checkpointTuning?: CheckpointTuning): Promise<{ db: DB; file: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-ckpt-'));
  const file = path.join(dir, 'tradeterminal.db');
  const db = await openDatabase({ dataDir: dir, sqliteFile: file, backgroundCheckpoints, checkpointTuning });
  open.push(db);
  return { db, file };
}

async function pragma(db: DB, text: string): Promise<Record<string, unknown>> {
  const r = await sql.raw(`pragma ${text}`).execute(db);
  return r.rows[0] as Record<string, unknown>;
}

describe('WAL checkpoints off the event loop', () => {
  it('the server connection never checkpoints at the usual mark; the worker copies the WAL back', async () => {
    const { db, file } = await tempDb(true);
    const checkpointer = checkpointerOf(db);
    expect(checkpointer).toBeDefined();
    // The backstop: 200 MB of WAL (in pages of this database).
    expect(await pragma(db, 'wal_autocheckpoint')).toEqual({ wal_autocheckpoint: FALLBACK_AUTOCHECKPOINT_BYTES / SQLITE_PAGE_SIZE });

    await sql`create table scratch (id integer primary key, body text not null)`.execute(db);
    const body = 'x'.repeat(3000);
    for (let i = 0; i < 400; i++) await sql`insert into scratch (body) values (${body})`.execute(db);
    const walBytes = fs.statSync(`${file}-wal`).size;
    expect(walBytes).toBeGreaterThan(400 * 3000);

    const result = await checkpointer!.now();
    expect(result.busy).toBe(0);
    expect(result.log).toBeGreaterThan(0);
    // Everything committed so far is in the database file: a reader without the WAL would see it.
    expect(result.checkpointed).toBe(result.log);

    // The next write starts the WAL over instead of growing it.
    await sql`insert into scratch (body) values (${body})`.execute(db);
    const after = await checkpointer!.now();
    expect(after.log).toBeLessThan(result.log);
    expect(after.checkpointed).toBe(after.log);
  });

  it('under writes that never pause, the worker finishes a checkpoint while the writes are held, and the WAL starts over long before the backstop', async () => {
    // A PASSIVE pass never completes while commits keep coming, so without the finish the WAL
    // would grow to the 200 MB backstop and the server's own commit would checkpoint the rest.
    const finishAt = 256 * 1024;
    const { db, file } = await tempDb(true, { intervalMs: 20, restartBytes: finishAt });
    await sql`create table scratch (id integer primary key, body text not null)`.execute(db);
    const body = 'x'.repeat(3000);
    await checkpointerOf(db)!.now(); // the worker is up
    // Two rounds of 2,000 writes (~8 MB of WAL each at 1 KiB pages) that never pause, yielding as
    // a server does between requests (the worker's message gets its turn).
    const round = async () => {
      for (let i = 0; i < 2000; i++) {
        await transaction(db, (trx) => sql`insert into scratch (body) values (${body})`.execute(trx).then(() => undefined));
        if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return fs.statSync(`${file}-wal`).size;
    };
    const first = await round();
    const second = await round();
    const rows = await sql<{ n: number }>`select count(*) as n from scratch`.execute(db);
    expect(rows.rows[0].n).toBe(4000);
    // The -wal file is reused from its start: the second round's ~8 MB did not grow it by half
    // of that (without the finish it grows by all of it, a PASSIVE pass never completing).
    expect(second - first).toBeLessThan((2000 * 3000) / 2);
  });

  it('gives a finish up soon while another process reads from the WAL: the writes are not held for the busy timeout', async () => {
    const { db, file } = await tempDb(true, { intervalMs: 20, restartBytes: 64 * 1024 });
    await sql`create table scratch (id integer primary key, body text not null)`.execute(db);
    const body = 'x'.repeat(3000);
    await sql`insert into scratch (body) values (${body})`.execute(db);
    await checkpointerOf(db)!.now(); // the worker is up
    // The operator's CLI in the middle of a long read: its snapshot keeps the WAL from being
    // checkpointed past it, so a RESTART would wait for it (SQLite's busy timeout is 5 s).
    const reader = new SQLite(file, { readonly: true });
    try {
      reader.exec('begin');
      expect(reader.prepare('select count(*) as n from scratch').get()).toEqual({ n: 1 });
      let longest = 0;
      for (let i = 0; i < 600; i++) {
        const started = performance.now();
        await transaction(db, (trx) => sql`insert into scratch (body) values (${body})`.execute(trx).then(() => undefined));
        longest = Math.max(longest, performance.now() - started);
        if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      // ~1.8 MB of WAL past a 64 KB mark: finishes were asked for and gave up after 50 ms
      // each; none held a write for SQLite's 5 s.
      expect(longest).toBeLessThan(2000);
      reader.exec('commit');
    } finally {
      reader.close();
    }
    const rows = await sql<{ n: number }>`select count(*) as n from scratch`.execute(db);
    expect(rows.rows[0].n).toBe(601);
  });

  it('reports a worker that cannot checkpoint instead of failing silently', async () => {
    const errors: string[] = [];
    const checkpointer = startCheckpointer(path.join(os.tmpdir(), 'tt-ckpt-missing', 'none.db'), (m) => errors.push(m), 50);
    for (let i = 0; i < 100 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await checkpointer.stop();
    expect(errors.join('\n')).toMatch(/unable to open|does not exist|directory/i);
  });

  it('one-shot tools keep SQLite checkpointing in their own commits', async () => {
    const { db } = await tempDb(false);
    expect(checkpointerOf(db)).toBeUndefined();
    expect(await pragma(db, 'wal_autocheckpoint')).toEqual({ wal_autocheckpoint: AUTOCHECKPOINT_BYTES / SQLITE_PAGE_SIZE });
  });
});

describe('page size', () => {
  it('creates a new database with small pages and leaves an existing one as it is; the checkpoint marks mean the same WAL size', async () => {
    const { db } = await tempDb(false);
    expect(await pragma(db, 'page_size')).toEqual({ page_size: SQLITE_PAGE_SIZE });

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-ckpt-'));
    const file = path.join(dir, 'old.db');
    const old = new SQLite(file);
    old.pragma('page_size = 4096');
    old.pragma('journal_mode = WAL');
    old.exec('create table t (x integer)');
    old.close();
    const reopened = await openDatabase({ dataDir: dir, sqliteFile: file });
    open.push(reopened);
    expect(await pragma(reopened, 'page_size')).toEqual({ page_size: 4096 });
    expect(await pragma(reopened, 'wal_autocheckpoint')).toEqual({ wal_autocheckpoint: AUTOCHECKPOINT_BYTES / 4096 });
    await reopened.destroy();
    open.pop();
    const served = await openDatabase({ dataDir: dir, sqliteFile: file, backgroundCheckpoints: true });
    open.push(served);
    expect(await pragma(served, 'wal_autocheckpoint')).toEqual({ wal_autocheckpoint: FALLBACK_AUTOCHECKPOINT_BYTES / 4096 });
  });
});

describe('statements on the held connection', () => {
  it('only a running write transaction\'s handle runs statements directly, and only while it runs', async () => {
    const { db } = await tempDb(false);
    expect(heldSqliteOf(db)).toBeUndefined();
    let inside: Trx | undefined;
    await transaction(db, async (trx) => {
      inside = trx;
      expect(heldSqliteOf(trx)).toBeDefined();
    });
    expect(heldSqliteOf(inside!)).toBeUndefined();
    // A transaction that fails lets go of it too.
    await transaction(db, async (trx) => {
      inside = trx;
      throw new Error('fail');
    }).catch(() => undefined);
    expect(heldSqliteOf(inside!)).toBeUndefined();
  });
});

describe('settlement batch read', () => {
  it('searches orders by primary key (not every open order through the status index)', async () => {
    const { db } = await tempDb(false);
    const q = batchRowsQuery(db, [1, 2, 3, 4, 5], false).compile();
    const plan = await sql.raw(`explain query plan ${q.sql}`.replace(/\?/g, () => '1')).execute(db);
    const detail = (plan.rows as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(detail).toMatch(/USING INTEGER PRIMARY KEY/);
    expect(detail).not.toMatch(/orders_status_expiry/);
  });
});
