/**
 * The live socket at scale, against the real server in a child process and, as the same-run
 * baseline, a bare socket.io server (bench/support/bare-io.ts) in another:
 *   - connect: N logged-in sockets (provide_token + select_pair until init_candles);
 *   - ticks: tick latency (receive time - tick time) at 10 ticks/s with N clients on one pair,
 *     messages per tick per client, ticks out of order;
 *   - flood: one anonymous socket sends F select_pair events while another client pings
 *     /api/health; the longest health answer, and what happened to the flooder.
 * Clients run in this process, spread over worker threads (bench/support/socket-clients.ts; the
 * same for both servers), as light clients that decode only what is measured
 * (bench/support/light-client.ts), and do the same work against both: the bare server sends the payloads the real server sent a probe
 * client (init_valuts, init_pairs, pairs_rates, the full init_candles, pairs_rates every second,
 * price_update + new_price per tick; bench/support/bare-io.ts). Each phase also reports the CPU
 * seconds the server and this process used (they share the machine's cores), and the server's CPU
 * per socket: per connect (also net of the ticks it wrote to the sockets already there) and per
 * socket-tick.
 */
import path from 'node:path';
import { spawn } from 'node:child_process';
import { io as connect } from 'socket.io-client';
import fs from 'node:fs';
import { cpuMeter, cpuText } from './support/proc-cpu';
import { ClientFleet, type ClientKind } from './support/socket-clients';
import { childServer, emit, inProcessServer, makeUsers, ms, percentile, size, sleep, tempDir, until } from './lib';

const N = Number(process.env.BENCH_SOCKETS ?? size(5_000, 20));
const TICK_SECONDS = size(6, 1);
const FLOOD = size(1_000, 100);
const PAIR = 'BTCUSD';
const CONNECT_DEADLINE_MS = 240_000;

/**
 * The clients: LightSocket (bench/support/light-client.ts: the same protocol, decoding only what
 * is measured) unless BENCH_SOCKETS_CLIENT=socket.io (the SPA's client, which decodes every
 * message), spread over BENCH_CLIENT_WORKERS worker threads (default 2; bench/support/socket-clients.ts).
 */
const CLIENT: ClientKind = process.env.BENCH_SOCKETS_CLIENT === 'socket.io' ? 'socket.io-client' : 'light';
const WORKERS = Number(process.env.BENCH_CLIENT_WORKERS ?? 2);
/** Sockets connecting at once (all workers together). */
const CONCURRENCY = 100;

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
  // BENCH_SERVER_FLAGS (e.g. `--cpu-prof`) go to the bare server too, so both can be profiled alike.
  const flags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', path.join(import.meta.dirname, 'support/bare-io.ts')], {
    env: { ...process.env, TICKS: '10', BARE_PAYLOADS: payloads },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  await until(() => /BARE_PORT \d+/.test(out), 30_000);
  const port = /BARE_PORT (\d+)/.exec(out)?.[1];
  if (!port) {
    child.kill('SIGKILL');
    throw new Error('bare socket.io server did not start');
  }
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => void child.kill('SIGTERM') };
}

/**
 * With BENCH_SERVER_FLAGS set (profiling), each phase's start on stderr as the monotonic clock in
 * microseconds: the clock of a `--cpu-prof` profile's timestamps, to cut it per phase.
 */
function mark(server: string, step: string): void {
  if (process.env.BENCH_SERVER_FLAGS) process.stderr.write(`BENCH_MARK ${server} ${step} ${process.hrtime.bigint() / 1000n}\n`);
}

