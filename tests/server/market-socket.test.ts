/**
 * The market's live socket events on a real server: init_pairs and pairs_rates on connect,
 * select_pair answered with init_candles and followed by price_update/new_price of that pair
 * only, switching pairs, several sockets on one pair, and invalid select_pair payloads.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CURRENCIES } from '../../contract/currencies';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { nextEvent, startTestServer, type TestServer } from '../support/server';
import type { InitCandles, InitPairs, NewPrice, PairsRates, PriceUpdate, SocketError } from '../../contract/socket';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Recorder {
  socket: Socket;
  events: { name: string; payload: any }[];
  of<T = any>(name: string): T[];
  clear(): void;
}

/** Poll until `get` returns something (the first events can arrive with the connect packet). */
async function waitFor<T>(get: () => T | undefined, timeoutMs = 2000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out');
    await sleep(10);
  }
}

let server: TestServer;
const opened: Socket[] = [];

/** A socket whose every event is recorded from the very first packet (listeners attach before connecting). */
async function record(): Promise<Recorder> {
  const socket = connectSocket(server.baseUrl, { transports: ['websocket'], reconnection: false, forceNew: true, autoConnect: false });
  opened.push(socket);
  const events: { name: string; payload: any }[] = [];
  socket.onAny((name: string, payload: unknown) => events.push({ name, payload }));
  const connected = new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  socket.connect();
  await connected;
  return {
    socket,
    events,
    of: (name) => events.filter((e) => e.name === name).map((e) => e.payload),
    clear: () => {
      events.length = 0;
    },
  };
}

beforeAll(async () => {
  server = await startTestServer({ SIM_TICKS_PER_SECOND: '10' });
  await server.ctx.services.market.whenStarted();
});
afterAll(async () => {
  for (const s of opened) s.disconnect();
  await server.close();
});

