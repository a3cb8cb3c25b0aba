/**
 * SQLite WAL checkpoints off the event loop.
 *
 * In WAL mode every commit appends its pages to the -wal file; a checkpoint copies them back
 * into the database file and syncs it. Left to SQLite, the commit that crosses
 * `wal_autocheckpoint` runs the checkpoint itself, synchronously, on the server's only thread:
 * measured in order placement, one commit in a few hundred took 25-36 ms (every request and tick
 * waited), and those commits were about half of all the time spent committing
 * (docs/performance.md, "Fifth pass: placement and settlement").
 *
 * The server therefore checkpoints from a worker thread on a connection of its own: a PASSIVE
 * checkpoint every CHECKPOINT_INTERVAL_MS, which never takes the write lock and never makes a
 * writer wait; the next write transaction after a complete checkpoint starts the WAL over.
 * The server's own connection keeps an automatic checkpoint at a far higher mark
 * (FALLBACK_AUTOCHECKPOINT_BYTES) only as a backstop should the worker fall behind or stop.
 *
 * Under writes that never pause (placement at its capacity), a PASSIVE checkpoint never catches
 * up: what commits while it copies is left for the next one, so the WAL cannot start over and
 * grows until the backstop's mark, where the server's connection checkpoints the rest itself,
 * in a commit (what the worker has not reached yet, and two fsyncs: 10-25 ms here), after which
 * the WAL starts over. At 2,000 orders a second (~34 MB of WAL a second) that is one such commit
 * every ~6 s at 200 MB. The marks are set in bytes: they were pages, and when new databases got
 * 1 KiB pages (docs/performance.md, "Fifth pass") the backstop meant for ~200 MB became 50 MB
 * and fired every ~1.5 s under that load.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';

/** How often the worker checkpoints. */
export const CHECKPOINT_INTERVAL_MS = 500;
/** The server connection's own automatic checkpoint: a backstop, at this much WAL (bytes). */
export const FALLBACK_AUTOCHECKPOINT_BYTES = 200 * 1024 * 1024;
/** The automatic checkpoint of a connection without the worker (the operator's one-shot tools), in bytes of WAL. */
export const AUTOCHECKPOINT_BYTES = 40 * 1024 * 1024;

/** `wal_autocheckpoint` (a number of pages) for `bytes` of WAL at `pageSize`. */
export const autocheckpointPages = (bytes: number, pageSize: number) => Math.max(1, Math.round(bytes / pageSize));

export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export interface Checkpointer {
  /** Checkpoint now and answer SQLite's figures (frames in the WAL, frames copied). */
  now(): Promise<CheckpointResult>;
  /** Stop the worker and close its connection. */
  stop(): Promise<void>;
}

// CommonJS run by the worker (eval): no TypeScript loader is needed inside it.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const checkpoint = () => {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    return { busy: r.busy, log: r.log, checkpointed: r.checkpointed };
  } catch (err) {
    return { error: String(err && err.message || err) };
  }
};
const timer = setInterval(() => {
  const r = checkpoint();
  if (r.error) parentPort.postMessage({ type: 'error', message: r.error });
}, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m && m.type === 'now') parentPort.postMessage({ type: 'result', id: m.id, result: checkpoint() });
  if (m && m.type === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort.postMessage({ type: 'stopped' });
    parentPort.close();
  }
});
`;

export function startCheckpointer(file: string, onError: (message: string) => void = () => undefined, intervalMs = CHECKPOINT_INTERVAL_MS): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs } });
  // The worker never keeps the process alive by itself.
  worker.unref();
  let nextId = 0;
  const waiting = new Map<number, (r: CheckpointResult) => void>();
  let stopped: Promise<void> | null = null;
  let exited = false;
  worker.once('exit', () => {
    exited = true;
  });
  worker.on('message', (m: { type: string; id?: number; result?: CheckpointResult & { error?: string }; message?: string }) => {
    if (m.type === 'error') onError(m.message ?? 'checkpoint failed');
    if (m.type === 'result' && m.id !== undefined) {
      if (m.result?.error) onError(m.result.error);
      waiting.get(m.id)?.(m.result ?? { busy: 1, log: -1, checkpointed: -1 });
      waiting.delete(m.id);
    }
  });
  worker.on('error', (err) => onError(err.message));
  return {
    now: () =>
      new Promise<CheckpointResult>((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        worker.postMessage({ type: 'now', id });
      }),
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        if (exited) return resolve();
        worker.once('exit', () => resolve());
        worker.postMessage({ type: 'stop' });
        // A worker that does not answer is ended; the database file is not at risk (SQLite's locks).
        setTimeout(() => void worker.terminate(), 2000).unref();
      })),
  };
}
