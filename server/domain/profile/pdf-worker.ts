/**
 * The worker thread side of the PDF check: receives `{id, data}` (the file's bytes), answers
 * `{id, verdict}`. The parse is synchronous and can take seconds on a large, dense file; here it
 * never holds up the server's event loop (prices, settlements, other requests).
 */
import { parentPort } from 'node:worker_threads';
import { inspectPdf } from './pdf-inspect';

parentPort?.on('message', (job: { id: number; data: Uint8Array }) => {
  const verdict = inspectPdf(Buffer.from(job.data.buffer, job.data.byteOffset, job.data.byteLength));
  parentPort?.postMessage({ id: job.id, verdict });
});
