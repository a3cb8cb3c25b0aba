/**
 * The socket benches' clients, spread over worker threads of the bench process (W workers, each
 * with 1/W of the sockets and of the connect concurrency), so that no one thread decodes every
 * socket's messages in turn: with 5,000 sockets in one thread, the last socket's tick waited for
 * the other 4,999 to be handled first, the same for every server (docs/performance.md, "Seventh
 * pass"). Every worker does the same per-client work whatever the server; the process's CPU
 * (all threads) is what the benches report as the clients' CPU.
 *
 * The main thread drives them: `connect` (each worker connects its tokens: provide_token +
 * select_pair until init_candles), `ticks` (each measures tick latency for `seconds` and returns
 * its latencies and counts), `close`.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { LightSocket, ioClient, type BenchClient } from './light-client';

export type ClientKind = 'light' | 'socket.io-client';

interface Job {
  url: string;
  tokens: string[];
  kind: ClientKind;
  concurrency: number;
  pair: string;
}

export interface ConnectResult {
  connectMs: number;
  failed: number;
  /** price_update messages the clients got while the others were still connecting. */
  ticksWhileConnecting: number;
}

export interface TickResult {
  latencies: number[];
  messages: number;
  ticks: number;
  outOfOrder: number;
}

type Command = { type: 'connect'; deadlineMs: number } | { type: 'ticks'; seconds: number } | { type: 'close' };

async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** One worker's clients. */
class Clients {
  readonly sockets: BenchClient[] = [];

  constructor(private readonly job: Job) {}

  async connect(deadlineMs: number): Promise<ConnectResult> {
    const { url, kind, pair } = this.job;
    let failed = 0;
    let ticksWhileConnecting = 0;
    const start = performance.now();
    // The whole connect phase has a deadline: sockets not started by then count as failed.
    const deadline = start + deadlineMs;
    await pool(this.job.tokens, this.job.concurrency, async (token) => {
      if (performance.now() > deadline) {
        failed++;
        return;
      }
      const s = kind === 'light' ? new LightSocket(url) : ioClient(url);
      this.sockets.push(s);
      s.countAll((event) => void (event === 'price_update' && ticksWhileConnecting++));
      const ok = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 60_000);
        s.onceEvent('connect_error', () => (clearTimeout(timer), resolve(false)));
        s.onceEvent('init_candles', () => (clearTimeout(timer), resolve(true)));
        s.onceEvent('connect', () => {
          s.emit('provide_token', { token });
          s.emit('select_pair', { pair_code: pair, timeframe: '5s', token });
        });
      });
      if (!ok) failed++;
    });
    const connectMs = performance.now() - start;
    for (const s of this.sockets) s.countAll(null);
    return { connectMs, failed, ticksWhileConnecting };
  }

  /** Tick latency (receive time - tick time) over `seconds` on every socket; counts every message. */
  async ticks(seconds: number): Promise<TickResult> {
    const latencies: number[] = [];
    let messages = 0;
    let ticks = 0;
    let outOfOrder = 0;
    const onAny = () => void messages++;
    for (const s of this.sockets) {
      let prev = 0;
      s.on(
        'price_update',
        (payload) => {
          const t = (payload as { time?: number } | null)?.time ?? 0;
          latencies.push(Date.now() - t);
          ticks++;
          if (t < prev) outOfOrder++;
          prev = t;
        },
        true,
      );
      s.countAll(onAny);
    }
    await new Promise((r) => setTimeout(r, seconds * 1000));
    for (const s of this.sockets) {
      s.off('price_update');
      s.countAll(null);
    }
    return { latencies, messages, ticks, outOfOrder };
  }

  close(): void {
    for (const s of this.sockets) s.close();
    this.sockets.length = 0;
  }
}

if (!isMainThread && parentPort && (workerData as { socketClients?: Job } | null)?.socketClients) {
  const port = parentPort;
  const clients = new Clients((workerData as { socketClients: Job }).socketClients);
  port.on('message', (cmd: Command) => {
    if (cmd.type === 'connect') void clients.connect(cmd.deadlineMs).then((r) => port.postMessage(r));
    else if (cmd.type === 'ticks') void clients.ticks(cmd.seconds).then((r) => port.postMessage(r));
    else {
      clients.close();
      port.postMessage(null);
    }
  });
}

/** `tokens` as `workers` workers' clients of `url` (total connect concurrency `concurrency`). */
export class ClientFleet {
  private readonly workers: Worker[];

  constructor(url: string, tokens: string[], kind: ClientKind, workers: number, concurrency: number, pair: string) {
    const n = Math.max(1, Math.min(workers, tokens.length));
    this.workers = Array.from({ length: n }, (_, i) => {
      const job: Job = { url, tokens: tokens.filter((_, k) => k % n === i), kind, concurrency: Math.max(1, Math.round(concurrency / n)), pair };
      // The worker registers tsx (as the bench itself is run) before it loads this TypeScript file.
      const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); });`;
      return new Worker(boot, { eval: true, workerData: { socketClients: job } });
    });
  }

  private ask<T>(cmd: Command): Promise<T[]> {
    return Promise.all(
      this.workers.map(
        (w) =>
          new Promise<T>((resolve, reject) => {
            w.once('message', resolve);
            w.once('error', reject);
            w.postMessage(cmd);
          }),
      ),
    );
  }

  async connect(deadlineMs: number): Promise<ConnectResult> {
    const start = performance.now();
    const parts = await this.ask<ConnectResult>({ type: 'connect', deadlineMs });
    return {
      connectMs: performance.now() - start,
      failed: parts.reduce((a, p) => a + p.failed, 0),
      ticksWhileConnecting: parts.reduce((a, p) => a + p.ticksWhileConnecting, 0),
    };
  }

  async ticks(seconds: number): Promise<TickResult> {
    const parts = await this.ask<TickResult>({ type: 'ticks', seconds });
    return {
      latencies: parts.flatMap((p) => p.latencies),
      messages: parts.reduce((a, p) => a + p.messages, 0),
      ticks: parts.reduce((a, p) => a + p.ticks, 0),
      outOfOrder: parts.reduce((a, p) => a + p.outOfOrder, 0),
    };
  }

  async close(): Promise<void> {
    await this.ask({ type: 'close' });
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
