/**
 * Operator commands `backup` and `restore` (docs/operations.md, "Backups"):
 *
 *   backup [--to DIR]              one backup now, into DIR (default BACKUP_DIR, else DATA_DIR/backups):
 *                                  SQLite through the online backup API while the server runs,
 *                                  checked with PRAGMA integrity_check; PostgreSQL with pg_dump -Fc.
 *                                  Its SHA-256 is written beside it (FILE.sha256).
 *   restore FILE --into DIR|URL    check the file against its .sha256, restore it into a fresh
 *                                  directory (SQLite) or an empty PostgreSQL database, then run the
 *                                  books audit, the tick-chain verify and the audit-log verify on the restored copy.
 *
 * Exit codes: 0 done (every check passed), 1 a backup, restore or check failed, 2 bad usage.
 */
import path from 'node:path';
import { openDatabase } from '../../db';
import { backupDatabase, BackupCheckError, markVerifiedRestore, restoreBackup } from '../../db/backup';
import { verifyChain } from '../../domain/market/tick-chain';
import { verifyAudit } from '../../domain/audit/service';
import { checkBooks } from './audit';
import { parseArgs, UsageError, type CliCommand } from './types';

export const backupCommand: CliCommand = {
  name: 'backup',
  usage: '[--to DIR]',
  description: 'back the database up while the server runs (SQLite online backup + integrity check, or pg_dump -Fc), with its SHA-256 beside it',
  async run(args, cli) {
    const { positional, flags } = parseArgs(args);
    if (positional.length > 0 || Object.keys(flags).some((k) => k !== 'to')) throw new UsageError('backup takes only --to DIR');
    const dir = flags.to ?? cli.config.backupDir ?? path.join(cli.config.dataDir, 'backups');
    try {
      const r = await backupDatabase({ databaseUrl: cli.config.databaseUrl, sqliteFile: path.join(cli.config.dataDir, 'tradeterminal.db') }, dir, cli.now());
      cli.out(`Backup written: ${r.file} (${r.bytes} bytes, ${r.dialect}, ${r.tookMs} ms)`);
      cli.out(`SHA-256: ${r.sha256} (in ${path.basename(r.file)}.sha256)`);
      return 0;
    } catch (err) {
      cli.err(`Backup FAILED: ${(err as Error).message}`);
      return 1;
    }
  },
};

export const restoreCommand: CliCommand = {
  name: 'restore',
  usage: 'FILE --into DIR|postgres://URL',
  description: 'restore a backup into a fresh place and check it (books audit, tick chain); exit 1 when anything fails',
  async run(args, cli) {
    const { positional, flags } = parseArgs(args);
    if (positional.length !== 1 || !flags.into || Object.keys(flags).some((k) => k !== 'into')) throw new UsageError('restore needs FILE and --into DIR (or a postgres:// URL)');
    let restored: Awaited<ReturnType<typeof restoreBackup>>;
    try {
      restored = await restoreBackup(positional[0], flags.into);
    } catch (err) {
      // A BackupCheckError names what is wrong with the file or the target; anything else is pg_restore's or the file system's.
      cli.err(`Restore FAILED: ${err instanceof BackupCheckError ? '' : 'could not restore: '}${(err as Error).message}`);
      return 1;
    }
    cli.out(`Restored into ${restored.sqliteFile ?? flags.into} (checksum OK)`);
    const db = await openDatabase(restored.databaseUrl ? { dataDir: cli.config.dataDir, databaseUrl: restored.databaseUrl } : restored.sqliteFile!);
    let failed = false;
    try {
      const books = await checkBooks(db);
      for (const line of books.ok) cli.out(line);
      for (const line of books.problems) cli.err(line);
      failed ||= books.problems.length > 0;
      // The whole restored log is checked: retention pruned what is older, and that shows as pruned.
      const chain = await verifyChain(db, cli.now() - cli.config.tickRetentionHours * 3_600_000);
      if (chain.broken) {
        cli.err(`Tick chain BROKEN at batch ${chain.broken.batch_id}: ${chain.broken.reason}`);
        failed = true;
      } else {
        cli.out(`Tick chain OK: ${chain.batches} batches, ${chain.ticks} ticks re-hashed`);
      }
      const audit = await verifyAudit(db);
      if (audit.ok) cli.out(`Audit log OK: ${audit.checked} rows, the chain holds`);
      else {
        cli.err(`Audit log BROKEN at row #${audit.brokenId} (checked ${audit.checked} rows)`);
        failed = true;
      }
    } finally {
      await db.destroy();
    }
    cli.out(failed ? 'Restore check FAILED' : 'Restore check OK: every check passed on the restored copy');
    // The metrics' "last verified restore" (tt_last_verified_restore_timestamp_seconds) reads this mark beside the backups.
    if (!failed) markVerifiedRestore(path.dirname(path.resolve(positional[0])), positional[0], cli.now());
    return failed ? 1 : 0;
  },
};
