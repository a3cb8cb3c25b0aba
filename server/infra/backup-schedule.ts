/**
 * The scheduled backup (BACKUP_DIR, BACKUP_EVERY, BACKUP_KEEP; docs/operations.md): every period
 * one backup (server/db/backup.ts: the SQLite online backup from a worker thread, or pg_dump),
 * then the oldest beyond BACKUP_KEEP are removed. In a cluster only the feed leader takes them
 * (one backup per period, not one per node). A failed backup is logged and tried again at the
 * next period; it never stops the server. `last` is what the metrics report.
 */
import { backupDatabase, pruneBackups, type BackupResult, type BackupSource } from '../db/backup';

export interface BackupScheduleOptions {
  source: BackupSource;
  dir: string;
  everyMs: number;
  keep: number;
  now: () => number;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** In a cluster: whether this node leads (only the leader backs up). Absent: one node. */
  isLeader?: () => boolean;
}

export class BackupSchedule {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** The newest backup this node took, with its time. */
  last: (BackupResult & { at: number }) | null = null;
  failures = 0;

  constructor(private readonly options: BackupScheduleOptions) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.options.everyMs);
    this.timer.unref();
  }

  /** One scheduled run (also what tests call): skipped when another is still running or this node does not lead. */
  runOnce(): Promise<void> {
    if (this.running) return this.running;
    if (this.options.isLeader && !this.options.isLeader()) return Promise.resolve();
    const { source, dir, keep, now, log } = this.options;
    this.running = (async () => {
      try {
        const at = now();
        const result = await backupDatabase(source, dir, at);
        this.last = { ...result, at };
        const removed = pruneBackups(dir, keep);
        log.info({ file: result.file, bytes: result.bytes, tookMs: result.tookMs, removed: removed.length }, 'backup written');
      } catch (err) {
        this.failures += 1;
        log.error({ err: (err as Error).message }, 'scheduled backup failed');
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
