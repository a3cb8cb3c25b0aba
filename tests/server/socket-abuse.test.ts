/**
 * Socket abuse limits on a real server (server/http/socket-guard.ts, the select_pair queue in
 * server/http/market-socket.ts): one anonymous socket flooding select_pair is cut off (events over
 * its token bucket are dropped, it is told with error_message and disconnected) after a bounded
 * amount of work, while other clients keep being answered; every event counts, not only
 * select_pair; a newer select_pair replaces the waiting ones; sockets per IP are capped.
 * The time other clients wait during a flood is a benchmark figure (bench/sockets.bench.ts),
 * not asserted here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { nextEvent, startTestServer, type TestServer } from '../support/server';
import { ErrorText } from '../../contract/envelope';
import type { InitCandles, SocketError } from '../../contract/socket';
import type { Market } from '../../server/domain/market/service';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Count the candle-history reads the market does (the work a select_pair costs). */
function countCandleReads(s: TestServer): { count: number } {
  const market = s.ctx.services.market;
  const counter = { count: 0 };
  const original = market.candles.bind(market);
  market.candles = (...args: Parameters<Market['candles']>) => {
    counter.count++;
    return original(...args);
  };
  return counter;
}

function record(socket: Socket) {
  const errors: SocketError[] = [];
  const answers: InitCandles[] = [];
  let disconnected = false;
  socket.on('error_message', (e: SocketError) => errors.push(e));
  socket.on('init_candles', (c: InitCandles) => answers.push(c));
  socket.on('disconnect', () => (disconnected = true));
  return { errors, answers, isDisconnected: () => disconnected };
}

describe('socket abuse limits', () => {
  it('cuts off a socket flooding select_pair after bounded work; other clients keep being answered', async () => {
    server = await startTestServer({ SOCKET_EVENTS_PER_SECOND: '10', SOCKET_EVENT_BURST: '20' });
    const reads = countCandleReads(server);
    const other = await server.socket();
    const flooder = await server.socket();
    const seen = record(flooder);

    for (let i = 0; i < 1000; i++) flooder.emit('select_pair', { pair_code: i % 2 ? 'EURUSD' : 'GBPUSD', timeframe: '1m' });

    // Meanwhile another client is answered: over the socket and over HTTP.
    other.emit('select_pair', { pair_code: 'EURUSD', timeframe: '5s' });
    const answer = await nextEvent<InitCandles>(other, 'init_candles', 10_000);
    expect(answer.pair_code).toBe('EURUSD');
    const health = await server.api('GET', '/api/health');
    expect(health.status).toBe(200);

    for (let i = 0; i < 200 && !seen.isDisconnected(); i++) await sleep(25);
    expect(seen.isDisconnected()).toBe(true);
    expect(seen.errors.length).toBeGreaterThan(0);
    expect(seen.errors.every((e) => e.event === 'select_pair' && e.message === ErrorText.tooManyRequests)).toBe(true);
    // Bounded work: at most the burst got through to the handler (plus the other client's one),
    // and of those at most one ran at a time with only the newest waiting.
    expect(reads.count).toBeLessThanOrEqual(20 + 1);
    expect(seen.answers.length).toBeLessThanOrEqual(20);

    // The other client is still connected and served.
    other.emit('ping');
    expect(await nextEvent(other, 'pong', 5000)).toBeTruthy();
  });

  it('limits every event, not only select_pair', async () => {
    server = await startTestServer({ SOCKET_EVENTS_PER_SECOND: '5', SOCKET_EVENT_BURST: '10' });
    const s = await server.socket();
    const seen = record(s);
    let pongs = 0;
    s.on('pong', () => void pongs++);
    for (let i = 0; i < 300; i++) s.emit('ping');
    for (let i = 0; i < 200 && !seen.isDisconnected(); i++) await sleep(25);
    expect(seen.isDisconnected()).toBe(true);
    expect(seen.errors.some((e) => e.event === 'ping' && e.message === ErrorText.tooManyRequests)).toBe(true);
    expect(pongs).toBeLessThanOrEqual(11);
  });

  it('answers only the newest of select_pairs sent while one runs', async () => {
    server = await startTestServer();
    const s = await server.socket();
    const seen = record(s);
    s.emit('select_pair', { pair_code: 'EURUSD', timeframe: '1m' });
    s.emit('select_pair', { pair_code: 'GBPUSD', timeframe: '1m' });
    s.emit('select_pair', { pair_code: 'USDJPY', timeframe: '5m' });
    const last = await nextEvent<InitCandles>(s, 'init_candles', 10_000, (c) => c.pair_code === 'USDJPY');
    expect(last.timeframe).toBe('5m');
    await sleep(300);
    // The middle one was replaced while the first ran: it never answers.
    expect(seen.answers.map((a) => a.pair_code)).not.toContain('GBPUSD');
    expect(seen.answers.at(-1)?.pair_code).toBe('USDJPY');
  });

  it('caps open sockets per IP and frees the slot when one closes', async () => {
    server = await startTestServer({ SOCKETS_PER_IP: '3' });
    const open = [await server.socket(), await server.socket(), await server.socket()];
    const refused = connectSocket(server.baseUrl, { transports: ['websocket'], reconnection: false, forceNew: true });
    const error = await new Promise<Error>((resolve, reject) => {
      refused.once('connect_error', resolve);
      refused.once('connect', () => reject(new Error('a fourth socket from the same IP was accepted')));
    });
    refused.close();
    expect(error.message).toBe(ErrorText.tooManyRequests);
    open[0].disconnect();
    await sleep(200);
    const again = await server.socket();
    expect(again.connected).toBe(true);
  });
});
