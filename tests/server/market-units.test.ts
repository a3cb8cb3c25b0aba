/**
 * Unit tests of the market's pure parts: the counter-based RNG, the simulator (determinism,
 * resume, drift-free scheduling without bursts), candle aggregation, the tick ring and the
 * backfilled history.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashKey, normal, uniform } from '../../server/domain/market/rng';
import { Simulator } from '../../server/domain/market/simulator';
import { CATALOGUE, pairSpec, roundPrice } from '../../server/domain/market/catalogue';
import { aggregate, applyPrice, bucketStart, mergeCandles, openCandle } from '../../server/domain/market/candles';
import { MISS, TickRing } from '../../server/domain/market/tick-log';
import { backfillCandles, backfillCandlesSliced } from '../../server/domain/market/backfill';
import { logSigma, stepLogPrice } from '../../server/domain/market/model';
import type { Tick } from '../../server/domain/market/types';
import { TIMEFRAMES, TIMEFRAME_SECONDS } from '../../contract/user';

const spec = (code: string) => {
  const s = pairSpec(code);
  if (!s) throw new Error(`no ${code}`);
  return s;
};

describe('rng', () => {
  it('is a pure function of (seed, key, counter, lane)', () => {
    const key = hashKey('EURUSD');
    expect(normal(7, key, 123)).toBe(normal(7, key, 123));
    expect(normal(7, key, 123)).not.toBe(normal(8, key, 123));
    expect(normal(7, key, 123)).not.toBe(normal(7, hashKey('GBPUSD'), 123));
    expect(normal(7, key, 123)).not.toBe(normal(7, key, 124));
    expect(normal(7, key, 123, 0)).not.toBe(normal(7, key, 123, 1));
    // Counters past 2^32 still differ from their low word.
    expect(uniform(7, key, 2 ** 32 + 5, 0)).not.toBe(uniform(7, key, 5, 0));
  });

  it('gives standard normal draws without serial correlation', () => {
    const key = hashKey('BTCUSD');
    const n = 40_000;
    let sum = 0;
    let sumSq = 0;
    let lag = 0;
    let prev = normal(1, key, 0);
    for (let i = 1; i <= n; i++) {
      const z = normal(1, key, i);
      sum += z;
      sumSq += z * z;
      lag += z * prev;
      prev = z;
    }
    const mean = sum / n;
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(sumSq / n - 1)).toBeLessThan(0.04);
    expect(Math.abs(lag / n)).toBeLessThan(0.03);
  });
});

describe('simulator', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const pairs = [spec('EURUSD'), spec('BTCUSD'), spec('USDJPY'), spec('AAPL')];
  const run = (seed: number, count: number, t0 = 1_700_000_000_000) => {
    const sim = new Simulator({ seed, ticksPerSecond: 4, pairs });
    const ticks: Tick[] = [];
    for (let i = 0; i < count; i++) ticks.push(...sim.tickAll(t0 + i * 250));
    return ticks;
  };

  it('reproduces the same ticks from the same seed and differs with another seed', () => {
    const a = run(42, 300);
    const b = run(42, 300);
    const c = run(43, 300);
    expect(a).toHaveLength(1200);
    expect(b).toEqual(a);
    const differing = a.filter((t, i) => t.price !== c[i].price).length;
    expect(differing).toBeGreaterThan(600);
  });

  it('numbers ticks per pair from 1 and rounds to the pair precision', () => {
    const ticks = run(5, 50);
    for (const p of pairs) {
      const mine = ticks.filter((t) => t.pair_code === p.pair_code);
      expect(mine.map((t) => t.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      for (const t of mine) expect(t.price).toBe(roundPrice(t.price, p.precision));
      // Moves like the model says: a few sigma over 50 ticks, not a random jump.
      const drift = Math.abs(Math.log(mine[49].price / p.start_price));
      expect(drift).toBeLessThan(6 * logSigma(p.sigma, 12.5) + 10 ** -p.precision / p.start_price);
    }
  });

  it('resumes from a last tick with the next seq and the same stream', () => {
    const t0 = 1_700_000_000_000;
    const full = new Simulator({ seed: 9, ticksPerSecond: 4, pairs: [spec('BTCUSD')] });
    let last: Tick | undefined;
    for (let i = 0; i < 100; i++) last = full.tickAll(t0 + i * 250)[0];
    const next = full.tickAll(t0 + 100 * 250)[0];
    const resumed = new Simulator({
      seed: 9,
      ticksPerSecond: 4,
      pairs: [spec('BTCUSD')],
      resume: new Map([['BTCUSD', { seq: last!.seq, time: last!.time, price: last!.price }]]),
    });
    const first = resumed.tickAll(t0 + 100 * 250)[0];
    expect(first.seq).toBe(101);
    // Same draw; the only difference is the resumed state being the rounded price.
    expect(Math.abs(first.price - next.price)).toBeLessThanOrEqual(0.02);
    const expected = roundPrice(
      Math.exp(stepLogPrice(Math.log(last!.price), Math.log(spec('BTCUSD').start_price), spec('BTCUSD').sigma, 0.25, normal(9, hashKey('BTCUSD'), 101))),
      2,
    );
    expect(first.price).toBe(expected);
  });

  it('ticks on a fixed grid and skips missed slots instead of bursting', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const sim = new Simulator({ seed: 1, ticksPerSecond: 4, pairs: [spec('EURUSD')], clock: () => Date.now() });
    const times: number[] = [];
    sim.start((t) => times.push(t.time));
    expect(times).toEqual([1_700_000_000_000]); // the first tick is immediate
    await vi.advanceTimersByTimeAsync(1000);
    expect(times.map((t) => t - 1_700_000_000_000)).toEqual([0, 250, 500, 750, 1000]);
    // The event loop stalls for about 3 s: the wall clock moves on while no timer can fire.
    vi.setSystemTime(1_700_000_004_100);
    await vi.advanceTimersByTimeAsync(250);
    expect(times.length).toBe(6); // one tick for "now", not the thirteen missed slots
    expect(times[5]).toBe(1_700_000_004_350);
    await vi.advanceTimersByTimeAsync(1000);
    // Back on the original grid, no accumulated lateness.
    expect(times.slice(6).map((t) => t - 1_700_000_000_000)).toEqual([4500, 4750, 5000, 5250]);
    sim.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(times.length).toBe(10);
  });
});

describe('candles', () => {
  it('puts a tick in the bucket floor(time / tf) * tf, in unix seconds', () => {
    expect(bucketStart(1_700_000_004_999, '5s')).toBe(1_700_000_000);
    expect(bucketStart(1_700_000_005_000, '5s')).toBe(1_700_000_005);
    expect(bucketStart(1_700_000_039_999, '1m')).toBe(1_699_999_980);
    expect(bucketStart(1_700_000_040_000, '1m')).toBe(1_700_000_040);
    expect(bucketStart(1_700_002_800_000, '1h')).toBe(1_700_002_800);
    for (const tf of TIMEFRAMES) expect(bucketStart(1_700_000_123_456, tf) % TIMEFRAME_SECONDS[tf]).toBe(0);
  });

  it('updates the live candle in its bucket and opens a new one at the boundary', () => {
    const base = 1_700_000_000_000; // a 5 s boundary
    const c1 = applyPrice(undefined, 'EURUSD', '5s', base + 100, 1.1)!;
    expect(c1).toEqual({ pair_code: 'EURUSD', timeframe: '5s', timestamp: base / 1000, open: 1.1, high: 1.1, low: 1.1, close: 1.1, volume: 1 });
    const same = applyPrice(c1, 'EURUSD', '5s', base + 2000, 1.2)!;
    expect(same).toBe(c1);
    applyPrice(c1, 'EURUSD', '5s', base + 3000, 1.05);
    applyPrice(c1, 'EURUSD', '5s', base + 4999, 1.15);
    expect(c1).toMatchObject({ open: 1.1, high: 1.2, low: 1.05, close: 1.15, volume: 4 });
    const c2 = applyPrice(c1, 'EURUSD', '5s', base + 5000, 1.16)!;
    expect(c2).not.toBe(c1);
    expect(c2).toMatchObject({ timestamp: base / 1000 + 5, open: 1.16, close: 1.16, volume: 1 });
    // An older tick never rewrites history.
    expect(applyPrice(c2, 'EURUSD', '5s', base + 4000, 9)).toBeNull();
    expect(c1.close).toBe(1.15);
  });

  it('aggregates a run of prices into OHLC per bucket', () => {
    const base = 1_700_000_040_000; // a minute boundary
    const pts = [
      { time: base, price: 10 },
      { time: base + 10_000, price: 12 },
      { time: base + 30_000, price: 9 },
      { time: base + 59_999, price: 11 },
      { time: base + 60_000, price: 11.5 },
      { time: base + 180_000, price: 13 }, // a bucket with no ticks in between stays absent
    ];
    const out = aggregate('X', '1m', pts);
    expect(out.map((c) => [c.timestamp, c.open, c.high, c.low, c.close, c.volume])).toEqual([
      [base / 1000, 10, 12, 9, 11, 4],
      [base / 1000 + 60, 11.5, 11.5, 11.5, 11.5, 1],
      [base / 1000 + 180, 13, 13, 13, 13, 1],
    ]);
  });

  it('merges stored and in-memory candles by bucket, newest source winning, oldest first', () => {
    const stored = [openCandle('X', '5s', 10, 1), openCandle('X', '5s', 15, 2), openCandle('X', '5s', 20, 3)];
    const live = [openCandle('X', '5s', 20, 4), openCandle('X', '5s', 25, 5)];
    expect(mergeCandles(10, stored, live).map((c) => [c.timestamp, c.open])).toEqual([
      [10, 1],
      [15, 2],
      [20, 4],
      [25, 5],
    ]);
    expect(mergeCandles(2, live, stored).map((c) => [c.timestamp, c.open])).toEqual([
      [20, 3],
      [25, 5],
    ]);
  });
});

describe('tick ring', () => {
  const tick = (seq: number, time: number, price = seq): Tick => ({ pair_code: 'X', seq, time, price });

  it('answers at-or-before and between from memory, and says when it cannot', () => {
    const ring = new TickRing('X', 4);
    expect(ring.atOrBefore(5)).toBe(MISS);
    for (const [seq, time] of [[1, 100], [2, 200], [3, 200], [4, 300], [5, 400], [6, 500]]) ring.push(tick(seq, time));
    // Capacity 4: seqs 3..6 remain.
    expect(ring.length).toBe(4);
    expect(ring.latest()).toEqual(tick(6, 500));
    expect(ring.atOrBefore(450)).toEqual(tick(5, 400));
    expect(ring.atOrBefore(500)).toEqual(tick(6, 500));
    expect(ring.atOrBefore(10_000)).toEqual(tick(6, 500));
    expect(ring.atOrBefore(250)).toEqual(tick(3, 200)); // the last of the ticks sharing time 200
    expect(ring.atOrBefore(199)).toBe(MISS);
    expect(ring.between(201, 450)).toEqual([tick(4, 300), tick(5, 400)]);
    expect(ring.between(200, 450)).toBe(MISS); // seq 2 (time 200) was evicted
  });

  it('starts over when a tick is not the next seq', () => {
    const ring = new TickRing('X', 8);
    ring.push(tick(1, 100));
    ring.push(tick(7, 200));
    expect(ring.length).toBe(1);
    expect(ring.latest()).toEqual(tick(7, 200));
  });
});

describe('backfilled history', () => {
  const btc = spec('BTCUSD');
  const anchorTime = 1_700_000_123_456;
  const history = backfillCandles({ seed: 3, spec: btc, anchorTime, anchorPrice: 96_000, ticksPerSecond: 4 });

  it('gives 1000 contiguous candles per timeframe that end before the anchor bucket', () => {
    for (const tf of TIMEFRAMES) {
      const list = history.get(tf)!;
      const step = TIMEFRAME_SECONDS[tf];
      expect(list).toHaveLength(1000);
      expect(list[list.length - 1].timestamp).toBe(bucketStart(anchorTime, tf) - step);
      for (let i = 1; i < list.length; i++) expect(list[i].timestamp - list[i - 1].timestamp).toBe(step);
      for (const c of list) {
        expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
        expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
        expect(c.volume).toBe(step * 4);
        expect(c.close).toBe(roundPrice(c.close, 2));
      }
    }
  });

  it('ends near the anchor price and agrees across timeframes', () => {
    const fine = history.get('5s')!;
    const last = fine[fine.length - 1];
    expect(Math.abs(Math.log(last.close / 96_000))).toBeLessThan(6 * logSigma(btc.sigma, 10) + 0.0001);
    // Each complete minute of 5 s candles matches the 1 m candle of that minute.
    const minutes = history.get('1m')!.slice(-20);
    for (const m of minutes) {
      const parts = fine.filter((c) => c.timestamp >= m.timestamp && c.timestamp < m.timestamp + 60);
      if (parts.length !== 12) continue;
      expect(m.open).toBe(parts[0].open);
      expect(m.close).toBe(parts[11].close);
      expect(m.high).toBe(Math.max(...parts.map((c) => c.high)));
      expect(m.low).toBe(Math.min(...parts.map((c) => c.low)));
    }
  });

  it('is deterministic for the same anchor and seed', () => {
    const again = backfillCandles({ seed: 3, spec: btc, anchorTime, anchorPrice: 96_000, ticksPerSecond: 4 });
    expect(again.get('1h')).toEqual(history.get('1h'));
    const other = backfillCandles({ seed: 4, spec: btc, anchorTime, anchorPrice: 96_000, ticksPerSecond: 4 });
    expect(other.get('1h')).not.toEqual(history.get('1h'));
  });

  it('is generated in slices with the event loop free between them, giving the same candles', async () => {
    // Another client's work (a setImmediate chain) runs while the history is generated: the
    // walk of ~50 000 points no longer holds the loop in one stretch (the select_pair flood).
    let turns = 0;
    let running = true;
    const other = () => {
      turns++;
      if (running) setImmediate(other);
    };
    setImmediate(other);
    const sliced = await backfillCandlesSliced({ seed: 3, spec: btc, anchorTime, anchorPrice: 96_000, ticksPerSecond: 4 }, 2000);
    running = false;
    for (const tf of TIMEFRAMES) expect(sliced.get(tf)).toEqual(history.get(tf));
    const points = history.get('1h')!.length * 10;
    expect(turns).toBeGreaterThanOrEqual(Math.floor(points / 2000));
  });

  it('stays sane over 1000 hours for every pair', () => {
    for (const p of CATALOGUE) {
      const h = backfillCandles({ seed: 11, spec: p, anchorTime, anchorPrice: p.start_price, ticksPerSecond: 4 }).get('1h')!;
      for (const c of h) {
        expect(c.low).toBeGreaterThan(p.start_price * 0.3);
        expect(c.high).toBeLessThan(p.start_price * 3);
      }
    }
  });
});
