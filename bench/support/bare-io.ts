/**
 * The same-run baseline of the socket benches: a bare socket.io server (websocket transport,
 * nothing else) that answers `select_pair` with a small `init_candles` and broadcasts ONE message
 * per tick to everyone at TICKS per second. Started as a child process; prints `BARE_PORT <n>`.
 */
import http from 'node:http';
import { Server } from 'socket.io';

const ticks = Number(process.env.TICKS ?? 10);
const server = http.createServer();
const io = new Server(server, { transports: ['websocket'], serveClient: false });
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
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`BARE_PORT ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
process.on('SIGTERM', () => process.exit(0));