describe('market socket', () => {
  it('encodes init_pairs once while the pairs stay the same, and anew when one changes', async () => {
    const market = server.ctx.services.market;
    const first = await record();
    const pairs = await waitFor(() => first.of<InitPairs>('init_pairs')[0]);
    const listed = vi.spyOn(market, 'listPairs');
    try {
      const more = await Promise.all([record(), record(), record()]);
      for (const r of more) {
        expect(await waitFor(() => r.of<InitPairs>('init_pairs')[0])).toEqual(pairs);
        expect(await waitFor(() => r.of('init_valuts')[0])).toEqual({ valuts_data: [...CURRENCIES] });
      }
      expect(listed).not.toHaveBeenCalled();

      const code = pairs.pairs[1].pair_code;
      market.setActive(code, false);
      const after = await record();
      const changed = await waitFor(() => after.of<InitPairs>('init_pairs')[0]);
      expect(changed.pairs.find((p) => p.pair_code === code)?.is_active).toBe(false);
      expect(changed).toEqual({ pairs: market.listPairs() });
    } finally {
      listed.mockRestore();
      market.setActive(pairs.pairs[1].pair_code, true);
    }
  });

  it('sends init_pairs and pairs_rates on connect, then pairs_rates every second', async () => {
    const r = await record();
    const pairs = await waitFor(() => r.of<InitPairs>('init_pairs')[0]);
    expect(pairs.pairs.length).toBe(server.ctx.services.market.listPairs().length);
    expect(pairs.pairs.find((p) => p.pair_code === 'USDTRY')?.is_active).toBe(false);
    expect(pairs.pairs.find((p) => p.pair_code === 'EURUSD')?.is_active).toBe(true);
    await sleep(50);
    const names = r.events.map((e) => e.name);
    expect(names.indexOf('init_pairs')).toBeLessThan(names.indexOf('pairs_rates'));
    const first = r.of<PairsRates>('pairs_rates')[0];
    const eur = first.rates.find((x) => x.pair_code === 'EURUSD');
    expect(eur?.current_price).toBeGreaterThan(0);
    expect(first.rates.some((x) => x.pair_code === 'USDTRY')).toBe(false);
    await sleep(2100);
    expect(r.of('pairs_rates').length).toBeGreaterThanOrEqual(3);
    // Without a selected pair, no ticks or candles at all.
    expect(r.of('price_update')).toEqual([]);
    expect(r.of('new_price')).toEqual([]);
  });

  it('answers select_pair with init_candles, then streams only that pair', async () => {
    const r = await record();
    r.socket.emit('select_pair', { pair_code: 'EURUSD', timeframe: '5s', token: 'ignored' });
    const init = await nextEvent<InitCandles>(r.socket, 'init_candles');
    expect(init.pair_code).toBe('EURUSD');
    expect(init.timeframe).toBe('5s');
    expect(init.candles.length).toBeGreaterThan(0);
    expect(init.candles.length).toBeLessThanOrEqual(1000);
    for (let i = 1; i < init.candles.length; i++) expect(init.candles[i].timestamp).toBeGreaterThan(init.candles[i - 1].timestamp);
    for (const c of init.candles) expect(c).toMatchObject({ pair_code: 'EURUSD', timeframe: '5s' });
    await sleep(1200);
    const prices = r.of<PriceUpdate>('price_update');
    const candles = r.of<NewPrice>('new_price');
    expect(prices.length).toBeGreaterThanOrEqual(8);
    expect(candles.length).toBe(prices.length);
    expect(new Set(prices.map((p) => p.pair_code))).toEqual(new Set(['EURUSD']));
    expect(new Set(candles.map((c) => `${c.pair_code}:${c.timeframe}`))).toEqual(new Set(['EURUSD:5s']));
    // The stream continues the history: candles at or after its last bucket, close = the tick's price.
    const lastTs = init.candles.at(-1)!.timestamp;
    for (const c of candles) {
      expect(c.time).toBeGreaterThanOrEqual(lastTs);
      expect(c.time % 5).toBe(0);
      expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
      expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
    }
    prices.forEach((p, i) => {
      expect(candles[i].close).toBe(p.price);
      expect(candles[i].time).toBe(Math.floor(p.time! / 5000) * 5);
    });
    for (let i = 1; i < prices.length; i++) expect(prices[i].time!).toBeGreaterThanOrEqual(prices[i - 1].time!);
  });

  it('after switching pairs, sends nothing more of the old pair', async () => {
    const r = await record();
    r.socket.emit('select_pair', { pair_code: 'EURUSD', timeframe: '1m' });
    await nextEvent(r.socket, 'init_candles');
    await nextEvent(r.socket, 'price_update');
    r.socket.emit('select_pair', { pair_code: 'BTCUSD', timeframe: '15s' });
    const init = await nextEvent<InitCandles>(r.socket, 'init_candles', 5000, (p) => p.pair_code === 'BTCUSD');
    expect(init.timeframe).toBe('15s');
    const at = r.events.findIndex((e) => e.name === 'init_candles' && e.payload.pair_code === 'BTCUSD');
    await sleep(1000);
    const after = r.events.slice(at + 1).filter((e) => e.name === 'price_update' || e.name === 'new_price');
    expect(after.length).toBeGreaterThanOrEqual(12);
    for (const e of after) expect(e.payload.pair_code).toBe('BTCUSD');
    for (const e of after.filter((x) => x.name === 'new_price')) expect(e.payload.timeframe).toBe('15s');
  });

  it('gives every socket on a pair each price_update once and only its own timeframe', async () => {
    const a = await record();
    const b = await record();
    a.socket.emit('select_pair', { pair_code: 'ETHUSD', timeframe: '1m' });
    b.socket.emit('select_pair', { pair_code: 'ETHUSD', timeframe: '5s' });
    await Promise.all([nextEvent(a.socket, 'init_candles'), nextEvent(b.socket, 'init_candles')]);
    a.clear();
    b.clear();
    await sleep(1000);
    const pa = a.of<PriceUpdate>('price_update');
    const pb = b.of<PriceUpdate>('price_update');
    expect(pa.length).toBeGreaterThanOrEqual(8);
    // Each tick once per socket: times strictly rising at 10 ticks a second.
    for (const list of [pa, pb]) for (let i = 1; i < list.length; i++) expect(list[i].time!).toBeGreaterThan(list[i - 1].time!);
    const common = pa.filter((p) => pb.some((q) => q.time === p.time));
    expect(common.length).toBeGreaterThanOrEqual(pa.length - 2);
    expect(new Set(a.of<NewPrice>('new_price').map((c) => c.timeframe))).toEqual(new Set(['1m']));
    expect(new Set(b.of<NewPrice>('new_price').map((c) => c.timeframe))).toEqual(new Set(['5s']));
  });

  it('answers invalid select_pair payloads with error_message and keeps working', async () => {
    const r = await record();
    const bad: unknown[] = [
      undefined,
      null,
      'EURUSD',
      42,
      [],
      {},
      { pair_code: 5, timeframe: '1m' },
      { pair_code: 'EURUSD' },
      { pair_code: 'EURUSD', timeframe: '2m' },
      { pair_code: 'EURUSD', timeframe: ['1m'] },
      { pair_code: '', timeframe: '1m' },
      { pair_code: 'E'.repeat(10_000), timeframe: '1m' },
      { pair_code: 'EURUSD', timeframe: '1m', token: 7 },
    ];
    for (const payload of bad) {
      if (payload === undefined) r.socket.emit('select_pair');
      else r.socket.emit('select_pair', payload);
      const err = await nextEvent<SocketError>(r.socket, 'error_message', 2000);
      expect(err.event).toBe('select_pair');
      expect(typeof err.message).toBe('string');
      expect(err.message.length).toBeLessThan(200);
    }
    for (const pair_code of ['NOPE', 'eurusd', 'USDTRY', 'XPDUSD']) {
      r.socket.emit('select_pair', { pair_code, timeframe: '1m' });
      const err = await nextEvent<SocketError>(r.socket, 'error_message', 2000);
      expect(err).toEqual({ event: 'select_pair', message: 'Pair not found' });
    }
    expect(r.of('init_candles')).toEqual([]);
    expect(r.of('price_update')).toEqual([]);
    // Still connected and served.
    expect(r.socket.connected).toBe(true);
    r.socket.emit('select_pair', { pair_code: 'GBPUSD', timeframe: '30s' });
    const init = await nextEvent<InitCandles>(r.socket, 'init_candles');
    expect(init.pair_code).toBe('GBPUSD');
    await nextEvent(r.socket, 'new_price');
    const health = await server.api('GET', '/api/health');
    expect(health.status).toBe(200);
  });

  it('ends on the last of two quick selections, never streaming the first afterwards', async () => {
    const r = await record();
    r.socket.emit('select_pair', { pair_code: 'SOLUSD', timeframe: '1h' });
    r.socket.emit('select_pair', { pair_code: 'XRPUSD', timeframe: '1h' });
    await nextEvent(r.socket, 'init_candles', 5000, (p: InitCandles) => p.pair_code === 'XRPUSD');
    await sleep(600);
    // Normally the answer to the superseded SOLUSD request is dropped; if it was already out
    // before XRPUSD arrived, it came first. Either way XRPUSD is the selection that streams.
    const inits = r.of<InitCandles>('init_candles').map((p) => p.pair_code);
    expect(inits.at(-1)).toBe('XRPUSD');
    expect(inits.filter((c) => c === 'XRPUSD')).toHaveLength(1);
    const at = r.events.findIndex((e) => e.name === 'init_candles' && e.payload.pair_code === 'XRPUSD');
    const streamed = r.events.slice(at + 1).filter((e) => e.name === 'price_update' || e.name === 'new_price');
    expect(streamed.length).toBeGreaterThan(0);
    expect(new Set(streamed.map((e) => e.payload.pair_code))).toEqual(new Set(['XRPUSD']));
  });
});
