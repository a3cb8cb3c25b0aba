/**
 * Order placement under load, C clients (one user each) over HTTP keep-alive against the real
 * server in a child process, in two phases of D seconds:
 *
 * - saturated: each client places its next order as soon as the last one is answered. Figures:
 *   accepted orders per second (the server's capacity) and the answers' p50/p99. With C clients
 *   waiting on their answers, the mean answer time is C / rate (Little's law), so this p99 says
 *   how long the queue of C requests is, not how fast an order is answered at a given load.
 * - paced (open loop): the same clients together offer the goal's rate, each on its own fixed
 *   schedule (C / rate apart, the clients staggered), and an answer's time counts from when its
 *   request was due, not from when it was sent: a client held up by a slow answer sends late and
 *   the delay counts against the server (no coordinated omission). Figures: the p50/p99 at that
 *   load, and the rate actually achieved.
 *
 * Baseline (same run): raw better-sqlite3 insert transactions per second on the same disk.
 */
import { randomBytes } from 'node:crypto';
import { childServer, emit, inProcessServer, makeUsers, ms, percentile, rawInsertRate, size, tempDir } from './lib';
import { cpuMeter } from './support/proc-cpu';
import { LightHttp } from './support/light-http';

const CLIENTS = size(50, 5);
const SECONDS = size(8, 1);
/** The paced phase's offered rate: the issue's goal, orders per second over all clients. */
const PACED_RATE = size(2000, 100);

async function main() {
  const dir = tempDir('place');
  const raw = rawInsertRate(dir);
  // Users and tokens are written with the app built here, then the real server runs on the same data.
  const setup = await inProcessServer(dir);
  const users = await makeUsers(setup.ctx, CLIENTS);
  await setup.app.close();
  const server = await childServer(dir, { SIM_TICKS_PER_SECOND: '10' });
  try {
    const base = new URL(server.baseUrl);
    // One keep-alive connection per client (light-http.ts: the clients' CPU is not the server's).
    const clients = users.map(() => new LightHttp(base.hostname, Number(base.port)));
    const post = (c: number, body: string) => clients[c].post('/api/v2/orders', users[c].token, body);
    const latencies: number[] = [];
    let ok = 0;
    let refused = 0;
    const statuses = new Map<number, number>();
    /** Whether an answer placed the order; any other is counted as refused, by status. */
    const accepted = (status: number) => {
      if (status === 201) return true;
      refused++;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      return false;
    };
    // As the SPA places an order: with a fresh client_request_id (src/services/trading-actors.ts),
    // which the server checks for a replay before it writes.
    const body = (i: number) =>
      JSON.stringify({
        pair_code: 'BTCUSD',
        direction: i % 2 ? 'up' : 'down',
        amount: 1,
        currency: 'USD',
        trading_account: 'DemoAccount',
        expiry: 300,
        client_request_id: `web-${randomBytes(12).toString('hex')}`,
      });
    // Warm-up: one order per client (connections, caches, JIT).
    await Promise.all(users.map((_, c) => post(c, body(c))));
    const saturatedCpu = cpuMeter(server.child.pid);
    const start = performance.now();
    const end = start + SECONDS * 1000;
    await Promise.all(
      users.map(async (_, c) => {
        let i = c;
        while (performance.now() < end) {
          const t = performance.now();
          const status = await post(c, body(i++));
          latencies.push(performance.now() - t);
          if (accepted(status)) ok++;
        }
      }),
    );
    const elapsed = (performance.now() - start) / 1000;
    const saturatedUse = saturatedCpu();
    // The server's own CPU per accepted order: what the code costs, whatever else shares the cores.
    const cpuPerOrder = ok > 0 && Number.isFinite(saturatedUse.server) ? (saturatedUse.server * 1e6) / ok : undefined;
    const rate = ok / elapsed;
    const p99 = percentile(latencies, 99);

    // Paced: every client on its own schedule, PACED_RATE over all of them.
    const interval = (CLIENTS * 1000) / PACED_RATE;
    const paced: number[] = [];
    let pacedOk = 0;
    const pacedCpu = cpuMeter(server.child.pid);
    const pacedStart = performance.now() + 50;
    const pacedEnd = pacedStart + SECONDS * 1000;
    await Promise.all(
      users.map(async (_, c) => {
        let i = c;
        for (let due = pacedStart + (c * interval) / CLIENTS; due < pacedEnd; due += interval) {
          const wait = due - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          const status = await post(c, body(i++));
          paced.push(performance.now() - due);
          if (accepted(status)) pacedOk++;
        }
      }),
    );
    const pacedRate = pacedOk / ((performance.now() - pacedStart) / 1000);
    const pacedP99 = percentile(paced, 99);
    const pacedUse = pacedCpu();
    for (const client of clients) client.close();
    emit({
      id: 'place',
      measure: `Order placement, ${CLIENTS} concurrent clients (${CLIENTS} users): capacity (back to back), and p99 at ${PACED_RATE.toLocaleString('en')}/s offered (paced)`,
      value: `${Math.round(rate).toLocaleString('en')} orders/s; p99 ${ms(pacedP99)} at ${PACED_RATE.toLocaleString('en')}/s`,
      baseline: `raw SQLite WAL insert tx: ${Math.round(raw).toLocaleString('en')}/s`,
      goal: '>= 2,000/s, p99 <= 25 ms',
      met: refused === 0 && rate >= 2000 && pacedRate >= PACED_RATE * 0.98 && pacedP99 <= 25,
      note:
        `back to back: ${ok} orders in ${elapsed.toFixed(1)} s, p50 ${ms(percentile(latencies, 50))}, p99 ${ms(p99)} (mean ${ms(1000 * CLIENTS / rate)} by Little's law)` +
        `${cpuPerOrder !== undefined ? `, server CPU ${Math.round(cpuPerOrder)} µs per order` : ''}, client CPU ${Math.round((saturatedUse.clients * 1e6) / Math.max(1, ok))} µs per order; ` +
        `paced: ${paced.length} orders, ${Math.round(pacedRate).toLocaleString('en')}/s achieved, p50 ${ms(percentile(paced, 50))}, p99 ${ms(pacedP99)}, max ${ms(Math.max(...paced))}, server CPU ${Math.round((pacedUse.server * 1e6) / Math.max(1, pacedOk))} µs and client CPU ${Math.round((pacedUse.clients * 1e6) / Math.max(1, pacedOk))} µs per order` +
        `${refused ? `; ${refused} refused (${[...statuses].map(([k, n]) => `${k}: ${n}`).join(', ')})` : ''}`,
    });
  } finally {
    await server.stop();
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
