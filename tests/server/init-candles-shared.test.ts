/**
 * select_pair's init_candles is encoded once per history version and shared by the sockets asking
 * meanwhile (server/http/init-candles-packets.ts): every socket gets the same, current history,
 * and a tick in between is never hidden by the shared answer.
 */
import { describe, expect, it, vi } from 'vitest';
import { nextEvent } from '../support/server';
import { pushFeedServer } from '../support/push-feed-server';
import type { InitCandles } from '../../contract/socket';

const f = pushFeedServer();

async function select(pair_code: string, timeframe: string): Promise<InitCandles> {
  const socket = await f.server.socket();
  f.opened.push(socket);
  const answer = nextEvent<InitCandles>(socket, 'init_candles', 5000, (p) => p.pair_code === pair_code);
  socket.emit('select_pair', { pair_code, timeframe });
  return answer;
}

describe('init_candles shared between sockets', () => {
  it('sends every socket the history as it is at its answer, however many ask', async () => {
    const t0 = Math.floor(Date.now() / 5000) * 5000 + 100; // early in a 5 s candle
    f.feed.push('EURUSD', 1.1, t0);
    const first = await select('EURUSD', '5s');
    expect(first.candles.at(-1)?.close).toBe(1.1);

    // No tick in between: the same history, to several sockets at once.
    const same = await Promise.all([select('EURUSD', '5s'), select('EURUSD', '5s'), select('EURUSD', '5s')]);
    for (const answer of same) expect(answer).toEqual(first);

    // A tick in the same candle (changed in place) and one opening the next: each is in the next answer.
    f.feed.push('EURUSD', 1.25, t0 + 1);
    const afterInPlace = await select('EURUSD', '5s');
    expect(afterInPlace.candles.at(-1)).toMatchObject({ close: 1.25, high: 1.25, timestamp: first.candles.at(-1)?.timestamp });
    expect(afterInPlace.candles.length).toBe(first.candles.length);
    f.feed.push('EURUSD', 1.05, t0 + 6_000);
    const afterNext = await select('EURUSD', '5s');
    expect(afterNext.candles.at(-1)?.close).toBe(1.05);
    expect(afterNext.candles.length).toBe(first.candles.length + 1);

    // Another timeframe of the same pair is its own answer.
    const minute = await select('EURUSD', '1m');
    expect(minute.timeframe).toBe('1m');
    expect(minute.candles.at(-1)?.close).toBe(1.05);
  });

  it('answers a history held in memory without reading or copying the candles for the socket', async () => {
    const first = await select('GBPUSD', '1m');
    const market = f.server.ctx.services.market;
    const read = vi.spyOn(market, 'candles');
    try {
      const again = await Promise.all([select('GBPUSD', '1m'), select('GBPUSD', '1m')]);
      for (const answer of again) expect(answer).toEqual(first);
      expect(read).not.toHaveBeenCalled();
    } finally {
      read.mockRestore();
    }
  });
});
