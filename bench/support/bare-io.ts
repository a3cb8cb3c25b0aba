/**
 * The same-run baseline of the socket benches: a bare socket.io server (websocket transport, no
 * auth, no database, no market) started as a child process; prints `BARE_PORT <n>`.
 *
 * Without BARE_PAYLOADS it answers `select_pair` with a small `init_candles` and broadcasts ONE
 * message per tick (the cluster bench's floor).
 *
 * With BARE_PAYLOADS (a JSON file of what the real server sent one client: init_valuts,
 * init_pairs, pairs_rates, init_candles, price_update, new_price) it makes the clients do the same
 * work as against the real server: the same connect events with the same payloads, pairs_rates to
 * everyone every second, and per tick price_update then new_price (time and price moving). The
 * server side is the least socket.io needs for those bytes, so the baseline is a floor and never
 * flatters the real server: the connect events and init_candles are encoded once, each tick's two packets are written to a
 * socket in one write and pairs_rates rides on the next tick (server/http/tick-broadcast.ts, the
 * write path the real server uses).
 */
import fs from 'node:fs';
import http from 'node:http';
import { Server, type Socket } from 'socket.io';
import { TickPiggyback, broadcastTick } from '../../server/http/tick-broadcast';
import { SharedPackets } from '../../server/http/shared-packets';

const ticks = Number(process.env.TICKS ?? 10);
const payloadsFile = process.env.BARE_PAYLOADS;
const server = http.createServer();
const io = new Server(server, { transports: ['websocket'], serveClient: false });

if (!payloadsFile) {
  io.on('connection', (socket) => {
    socket.on('provide_token', () => undefined);
    socket.on('select_pair', (p: { pair_code?: string; timeframe?: string }) => {
      void socket.join('pair');
      socket.emit('init_candles', { pair_code: p?.pair_code, timeframe: p?.timeframe, candles: [] });
    });
  });
  let seq = 0;
  setInterval(() => {
    io.to('pair').emit('price_update', { pair_code: 'BTCUSD', price: 95000 + (seq++ % 100), time: Date.now() });
  }, 1000 / ticks);
} else {
  type Payloads = Record<'init_valuts' | 'init_pairs' | 'pairs_rates' | 'init_candles' | 'price_update' | 'new_price', Record<string, unknown>>;
  const p = JSON.parse(fs.readFileSync(payloadsFile, 'utf8')) as Payloads;
  // init_candles encoded once (packet and WebSocket frame), each socket written the bytes.
  type Adapter = { _encode(packet: unknown, opts: Record<string, unknown>): unknown[] };
  type Writable = { client: { writeToEngine(packets: unknown[], opts: Record<string, unknown>): void } };
  const candlesOpts: Record<string, unknown> = { preEncoded: true };
  const candlesPackets = (io.of('/').adapter as unknown as Adapter)._encode({ type: 2, data: ['init_candles', p.init_candles], nsp: '/' }, candlesOpts);
  // The connect events encoded once too (the payloads never change here), as the real server
  // encodes its own once per version (server/http/shared-packets.ts).
  const shared = new SharedPackets(io);
  io.on('connection', (socket: Socket) => {
    shared.send(socket, 'init_valuts', 'fixed', () => p.init_valuts);
    shared.send(socket, 'init_pairs', 'fixed', () => p.init_pairs);
    shared.send(socket, 'pairs_rates', 'fixed', () => p.pairs_rates);
    socket.on('provide_token', () => undefined);
    socket.on('select_pair', () => {
      void socket.join('pair');
      void socket.join('pair:5s');
      (socket as unknown as Writable).client.writeToEngine(candlesPackets, candlesOpts);
    });
  });
  // pairs_rates every second on each socket's next tick write, as the real server sends it.
  const rates = new TickPiggyback(io, 120);
  setInterval(() => rates.send('pairs_rates', p.pairs_rates), 1000);
  let seq = 0;
  setInterval(() => {
    const price = Number(p.price_update.price) + (seq++ % 100) / 100;
    const time = Date.now();
    broadcastTick(io, { room: 'pair', event: 'price_update', payload: { ...p.price_update, price, time } }, [
      { room: 'pair:5s', event: 'new_price', payload: { ...p.new_price, close: price, time: Math.floor(time / 1000) } },
    ], rates);
  }, 1000 / ticks);
}

server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`BARE_PORT ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
process.on('SIGTERM', () => process.exit(0));