/** Connect every client, measure ticks, close them; the server's and the clients' CPU per step. */
async function phase(name: string, url: string, pid: number | undefined, tokens: string[]) {
  const fleet = new ClientFleet(url, tokens, CLIENT, WORKERS, CONCURRENCY, PAIR);
  let meter = cpuMeter(pid);
  mark(name, 'connect');
  const { connectMs, failed, ticksWhileConnecting } = await fleet.connect(CONNECT_DEADLINE_MS);
  const connectCpu = meter();
  meter = cpuMeter(pid);
  mark(name, 'ticks');
  const t = await fleet.ticks(TICK_SECONDS);
  const ticksCpu = meter();
  mark(name, 'end');
  await fleet.close();
  await sleep(500);
  const ticks = {
    p99: percentile(t.latencies, 99),
    p50: percentile(t.latencies, 50),
    perTick: t.ticks ? t.messages / t.ticks : NaN,
    outOfOrder: t.outOfOrder,
    received: t.ticks,
    expected: tokens.length * TICK_SECONDS * 10,
  };
  // The server's CPU per connect net of the ticks it wrote meanwhile (every connected socket gets
  // 10 a second, so a slower connect phase costs more CPU for that alone): the tick phase's CPU
  // per received price_update (fan-out and the server's own ticking) times those received while connecting.
  const perTickCpu = ticks.received ? ticksCpu.server / ticks.received : NaN;
  const connectNet = (connectCpu.server - perTickCpu * ticksWhileConnecting) / tokens.length;
  return { clients: { connectMs, failed }, connectCpu, connectNet, ticks, ticksCpu };
}

const perSocket = (cpuSeconds: number, n: number) => `${((cpuSeconds * 1000) / n).toFixed(2)} ms`;
const perTick = (cpuSeconds: number, n: number) => `${((cpuSeconds * 1e6) / n).toFixed(1)} us`;

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
    // Stopped however the phase ends: a bare server left running holds this process's output open.
    try {
      return await phase('bare', bare.url, bare.pid, tokens);
    } finally {
      bare.stop();
      await sleep(500);
    }
  };
  const bareFirst = serverFirst ? null : await runBare();

  const server = await childServer(dir, { SIM_TICKS_PER_SECOND: '10', SOCKETS_PER_IP: String(N + 100) });
  try {
    const ours = await phase('ours', server.baseUrl, server.child.pid, tokens);
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
      note: `ratio to bare ${(clients.connectMs / bareClients.connectMs).toFixed(2)}x; server CPU per socket ${perSocket(connectCpu.server, N)} (bare ${perSocket(bareConnectCpu.server, N)}), net of the ticks written meanwhile ${perSocket(ours.connectNet, 1)} (bare ${perSocket(bareRun.connectNet, 1)}: ${(ours.connectNet / bareRun.connectNet).toFixed(2)}x); ${cpuText(connectCpu, clients.connectMs / 1000)}; bare: ${cpuText(bareConnectCpu, bareClients.connectMs / 1000)}; clients: ${CLIENT} in ${WORKERS} worker thread(s)`,
    });
    const ratio = ticks.p99 / bareTicks.p99;
    emit({
      id: 'sock-ticks',
      measure: `Tick latency at 10 ticks/s, ${N.toLocaleString('en')} clients on one pair`,
      value: `p99 ${ms(ticks.p99)} (p50 ${ms(ticks.p50)}), ${ticks.perTick.toFixed(2)} messages per tick per client, ${ticks.outOfOrder} out of order`,
      baseline: `bare socket.io, the same two messages per tick: p99 ${ms(bareTicks.p99)} (p50 ${ms(bareTicks.p50)})`,
      goal: 'p99 <= 100 ms (or within 1.2x of the bare broadcast), none out of order',
      met: ticks.outOfOrder === 0 && (ticks.p99 <= 100 || ratio <= 1.2),
      note: `ratio to bare ${ratio.toFixed(2)}x; server CPU per socket-tick ${perTick(ticksCpu.server, ticks.received)} (bare ${perTick(bareTicksCpu.server, bareTicks.received)}: ${(ticksCpu.server / ticks.received / (bareTicksCpu.server / bareTicks.received)).toFixed(2)}x); received ${ticks.received} of ~${ticks.expected} price_update (bare ${bareTicks.received}, ${bareTicks.outOfOrder} out of order); ${cpuText(ticksCpu, TICK_SECONDS)}; bare: ${cpuText(bareTicksCpu, TICK_SECONDS)}`,
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
