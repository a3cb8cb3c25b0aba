/**
 * The tick fan-out's CPU alone: the bare server (bench/support/bare-io.ts, which writes ticks with
 * server/http/tick-broadcast.ts) with N clients on its pair at 10 ticks/s; prints the server's CPU
 * seconds per 5 s and the price_update messages the clients got meanwhile (CPU per socket-tick =
 * the one over the other). PAYLOADS: a bare-payloads.json the sockets bench wrote in its temp dir.
 *   N=2000 PAYLOADS=/tmp/tt-bench-sock-XXXX/bare-payloads.json node --import tsx bench/support/fanout-cpu.mts
 */
import path from 'node:path';
import { spawn } from 'node:child_process';
import { io as connect, type Socket } from 'socket.io-client';
import { processCpuSeconds } from './proc-cpu';
const N = Number(process.env.N ?? 2000);
const payloads = process.env.PAYLOADS!;
const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'bare-io.ts')], { env: { ...process.env, TICKS: '10', BARE_PAYLOADS: payloads }, stdio: ['ignore', 'pipe', 'inherit'] });
let out = '';
child.stdout!.on('data', (d) => (out += d));
while (!/BARE_PORT \d+/.test(out)) await new Promise((r) => setTimeout(r, 50));
const url = `http://127.0.0.1:${/BARE_PORT (\d+)/.exec(out)![1]}`;
const sockets: Socket[] = [];
for (let i = 0; i < N; i += 100) {
  await Promise.all(Array.from({ length: Math.min(100, N - i) }, () => new Promise<void>((res) => {
    const s = connect(url, { transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(s);
    s.once('init_candles', () => res());
    s.once('connect', () => s.emit('select_pair', {}));
  })));
}
let got = 0;
for (const s of sockets) s.on('price_update', () => got++);
await new Promise((r) => setTimeout(r, 2000));
for (let k = 0; k < 3; k++) {
  const c0 = processCpuSeconds(child.pid); const g0 = got;
  await new Promise((r) => setTimeout(r, 5000));
  console.log(`${process.env.LABEL ?? 'fan-out'} N=${N}: server CPU ${(processCpuSeconds(child.pid) - c0).toFixed(2)} s per 5 s, ${(got - g0)} price_update`);
}
child.kill(); process.exit(0);
