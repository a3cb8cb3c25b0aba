/**
 * The PDF check off the main thread: one lazily started worker thread (pdf-worker.ts) runs
 * inspectPdf for every upload, one file at a time, in the order asked. A file that takes longer
 * than PDF_CHECK_TIMEOUT_MS is refused as unreadable and the worker is replaced (a crafted file
 * cannot stall the check for everyone after it); a worker that dies fails only the files it held.
 */
import { Worker } from 'node:worker_threads';
import type { PdfVerdict } from './pdf-inspect';

export const PDF_CHECK_TIMEOUT_MS = 20_000;

interface Job {
  id: number;
  data: Buffer;
  resolve: (verdict: PdfVerdict) => void;
  timer: ReturnType<typeof setTimeout> | null;
}

let worker: Worker | null = null;
let nextId = 1;
const queue: Job[] = [];
let running: Job | null = null;

function unreadable(detail: string): PdfVerdict {
  return { ok: false, problem: 'unreadable', detail };
}

function replaceWorker(reason: string): void {
  const old = worker;
  worker = null;
  if (running) {
    if (running.timer) clearTimeout(running.timer);
    running.resolve(unreadable(reason));
    running = null;
  }
  void old?.terminate();
  pump();
}

function startWorker(): Worker {
  const w = new Worker(new URL('./pdf-worker-boot.mjs', import.meta.url));
  w.unref();
  w.on('message', (message: { id: number; verdict: PdfVerdict }) => {
    if (!running || running.id !== message.id) return;
    if (running.timer) clearTimeout(running.timer);
    running.resolve(message.verdict);
    running = null;
    pump();
  });
  w.on('error', (err) => {
    if (worker === w) replaceWorker(`the check failed (${err.message})`);
  });
  w.on('exit', () => {
    if (worker === w) replaceWorker('the check stopped');
  });
  return w;
}

function pump(): void {
  if (running) return;
  const job = queue.shift();
  if (!job) return;
  running = job;
  worker ??= startWorker();
  job.timer = setTimeout(() => replaceWorker('the check took too long'), PDF_CHECK_TIMEOUT_MS);
  job.timer.unref();
  worker.postMessage({ id: job.id, data: job.data });
}

/** inspectPdf on the worker thread. */
export function checkPdf(data: Buffer): Promise<PdfVerdict> {
  return new Promise((resolve) => {
    queue.push({ id: nextId++, data, resolve, timer: null });
    pump();
  });
}
