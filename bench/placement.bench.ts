/**
 * Order placement under load: C clients (one user each) placing demo orders back to back over
 * HTTP keep-alive against the real server in a child process, for D seconds. Figures: accepted
 * orders per second and the p99 request latency.
 * Baseline (same run): raw better-sqlite3 insert transactions per second on the same disk.
 */
import { Agent, request } from 'node:http';
import { childServer, emit, inProcessServer, makeUsers, ms, percentile, processCpuMs, rawInsertRate, size, tempDir } from './lib';

const CLIENTS = size(50, 5);
const SECONDS = size(8, 1);

function post(agent: Agent, base: URL, token: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path: '/api/v2/orders',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${token}` },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

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
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const latencies: number[] = [];
    let ok = 0;
    let refused = 0;
    const statuses = new Map<number, number>();
    const body = (i: number) =>
      JSON.stringify({ pair_code: 'BTCUSD', direction: i % 2 ? 'up' : 'down', amount: 1, currency: 'USD', trading_account: 'DemoAccount', expiry: 300 });
    // Warm-up: one order per client (connections, caches, JIT).
    await Promise.all(users.map((u, i) => post(agent, base, u.token, body(i))));
    const cpuBefore = processCpuMs(server.child.pid!);
    const start = performance.now();
    const end = start + SECONDS * 1000;
    await Promise.all(
      users.map(async (u, c) => {
        let i = c;
        while (performance.now() < end) {
          const t = performance.now();
          const status = await post(agent, base, u.token, body(i++));
          latencies.push(performance.now() - t);
          if (status === 201) ok++;
          else {
            refused++;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }
      }),
    );
    const elapsed = (performance.now() - start) / 1000;
    const cpuAfter = processCpuMs(server.child.pid!);
    // The server's own CPU per accepted order: what the code costs, whatever else shares the cores.
    const cpuPerOrder = cpuBefore !== undefined && cpuAfter !== undefined && ok > 0 ? ((cpuAfter - cpuBefore) * 1000) / ok : undefined;
    agent.destroy();
    const rate = ok / elapsed;
    const p99 = percentile(latencies, 99);
    emit({
      id: 'place',
      measure: `Order placement, ${CLIENTS} concurrent clients (${CLIENTS} users)`,
      value: `${Math.round(rate).toLocaleString('en')} orders/s, p99 ${ms(p99)}`,
      baseline: `raw SQLite WAL insert tx: ${Math.round(raw).toLocaleString('en')}/s`,
      goal: '>= 2,000/s, p99 <= 25 ms',
      met: refused === 0 && rate >= 2000 && p99 <= 25,
      note: `${ok} orders in ${elapsed.toFixed(1)} s${refused ? `, ${refused} refused (${[...statuses].map(([k, n]) => `${k}: ${n}`).join(', ')})` : ''}; p50 ${ms(percentile(latencies, 50))}${cpuPerOrder !== undefined ? `; server CPU ${Math.round(cpuPerOrder)} µs per order` : ''}`,
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
