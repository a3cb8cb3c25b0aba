/**
 * The connect path's CPU alone: the real server (server/main.ts) in a child process ticking
 * slowly (SIM_TICKS_PER_SECOND, default 1, so the tick fan-out to connected sockets hardly counts),
 * N light clients (light-client.ts) connecting 100 at a time with provide_token + select_pair until
 * init_candles; prints the server's CPU per connect, net of its CPU per second idle measured
 * before. Repeats ROUNDS times on fresh sockets (the first round runs with the server's JIT cold).
 * BARE=<bare-payloads.json the sockets bench wrote in its temp dir>: the bare server
 * (bare-io.ts) instead, ticking as slowly, for the same clients.
 *   N=2000 node --import tsx bench/support/connect-cpu.mts
 *   N=2000 BARE=/tmp/tt-bench-sock-XXXX/bare-payloads.json node --import tsx bench/support/connect-cpu.mts
 */
import { LightSocket } from './light-client';
import { processCpuSeconds } from './proc-cpu';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { childServer, inProcessServer, makeUsers, pool, sleep, tempDir, until } from '../lib';

async function bare(payloads: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'bare-io.ts')], {
    env: { ...process.env, TICKS: env.SIM_TICKS_PER_SECOND, BARE_PAYLOADS: payloads },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await until(() => /BARE_PORT \d+/.test(out), 30_000);
  const port = /BARE_PORT (\d+)/.exec(out)?.[1];
  return { baseUrl: `http://127.0.0.1:${port}`, child, stop: async () => void child.kill('SIGTERM') };
}

const N = Number(process.env.N ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const env = { SIM_TICKS_PER_SECOND: process.env.SIM_TICKS_PER_SECOND ?? '1', SOCKETS_PER_IP: String(N + 100) };
const dir = tempDir('connect-cpu');
const setup = await inProcessServer(dir, env);
const users = await makeUsers(setup.ctx, N * ROUNDS);
await setup.app.close();
const server = process.env.BARE ? await bare(process.env.BARE) : await childServer(dir, env);
const pid = server.child.pid;
await sleep(1000);
const i0 = processCpuSeconds(pid);
await sleep(3000);
const idlePerSecond = (processCpuSeconds(pid) - i0) / 3;
for (let r = 0; r < ROUNDS; r++) {
  const tokens = users.slice(r * N, (r + 1) * N).map((u) => u.token);
  const sockets: LightSocket[] = [];
  const c0 = processCpuSeconds(pid);
  const t0 = performance.now();
  // The monotonic clock in microseconds, as a --cpu-prof profile (BENCH_SERVER_FLAGS) counts it.
  const m0 = process.hrtime.bigint() / 1000n;
  await pool(tokens, 100, async (token) => {
    const s = new LightSocket(server.baseUrl);
    sockets.push(s);
    await new Promise<void>((resolve) => {
      s.onceEvent('connect_error', () => resolve());
      s.onceEvent('init_candles', () => resolve());
      s.onceEvent('connect', () => {
        s.emit('provide_token', { token });
        s.emit('select_pair', { pair_code: 'BTCUSD', timeframe: '5s', token });
      });
    });
  });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = processCpuSeconds(pid) - c0;
  console.log(`round ${r + 1}: ${N} connects in ${seconds.toFixed(1)} s, server CPU ${cpu.toFixed(2)} s, per connect ${(((cpu - idlePerSecond * seconds) * 1e6) / N).toFixed(0)} us (idle ${(idlePerSecond * 100).toFixed(1)} %); clock ${m0}-${process.hrtime.bigint() / 1000n}`);
  for (const s of sockets) s.close();
  await sleep(1500);
}
await server.stop();
process.exit(0);
