/**
 * A tick goes to a socket as price_update then new_price of its timeframe, both encoded once per
 * tick and written to the socket's connection in one write (server/http/tick-broadcast.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { nextEvent } from '../support/server';
import { pushFeedServer } from '../support/push-feed-server';
import type { InitCandles } from '../../contract/socket';
import { TickPiggyback, broadcastTick } from '../../server/http/tick-broadcast';

const f = pushFeedServer();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Recorded {
  socket: Socket;
  events: Array<{ name: string; payload: any }>;
  /** Writes to the server side's TCP connection of this socket since the selection. */
  writes: () => number;
  /** Writes that went through engine.io's transport since the selection. */
  engineSends: () => number;
}

async function selected(pair_code: string, timeframe: string): Promise<Recorded> {
  const socket = await f.server.socket();
  f.opened.push(socket);
  const answer = nextEvent<InitCandles>(socket, 'init_candles', 5000, (p) => p.pair_code === pair_code);
  socket.emit('select_pair', { pair_code, timeframe });
  await answer;
  const events: Recorded['events'] = [];
  socket.onAny((name: string, payload: unknown) => {
    if (name === 'price_update' || name === 'new_price') events.push({ name, payload });
  });
  // The server's end of this socket's connection (engine.io websocket transport -> ws -> net.Socket).
  const serverSide = f.server.ctx.io!.of('/').sockets.get(socket.id!) as unknown as {
    conn: { transport: { socket: { _socket: { write: (...args: unknown[]) => boolean } } } };
  };
  const tcp = serverSide.conn.transport.socket._socket;
  // engine.io's per-packet write path (the transport's send), bypassed when nothing is queued.
  const transport = serverSide.conn.transport as unknown as { send: (...args: unknown[]) => void };
  const send = transport.send.bind(transport);
  transport.send = (...args: unknown[]) => {
    engineSends++;
    send(...args);
  };
  let engineSends = 0;
  let writes = 0;
  const original = tcp.write.bind(tcp);
  tcp.write = (...args: unknown[]) => {
    writes++;
    return original(...args);
  };
  return { socket, events, writes: () => writes, engineSends: () => engineSends };
}

describe('tick broadcast', () => {
  it('sends each socket price_update then its timeframe new_price, in one write per tick', async () => {
    const base = Math.floor(Date.now() / 60_000) * 60_000 + 100;
    f.feed.push('EURUSD', 1.1, base);
    f.feed.push('GBPUSD', 1.3, base);
    const five = await selected('EURUSD', '5s');
    const minute = await selected('EURUSD', '1m');
    const other = await selected('GBPUSD', '5s');

    const prices = [1.11, 1.12, 1.09];
    for (const [i, price] of prices.entries()) {
      f.feed.push('EURUSD', price, base + 1 + i);
      await sleep(30);
    }
    await sleep(100);

    for (const [r, tf] of [
      [five, '5s'],
      [minute, '1m'],
    ] as const) {
      expect(r.events.map((e) => e.name)).toEqual(['price_update', 'new_price', 'price_update', 'new_price', 'price_update', 'new_price']);
      prices.forEach((price, i) => {
        expect(r.events[2 * i].payload).toEqual({ pair_code: 'EURUSD', price, time: base + 1 + i });
        expect(r.events[2 * i + 1].payload).toMatchObject({ pair_code: 'EURUSD', timeframe: tf, close: price, open: 1.1, high: [1.11, 1.12, 1.12][i], low: [1.1, 1.1, 1.09][i] });
      });
      // Two events per tick, one write per tick, straight to the connection (engine.io idle).
      expect(r.writes()).toBe(prices.length);
      expect(r.engineSends()).toBe(0);
    }
    expect(other.events).toEqual([]);
    expect(other.writes()).toBe(0);
  });

  it('keeps a tick behind a packet engine.io is still writing to the socket', async () => {
    const r = await selected('EURUSD', '5s');
    const got: string[] = [];
    r.socket.onAny((name: string) => {
      if (name !== 'pairs_rates') got.push(name);
    });
    const io = f.server.ctx.io!;
    const serverSide = io.of('/').sockets.get(r.socket.id!)!;
    // Written by engine.io now; its transport stays busy until the write's callback.
    serverSide.emit('pair_status', { pair_code: 'EURUSD', quotes: 'live' });
    serverSide.emit('pairs', { pairs: [] });
    broadcastTick(io, { room: 'pair:EURUSD', event: 'price_update', payload: { pair_code: 'EURUSD', price: 2, time: 1 } }, [
      { room: 'pair:EURUSD:5s', event: 'new_price', payload: { pair_code: 'EURUSD', open: 2, high: 2, low: 2, close: 2, time: 1, timeframe: '5s' } },
    ]);
    await sleep(100);
    expect(got).toEqual(['pair_status', 'pairs', 'price_update', 'new_price']);
    expect(r.engineSends()).toBeGreaterThanOrEqual(2);
  });

  it('writes pairs_rates in front of a socket\'s next tick, in the same write, and on its own to the others after the grace', async () => {
    const onPair = await selected('EURUSD', '5s');
    const idle = await selected('GBPUSD', '5s');
    const io = f.server.ctx.io!;
    const piggyback = new TickPiggyback(io, 80);
    const marked = (name: string, payload: any) => name !== 'pairs_rates' || payload?.marker === 1;
    const seen = (r: Recorded) => {
      const got: string[] = [];
      r.socket.onAny((name: string, payload: unknown) => {
        if (marked(name, payload)) got.push(name);
      });
      return got;
    };
    const onPairGot = seen(onPair);
    const idleGot = seen(idle);
    piggyback.send('pairs_rates', { rates: [], marker: 1 });
    const later = await selected('EURUSD', '5s');
    const laterGot = seen(later);
    const before = [onPair.writes(), idle.writes(), later.writes()];
    broadcastTick(io, { room: 'pair:EURUSD', event: 'price_update', payload: { pair_code: 'EURUSD', price: 3, time: 2 } }, [
      { room: 'pair:EURUSD:5s', event: 'new_price', payload: { pair_code: 'EURUSD', open: 3, high: 3, low: 3, close: 3, time: 2, timeframe: '5s' } },
    ], piggyback);
    // One write each for the sockets on the pair; nothing yet for the other.
    expect([onPair.writes(), idle.writes(), later.writes()]).toEqual([before[0] + 1, before[1], before[2] + 1]);
    await sleep(250);
    expect(onPairGot).toEqual(['pairs_rates', 'price_update', 'new_price']);
    // Connected after it was made: had the rates on connect, not this older one.
    expect(laterGot).toEqual(['price_update', 'new_price']);
    expect(idleGot).toEqual(['pairs_rates']);
    piggyback.stop();
  });
});
