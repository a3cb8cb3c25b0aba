/**
 * The live socket at scale, against the real server in a child process and, as the same-run
 * baseline, a bare socket.io server (bench/support/bare-io.ts) in another:
 *   - connect: N logged-in sockets (provide_token + select_pair until init_candles);
 *   - ticks: tick latency (receive time - tick time) at 10 ticks/s with N clients on one pair,
 *     messages per tick per client, ticks out of order;
 *   - flood: one anonymous socket sends F select_pair events while another client pings
 *     /api/health; the longest health answer, and what happened to the flooder.
 * Clients run in this process (one event loop for all of them: the same for both servers) and
 * do the same work against both: the bare server sends the payloads the real server sent a probe
 * client (init_valuts, init_pairs, pairs_rates, the full init_candles, pairs_rates every second,
 * price_update + new_price per tick; bench/support/bare-io.ts). Each phase also reports the CPU
 * seconds the server and this process used (they share the machine's cores).
 */
import path from 'node:path';
import { spawn } from 'node:child_process';
import { io as connect, type Socket } from 'socket.io-client';
import fs from 'node:fs';
import { cpuMeter, cpuText } from './support/proc-cpu';
import { childServer, emit, inProcessServer, makeUsers, ms, percentile, pool, size, sleep, tempDir, until } from './lib';

const N = Number(process.env.BENCH_SOCKETS ?? size(5_000, 20));
const TICK_SECONDS = size(6, 1);
const FLOOD = size(1_000, 100);
const PAIR = 'BTCUSD';
const CONNECT_DEADLINE_MS = 240_000;

interface Clients {
  sockets: Socket[];
  connectMs: number;
  failed: number;
}

async function connectAll(url: string, tokens: string[]): Promise<Clients> {
  const sockets: Socket[] = [];
  let failed = 0;
  const start = performance.now();
  // The whole connect phase has a deadline: sockets not started by then count as failed.
  const deadline = start + CONNECT_DEADLINE_MS;
  await pool(tokens, 100, async (token) => {
    if (performance.now() > deadline) {
      failed++;
      return;
    }
    const s = connect(url, { transports: ['websocket'], reconnection: false, forceNew: true, timeout: 60_000 });
    sockets.push(s);
    const ok = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 60_000);
      s.once('connect_error', () => (clearTimeout(timer), resolve(false)));
      s.once('init_candles', () => (clearTimeout(timer), resolve(true)));
      s.once('connect', () => {
        s.emit('provide_token', { token });
        s.emit('select_pair', { pair_code: PAIR, timeframe: '5s', token });
      });
    });
    if (!ok) failed++;
  });
  return { sockets, connectMs: performance.now() - start, failed };
}

/** Tick latency over `seconds` on every socket; counts every message a socket gets. */
async function tickLatency(sockets: Socket[], seconds: number, ticksPerSecond: number) {
  const lat: number[] = [];
  let messages = 0;
  let ticks = 0;
  let outOfOrder = 0;
  const lastTime = new Map<Socket, number>();
  const onAny = () => void messages++;
  const handlers = sockets.map((s) => {
    const h = (p: { time?: number }) => {
      const t = p?.time ?? 0;
      lat.push(Date.now() - t);
      ticks++;
      const prev = lastTime.get(s) ?? 0;
      if (t < prev) outOfOrder++;
      lastTime.set(s, t);
    };
    s.on('price_update', h);
    s.onAny(onAny);
    return h;
  });
  await sleep(seconds * 1000);
  sockets.forEach((s, i) => {
    s.off('price_update', handlers[i]);
    s.offAny(onAny);
  });
  const perTick = ticks ? messages / ticks : NaN;
  return { p99: percentile(lat, 99), p50: percentile(lat, 50), perTick, outOfOrder, received: ticks, expected: sockets.length * seconds * ticksPerSecond };
}

/** What the real server sends one logged-in client on connect and per tick, for the bare server to send the same. */
async function capturePayloads(url: string, token: string, file: string): Promise<void> {
  const wanted = ['init_valuts', 'init_pairs', 'pairs_rates', 'init_candles', 'price_update', 'new_price'];
  const got: Record<string, unknown> = {};
  const s = connect(url, { transports: ['websocket'], reconnection: false, forceNew: true });
  s.onAny((event: string, payload: unknown) => {
    if (wanted.includes(event) && !(event in got)) got[event] = payload;
  });
  s.once('connect', () => {
    s.emit('provide_token', { token });
    s.emit('select_pair', { pair_code: PAIR, timeframe: '5s', token });
  });
  const ok = await until(() => wanted.every((e) => e in got), 30_000);
  s.close();
  if (!ok) throw new Error(`probe client missed ${wanted.filter((e) => !(e in got)).join(', ')}`);
  fs.writeFileSync(file, JSON.stringify(got));
}

async function bareServer(payloads: string): Promise<{ url: string; pid: number | undefined; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'support/bare-io.ts')], {
    env: { ...process.env, TICKS: '10', BARE_PAYLOADS: payloads },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  await until(() => /BARE_PORT \d+/.test(out), 30_000);
  const port = /BARE_PORT (\d+)/.exec(out)?.[1];
  if (!port) throw new Error('bare socket.io server did not start');
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => void child.kill('SIGTERM') };
}

function closeAll(sockets: Socket[]): void {
  for (const s of sockets) s.close();
}

