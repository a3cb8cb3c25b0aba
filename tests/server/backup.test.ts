/**
 * Backups with a tested restore (issue 34 item 4, docs/operations.md): `admin backup` taken from
 * a running server while orders are being placed (SQLite's online backup from a worker thread;
 * pg_dump on the server-pg project), then `admin restore` into a fresh place: the checksum is
 * checked, the books audit and the tick-chain verify pass on the copy, and every order the
 * server had acknowledged before the backup started is in it. A file altered after the backup
 * is refused; the scheduled backup keeps BACKUP_KEEP copies.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../server/cli/admin';
import { openDatabase } from '../../server/db';
import { listBackups } from '../../server/db/backup';
import { BackupSchedule } from '../../server/infra/backup-schedule';
import { makeUser, removeDir, startOrdersServer, type OrdersServer } from '../support/orders-harness';
import { databaseEnv, testPostgresUrl } from '../support/test-database';
import { createEmptyDatabase, dropDatabase } from '../support/postgres';

let s: OrdersServer;
const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tt-${name}-`));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  s = await startOrdersServer({ clock: null });
});
afterAll(async () => {
  await s.server.close();
  for (const d of dirs) removeDir(d);
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
  const error = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void err.push(String(line)));
  try {
    const code = await runCli(args, { ...databaseEnv(s.server.dataDir), LOG_LEVEL: 'silent', NODE_ENV: 'test' });
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

/** A fresh place to restore into: a directory on SQLite, an empty database on PostgreSQL. */
async function freshTarget(): Promise<{ into: string; cleanup: () => Promise<void> }> {
  const admin = testPostgresUrl();
  if (!admin) return { into: tempDir('restore'), cleanup: async () => undefined };
  const url = await createEmptyDatabase(admin);
  return { into: url, cleanup: () => dropDatabase(admin, url) };
}

describe('admin backup and restore', () => {
  it('backs up under order load and restores a copy with every acknowledged order and balanced books', async () => {
    const orders = s.server.ctx.services.orders;
    const users = await Promise.all([makeUser(s, { USD: 1_000_000 }), makeUser(s, { USD: 1_000_000 })]);
    s.feed.push('EURUSD', 1.16);
    const acknowledged: Array<{ id: number; at: number }> = [];
    let placing = true;
    const load = (async () => {
      for (let i = 0; placing; i++) {
        // A fresh quote now and then (real clock: a pair without one for 5 s is suspended).
        if (i % 20 === 0) s.feed.push('EURUSD', 1.16 + (i % 7) / 10_000);
        const { order } = await orders.place(users[i % 2].id, {
          pair_code: 'EURUSD',
          direction: i % 2 ? 'up' : 'down',
          amount: 1,
          currency: 'USD',
          trading_account: i % 3 === 0 ? 'DemoAccount' : 'RealAccount',
          expiry: 60,
        });
        acknowledged.push({ id: order.order_id, at: Date.now() });
        // As requests do: one order per turn of the event loop (the backup's worker answers in one).
        await new Promise((r) => setImmediate(r));
      }
    })();
    while (acknowledged.length < 50) await new Promise((r) => setTimeout(r, 5));
    const backupDir = tempDir('backup');
    const startedAt = Date.now();
    const before = acknowledged.slice();
    const backup = await cli(['backup', '--to', backupDir]);
    placing = false;
    await load;
    expect(backup.code, backup.err).toBe(0);
    // The load went on during the backup: orders were acknowledged while it ran.
    expect(acknowledged.some((a) => a.at > startedAt)).toBe(true);

    const [file] = listBackups(backupDir);
    expect(file).toBeDefined();
    expect(fs.readFileSync(`${file}.sha256`, 'utf8')).toMatch(new RegExp(`^[0-9a-f]{64}  ${path.basename(file)}\\n$`));

    const target = await freshTarget();
    try {
      const restore = await cli(['restore', file, '--into', target.into]);
      expect(restore.code, `${restore.out}\n${restore.err}`).toBe(0);
      expect(restore.out).toContain('Books balance: every currency and every ledger transaction sums to zero');
      expect(restore.out).toContain('Tick chain OK');
      expect(restore.out).toContain('Audit log OK');

      const restored = await openDatabase(target.into.startsWith('postgres') ? { dataDir: target.into, databaseUrl: target.into } : path.join(target.into, 'tradeterminal.db'));
      try {
        const ids = new Set((await restored.selectFrom('orders').select('id').execute()).map((r) => Number(r.id)));
        expect(before.length).toBeGreaterThanOrEqual(50);
        expect(before.filter((a) => !ids.has(a.id))).toEqual([]);
      } finally {
        await restored.destroy();
      }
    } finally {
      await target.cleanup();
    }
  });

  it('refuses a backup whose bytes no longer match its SHA-256, and restores nothing', async () => {
    const backupDir = tempDir('backup-bad');
    expect((await cli(['backup', '--to', backupDir])).code).toBe(0);
    const [file] = listBackups(backupDir);
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.from('x'), 0, 1, Math.floor(fs.statSync(file).size / 2));
    fs.closeSync(fd);
    const target = tempDir('restore-bad');
    const r = await cli(['restore', file, '--into', target]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('checksum mismatch');
    expect(fs.readdirSync(target)).toEqual([]);
  });

  it('refuses to restore over an existing database', async () => {
    const backupDir = tempDir('backup-over');
    expect((await cli(['backup', '--to', backupDir])).code).toBe(0);
    const [file] = listBackups(backupDir);
    if (file.endsWith('.pgdump')) return expect(file).toMatch(/\.pgdump$/);
    const r = await cli(['restore', file, '--into', s.server.dataDir]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('restore into a fresh directory');
  });

  it('the schedule keeps the newest BACKUP_KEEP copies', async () => {
    const dir = tempDir('schedule');
    const config = s.server.ctx.config;
    let t = Date.now();
    const schedule = new BackupSchedule({
      source: { databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'tradeterminal.db') },
      dir,
      everyMs: 3_600_000,
      keep: 2,
      now: () => (t += 1000),
      log: { info: () => undefined, error: (obj) => expect.fail(JSON.stringify(obj)) },
    });
    for (let i = 0; i < 4; i++) await schedule.runOnce();
    const kept = listBackups(dir);
    expect(kept).toHaveLength(2);
    expect(schedule.last?.file).toBe(kept[1]);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.sha256'))).toHaveLength(2);
    await schedule.stop();
  });
});
