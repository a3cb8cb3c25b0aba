/**
 * Expiry burst: N orders (spread over U users) all expiring within the same second, settled by
 * the live scheduler while the simulator ticks. Measures, per order, the time from its expiry to
 * the moment its `order.settled` event reaches the push listeners (what the user waits for), and
 * the longest event-loop stall of the server process meanwhile.
 * Baseline (same run): raw better-sqlite3 insert transactions per second on the same disk.
 */
import { emit, rawInsertRate, inProcessServer, makeUsers, ms, percentile, size, StallProbe, tempDir, until } from './lib';
import type { OrdersService } from '../server/domain/orders/service';

const N = Number(process.env.BENCH_ORDERS ?? size(10_000, 200));
const USERS = size(1_000, 20);
const EXPIRY_S = 60;

async function main() {
  const dir = tempDir('settle');
  const raw = rawInsertRate(dir);
  // The clock stands still at T0 (+ up to 1 s) while the orders are placed, so they all expire
  // within one second; then it runs at real speed from 2 s before that second.
  const T0 = Date.now();
  let frozen: number | null = T0;
  let offset = 0;
  const now = () => (frozen !== null ? frozen : Date.now() + offset);
  const server = await inProcessServer(dir, { SIM_TICKS_PER_SECOND: '10' }, { now });
  const { ctx } = server;
  const orders = ctx.services.orders as OrdersService;
  await orders.started;
  const users = await makeUsers(ctx, USERS);

  const expiresAt = new Map<number, number>();
  const placeStart = performance.now();
  for (let i = 0; i < N; i++) {
    frozen = T0 + Math.floor((i * 1000) / N);
    const { order } = await orders.place(users[i % USERS].id, {
      pair_code: 'BTCUSD',
      direction: i % 2 ? 'up' : 'down',
      amount: 1,
      currency: 'USD',
      trading_account: 'DemoAccount',
      expiry: EXPIRY_S,
    } as never);
    expiresAt.set(order.order_id, T0 + Math.floor((i * 1000) / N) + EXPIRY_S * 1000);
  }
  const placeMs = performance.now() - placeStart;

  const lags: number[] = [];
  ctx.events.on('order.settled', (e) => {
    const at = expiresAt.get(e.payload.order_id);
    if (at !== undefined) lags.push(now() - at);
  });
  // Resume the clock 2 s before the burst second.
  offset = T0 + EXPIRY_S * 1000 - 2000 - Date.now();
  frozen = null;
  const probe = new StallProbe();
  probe.start();
  const cpuBefore = process.cpuUsage();
  const done = await until(() => lags.length >= N, 120_000, 20);
  const cpu = process.cpuUsage(cpuBefore);
  // The process's CPU from the clock's restart until the last order.settled, per order: what the
  // settlement costs (with the ticks and pushes meanwhile), whatever else shares the machine.
  const cpuPerOrder = ((cpu.user + cpu.system) / N).toFixed(0);
  await new Promise((r) => setTimeout(r, 300));
  const stall = probe.stop();
  await server.app.close();

  const last = lags.length ? Math.max(...lags) : NaN;
  const p99 = percentile(lags, 99);
  emit({
    id: 'settle-burst',
    measure: `${N.toLocaleString('en')} orders expiring in one second: last settled after expiry (p99)`,
    value: `${ms(last)} (p99 ${ms(p99)})${done ? '' : ` — only ${lags.length} of ${N} settled in 120 s`}`,
    baseline: `raw SQLite WAL insert tx: ${Math.round(raw).toLocaleString('en')}/s`,
    goal: '<= 1 s, p99 <= 250 ms',
    met: done && last <= 1000 && p99 <= 250,
    note: `${USERS} users; placed in ${Math.round(placeMs)} ms in-process; 10 ticks/s; CPU ${cpuPerOrder} µs per settled order (from 2 s before the burst)`,
  });
  emit({
    id: 'settle-stall',
    measure: 'Longest event-loop stall during that burst',
    value: ms(stall),
    goal: '<= 50 ms',
    met: done && stall <= 50,
  });
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