/** Connect every client, measure ticks, close them; the server's and the clients' CPU per step. */
async function phase(url: string, pid: number | undefined, tokens: string[]) {
  let meter = cpuMeter(pid);
  const { connectMs, failed, sockets } = await connectAll(url, tokens);
  const connectCpu = meter();
  meter = cpuMeter(pid);
  const ticks = await tickLatency(sockets, TICK_SECONDS, 10);
  const ticksCpu = meter();
  closeAll(sockets);
  sockets.length = 0;
  await sleep(500);
  return { clients: { connectMs, failed }, connectCpu, ticks, ticksCpu };
}

async function main() {
  const dir = tempDir('sock');
  const setup = await inProcessServer(dir, { SIM_TICKS_PER_SECOND: '10' });
  const users = await makeUsers(setup.ctx, N);
  const tokens = users.map((u) => u.token);
  const payloads = path.join(dir, 'bare-payloads.json');
  await capturePayloads(setup.baseUrl, tokens[0], payloads);
  await setup.app.close();

  // Both servers meet the clients in the same state: BENCH_SOCKETS_ORDER=server-first swaps the
  // order (the second phase runs with the first one's garbage in the clients' heap).
  const serverFirst = process.env.BENCH_SOCKETS_ORDER === 'server-first';
  const runBare = async () => {
    const bare = await bareServer(payloads);
    const out = await phase(bare.url, bare.pid, tokens);
    bare.stop();
    await sleep(500);
    return out;
  };
  const bareFirst = serverFirst ? null : await runBare();

  const server = await childServer(dir, { SIM_TICKS_PER_SECOND: '10', SOCKETS_PER_IP: String(N + 100) });
  try {
    const ours = await phase(server.baseUrl, server.child.pid, tokens);
    const { clients, connectCpu, ticks, ticksCpu } = ours;
    const bareRun = bareFirst ?? (await runBare());
    const { clients: bareClients, connectCpu: bareConnectCpu, ticks: bareTicks, ticksCpu: bareTicksCpu } = bareRun;

    emit({
      id: 'sock-connect',
      measure: `Connecting ${N.toLocaleString('en')} logged-in sockets (provide_token + select_pair)`,
      value: `${(clients.connectMs / 1000).toFixed(1)} s${clients.failed ? ` (${clients.failed} failed)` : ''}`,
      baseline: `bare socket.io, same messages: ${(bareClients.connectMs / 1000).toFixed(1)} s${bareClients.failed ? ` (${bareClients.failed} failed)` : ''}`,
      goal: `${N.toLocaleString('en')} in <= 20 s`,
      met: clients.failed === 0 && clients.connectMs <= 20_000,
      note: `ratio to bare ${(clients.connectMs / bareClients.connectMs).toFixed(2)}x; ${cpuText(connectCpu, clients.connectMs / 1000)}; bare: ${cpuText(bareConnectCpu, bareClients.connectMs / 1000)}`,
    });
    const ratio = ticks.p99 / bareTicks.p99;
    emit({
      id: 'sock-ticks',
      measure: `Tick latency at 10 ticks/s, ${N.toLocaleString('en')} clients on one pair`,
      value: `p99 ${ms(ticks.p99)} (p50 ${ms(ticks.p50)}), ${ticks.perTick.toFixed(2)} messages per tick per client, ${ticks.outOfOrder} out of order`,
      baseline: `bare socket.io, the same two messages per tick: p99 ${ms(bareTicks.p99)} (p50 ${ms(bareTicks.p50)})`,
      goal: 'p99 <= 100 ms (or within 1.2x of the bare broadcast), none out of order',
      met: ticks.outOfOrder === 0 && (ticks.p99 <= 100 || ratio <= 1.2),
      note: `ratio to bare ${ratio.toFixed(2)}x; received ${ticks.received} of ~${ticks.expected} price_update (bare ${bareTicks.received}, ${bareTicks.outOfOrder} out of order); ${cpuText(ticksCpu, TICK_SECONDS)}; bare: ${cpuText(bareTicksCpu, TICK_SECONDS)}`,
    });

    // Flood: one anonymous socket, F select_pair events as fast as it can write them.
    const flooder = connect(server.baseUrl, { transports: ['websocket'], reconnection: false, forceNew: true });
    await new Promise<void>((resolve, reject) => {
      flooder.once('connect', () => resolve());
      flooder.once('connect_error', reject);
    });
    let errors = 0;
    let answers = 0;
    let disconnected = false;
    flooder.on('error_message', () => void errors++);
    flooder.on('init_candles', () => void answers++);
    flooder.on('disconnect', () => (disconnected = true));
    const health: number[] = [];
    let pinging = true;
    const pinger = (async () => {
      while (pinging) {
        const t = performance.now();
        await fetch(`${server.baseUrl}/api/health`).then((r) => r.arrayBuffer());
        health.push(performance.now() - t);
        await sleep(10);
      }
    })();
    await sleep(200);
    for (let i = 0; i < FLOOD; i++) flooder.emit('select_pair', { pair_code: i % 2 ? PAIR : 'EURUSD', timeframe: '1m' });
    await sleep(3000);
    pinging = false;
    await pinger;
    flooder.close();
    const worst = Math.max(...health);
    emit({
      id: 'sock-flood',
      measure: `One socket sending ${FLOOD.toLocaleString('en')} select_pair events: longest /api/health answer for another client`,
      value: ms(worst),
      goal: 'no stall > 50 ms for others',
      met: worst <= 50,
      note: `flooder got ${answers} init_candles, ${errors} error_message${disconnected ? ', was disconnected' : ''}; health p50 ${ms(percentile(health, 50))}`,
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
