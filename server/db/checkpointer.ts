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
 * up: what commits while it copies is left for the next one, and SQLite starts the WAL over only
 * after a checkpoint that is complete while nobody writes. Left alone, the WAL grew to the
 * backstop's mark, where the server's connection checkpointed the rest itself inside a commit:
 * what the worker had not reached yet (up to an interval's worth of orders) and two fsyncs, one
 * synchronous stall of 10-140 ms every ~5 s at 2,000 orders a second, every request and tick
 * waiting (docs/performance.md, "Eleventh pass"). So past RESTART_BYTES of WAL the worker asks
 * for a finish: the server holds its writes without blocking its event loop (it takes the
 * driver's one connection, so queries and transactions queue as promises while requests, ticks
 * and sockets go on), the worker runs `wal_checkpoint(RESTART)` on what was committed since its
 * PASSIVE pass (5-24 ms here: no writer to wait for, what is left is its two fsyncs), and the
 * next write starts the WAL over. The backstop stays for a worker that falls behind or stops.
 * The marks are set in bytes (new databases have 1 KiB pages, docs/performance.md "Fifth pass").
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';

/** How often the worker checkpoints. */
export const CHECKPOINT_INTERVAL_MS = 500;
/** WAL size (bytes) past which the worker asks the server to hold its writes for a complete checkpoint. */
export const RESTART_BYTES = 128 * 1024 * 1024;
/** How long a finish waits for another process's reader or writer before it gives up. */
export const FINISH_BUSY_MS = 50;
/** After a finish that gave up, how long before the worker asks again (the backstop still holds). */
export const FINISH_QUIET_MS = 5000;
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
  /**
   * Checkpoint everything and let the next write start the WAL over (RESTART). Call it only
   * while this process holds its writes: the worker then takes the write lock at once and
   * nobody sleeps in SQLite's busy handler.
   */
  finish(): Promise<CheckpointResult>;
  /** Stop the worker and close its connection. */
  stop(): Promise<void>;
}

// CommonJS run by the worker (eval): no TypeScript loader is needed inside it.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const pageSize = db.pragma('page_size', { simple: true });
const checkpoint = (mode) => {
  try {
    const [r] = db.pragma('wal_checkpoint(' + mode + ')');
    return { busy: r.busy, log: r.log, checkpointed: r.checkpointed };
  } catch (err) {
    return { error: String(err && err.message || err) };
  }
};
let wanted = false;
let quietUntil = 0;
const timer = setInterval(() => {
  const r = checkpoint('PASSIVE');
  if (r.error) parentPort.postMessage({ type: 'error', message: r.error });
  else if (!wanted && workerData.restartBytes > 0 && r.log * pageSize >= workerData.restartBytes && Date.now() >= quietUntil) {
    wanted = true;
    parentPort.postMessage({ type: 'finish-wanted' });
  }
}, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m && m.type === 'now') parentPort.postMessage({ type: 'result', id: m.id, result: checkpoint('PASSIVE') });
  if (m && m.type === 'finish') {
    wanted = false;
    // The server's writes wait meanwhile: a reader in another process (the operator's CLI) may
    // hold the WAL for long, so give up soon (busy) and do not ask again for a while.
    db.pragma('busy_timeout = ' + workerData.finishBusyMs);
    const result = checkpoint('RESTART');
    db.pragma('busy_timeout = 5000');
    if (result.busy) quietUntil = Date.now() + workerData.finishQuietMs;
    parentPort.postMessage({ type: 'result', id: m.id, result });
  }
  if (m && m.type === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort.postMessage({ type: 'stopped' });
    parentPort.close();
  }
});
`;

/** When the worker asks for a complete checkpoint (`finish`), and past how much WAL. */
export interface FinishRequests {
  /** 0: never ask. */
  restartBytes: number;
  /** Called on this thread; the owner holds its writes and calls `finish()`. */
  onWanted: () => void;
}

export function startCheckpointer(
  file: string,
  onError: (message: string) => void = () => undefined,
  intervalMs = CHECKPOINT_INTERVAL_MS,
  finishRequests: FinishRequests = { restartBytes: 0, onWanted: () => undefined },
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs, restartBytes: finishRequests.restartBytes, finishBusyMs: FINISH_BUSY_MS, finishQuietMs: FINISH_QUIET_MS } });
  // The worker never keeps the process alive by itself.
  worker.unref();
  let nextId = 0;
  const waiting = new Map<number, (r: CheckpointResult) => void>();
  let stopped: Promise<void> | null = null;
  let exited = false;
  worker.once('exit', () => {
    exited = true;
    // Nobody waits forever on a worker that is gone (a held write would never resume).
    for (const resolve of waiting.values()) resolve({ busy: 1, log: -1, checkpointed: -1 });
    waiting.clear();
  });
  worker.on('message', (m: { type: string; id?: number; result?: CheckpointResult & { error?: string }; message?: string }) => {
    if (m.type === 'error') onError(m.message ?? 'checkpoint failed');
    if (m.type === 'finish-wanted') finishRequests.onWanted();
    if (m.type === 'result' && m.id !== undefined) {
      if (m.result?.error) onError(m.result.error);
      waiting.get(m.id)?.(m.result ?? { busy: 1, log: -1, checkpointed: -1 });
      waiting.delete(m.id);
    }
  });
  worker.on('error', (err) => onError(err.message));
  const ask = (type: 'now' | 'finish') =>
    new Promise<CheckpointResult>((resolve) => {
      if (exited) return resolve({ busy: 1, log: -1, checkpointed: -1 });
      const id = nextId++;
      waiting.set(id, resolve);
      worker.postMessage({ type, id });
    });
  return {
    now: () => ask('now'),
    finish: () => ask('finish'),
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
