/**
 * MARKET_FEED=binance against a local emulator of Binance's combined streams (real WebSocket,
 * recorded-format trade frames): the crypto pairs follow the emulator's prices at its trade
 * times, orders open on them; the other pairs stay on the simulator and say so; when the
 * emulator goes silent the crypto pairs are suspended within the stale limit (pair_status over
 * the socket, orders refused with the translated-catalogue text) and resume by themselves; a
 * dropped connection or a serverShutdown reconnects and resubscribes; trade id jumps are counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderErrorText, type Order } from '../../contract/orders';
import type { Pair, PairStatus } from '../../contract/market';
import { BinanceEmulator } from '../support/binance-emulator';
import { nextEvent, startTestServer, type TestServer } from '../support/server';
import { makeUser, sleep, type TestUser } from '../support/orders-harness';
import { Market } from '../../server/domain/market/service';
import { CompositeFeed } from '../../server/domain/market/feeds/composite';
import { BinanceFeed, combinedStreamUrl, parseTradeFrame } from '../../server/domain/market/feeds/binance';

const STALE_MS = 1200;
let emu: BinanceEmulator;
let server: TestServer;
let user: TestUser;
let market: Market;

async function until(check: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function binanceFeed(): BinanceFeed {
  const feed = (market as unknown as { runner: { feed: CompositeFeed } }).runner.feed;
  return feed.parts.find((p) => p.feed instanceof BinanceFeed)!.feed as BinanceFeed;
}

beforeAll(async () => {
  emu = new BinanceEmulator();
  await emu.start();
  server = await startTestServer({ MARKET_FEED: 'binance', BINANCE_WS_URL: emu.url, STALE_QUOTE_MS_CRYPTO: String(STALE_MS) });
  market = server.ctx.services.market;
  user = await makeUser({ server });
  await until(() => emu.openConnections === 1, 5000, 'the feed to connect');
});

afterAll(async () => {
  await server?.close();
  await emu?.close();
});

describe('Binance trade frames', () => {
  it('parses the documented combined-stream trade payload and builds the combined URL', () => {
    const frame = parseTradeFrame(
      '{"stream":"btcusdt@trade","data":{"e":"trade","E":1700000000001,"s":"BTCUSDT","t":12345,"p":"0.001","q":"100","T":1700000000000,"m":true,"M":true}}',
    );
    expect(frame).toEqual({ stream: 'btcusdt@trade', trade: expect.objectContaining({ s: 'BTCUSDT', t: 12345, p: '0.001', T: 1700000000000 }) });
    expect(parseTradeFrame('{"stream":"btcusdt@trade","data":{"e":"aggTrade"}}')).toBeNull();
    expect(parseTradeFrame('not json')).toBeNull();
    expect(combinedStreamUrl('wss://stream.binance.com:9443/', ['ETHUSDT', 'BTCUSDT'])).toBe(
      'wss://stream.binance.com:9443/stream?streams=btcusdt@trade/ethusdt@trade',
    );
  });
});

describe('MARKET_FEED=binance against the emulator', () => {
  it('subscribes to every mapped crypto pair on the combined endpoint', () => {
    expect(emu.connections[0]).toEqual(expect.arrayContaining(['btcusdt@trade', 'ethusdt@trade', 'avaxusdt@trade']));
    expect(emu.connections[0]).toHaveLength(10);
  });

  it('labels crypto pairs as market-quoted and the others as simulated', async () => {
    const r = await server.api<{ pairs: Pair[] }>('GET', '/api/v2/pairs');
    const by = new Map(r.body.data!.pairs.map((p) => [p.pair_code, p]));
    expect(by.get('BTCUSD')!.simulated).toBe(false);
    expect(by.get('EURUSD')!.simulated).toBe(true);
    expect(by.get('AAPL')!.simulated).toBe(true);
  });

  it('BTC/USD follows the emulator price at the exchange trade time, and an order opens on it', async () => {
    const t = Date.now() - 3;
    emu.trade('BTCUSDT', { price: '95123.45000000', time: t });
    await until(() => market.latestTick('BTCUSD')?.price === 95123.45, 3000, 'the BTC tick');
    expect(market.latestTick('BTCUSD')!.time).toBe(t);
    const r = await server.api<{ order: Order }>(
      'POST',
      '/api/v2/orders',
      { pair_code: 'BTCUSD', direction: 'up', amount: 10, currency: 'USD', trading_account: 'DemoAccount', expiry: 60 },
      user.token,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.data!.order.entry_tick.price).toBe(95123.45);
  });

  it('suspends the pair within the limit when the feed stops, and resumes when it comes back', async () => {
    const socket = await server.socket();
    emu.trade('BTCUSDT', { price: 95100 });
    await until(() => market.latestTick('BTCUSD')?.price === 95100, 3000, 'a fresh tick');
    emu.stop();
    const stoppedAt = Date.now();
    const delayed = await nextEvent<PairStatus>(socket, 'pair_status', 5000, (p) => p.pair_code === 'BTCUSD');
    const took = Date.now() - stoppedAt;
    expect(delayed.quotes).toBe('delayed');
    // Within the limit plus one check interval (limit / 5) and some scheduling slack.
    expect(took).toBeLessThan(STALE_MS + STALE_MS / 5 + 500);
    const refused = await server.api(
      'POST',
      '/api/v2/orders',
      { pair_code: 'BTCUSD', direction: 'up', amount: 10, currency: 'USD', trading_account: 'DemoAccount', expiry: 60 },
      user.token,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(OrderErrorText.quotesDelayed);
    const pairs = await server.api<{ pairs: Pair[] }>('GET', '/api/v2/pairs');
    expect(pairs.body.data!.pairs.find((p) => p.pair_code === 'BTCUSD')!.quotes).toBe('delayed');
    // The simulator's pairs are not affected.
    expect(pairs.body.data!.pairs.find((p) => p.pair_code === 'EURUSD')!.quotes).toBe('live');

    emu.resume();
    const live = nextEvent<PairStatus>(socket, 'pair_status', 5000, (p) => p.pair_code === 'BTCUSD');
    emu.trade('BTCUSDT', { price: 95200 });
    expect((await live).quotes).toBe('live');
    const ok = await server.api<{ order: Order }>(
      'POST',
      '/api/v2/orders',
      { pair_code: 'BTCUSD', direction: 'down', amount: 10, currency: 'USD', trading_account: 'DemoAccount', expiry: 60 },
      user.token,
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.data!.order.entry_tick.price).toBe(95200);
  });

  it('reconnects with backoff and resubscribes after a dropped connection, and again after serverShutdown', async () => {
    const before = emu.connections.length;
    emu.dropConnections();
    await until(() => emu.openConnections === 1 && emu.connections.length === before + 1, 5000, 'a reconnect');
    expect(emu.connections.at(-1)).toEqual(emu.connections[0]);
    emu.trade('ETHUSDT', { price: 3210.5 });
    await until(() => market.latestTick('ETHUSD')?.price === 3210.5, 3000, 'ETH after reconnect');

    emu.serverShutdown();
    await until(() => emu.connections.length === before + 2 && emu.openConnections === 1, 5000, 'a reconnect after serverShutdown');
    emu.trade('ETHUSDT', { price: 3211 });
    await until(() => market.latestTick('ETHUSD')?.price === 3211, 3000, 'ETH after serverShutdown');
  });

  it('counts a trade id jump as a gap and skips a replayed trade id', async () => {
    const feed = binanceFeed();
    const gaps = feed.stats().gaps;
    emu.trade('SOLUSDT', { price: 140 });
    emu.skipIds('SOLUSDT', 5);
    const { id } = emu.trade('SOLUSDT', { price: 141 });
    await until(() => market.latestTick('SOLUSD')?.price === 141, 3000, 'SOL after a gap');
    expect(feed.stats().gaps).toBe(gaps + 1);
    expect(feed.stats().missedTrades).toBeGreaterThanOrEqual(5);
    const seq = market.latestTick('SOLUSD')!.seq;
    emu.trade('SOLUSDT', { price: 150, id }); // the same id again: a replay
    emu.trade('SOLUSDT', { price: 142 });
    await until(() => market.latestTick('SOLUSD')?.price === 142, 3000, 'SOL after a replay');
    expect(market.latestTick('SOLUSD')!.seq).toBe(seq + 1);
  });

  it('keeps reconnecting while the exchange refuses, then comes back', async () => {
    const before = emu.connections.length;
    emu.refuse(true);
    emu.dropConnections();
    await sleep(1500);
    expect(emu.connections.length).toBe(before);
    expect(binanceFeed().stats().connected).toBe(false);
    emu.refuse(false);
    await until(() => emu.connections.length === before + 1, 20_000, 'the reconnect after refusals');
  }, 30_000);
});

describe('BinanceFeed liveness (a feed of its own against the emulator)', () => {
  it('replaces a connection that shows no frame and no ping, keeps one that is pinged, and renews before the lifetime cut', async () => {
    const own = new BinanceEmulator();
    await own.start();
    const ticks: number[] = [];
    const feed = new BinanceFeed({ baseUrl: own.url, symbols: new Map([['BTCUSD', 'BTCUSDT']]), idleTimeoutMs: 400, maxConnectionMs: 60_000 });
    try {
      feed.start((t) => ticks.push(t.price));
      await until(() => own.openConnections === 1, 3000, 'connect');
      // Pings keep a quiet connection alive.
      for (let i = 0; i < 5; i++) {
        own.ping();
        await sleep(150);
      }
      expect(own.connections).toHaveLength(1);
      // Silence (no frame, no ping) beyond the idle limit: the feed reconnects by itself.
      await until(() => own.connections.length === 2, 3000, 'the idle reconnect');
      own.trade('BTCUSDT', { price: 1 });
      await until(() => ticks.includes(1), 2000, 'a tick after the idle reconnect');
    } finally {
      feed.stop();
    }
    const short = new BinanceFeed({ baseUrl: own.url, symbols: new Map([['BTCUSD', 'BTCUSDT']]), idleTimeoutMs: 60_000, maxConnectionMs: 300 });
    try {
      const before = own.connections.length;
      short.start(() => undefined);
      await until(() => own.connections.length >= before + 2, 3000, 'the lifetime renewal');
      expect(short.stats().reconnects).toBeGreaterThanOrEqual(1);
    } finally {
      short.stop();
      await own.close();
    }
  });
});
