/**
 * The readiness registry (server/http/readiness.ts): named checks with a time limit each,
 * draining, and the feed check.
 */
import { describe, expect, it } from 'vitest';
import { Readiness, feedCheck } from '../../server/http/readiness';

describe('Readiness', () => {
  it('is ready when every check answers null, and names each failing one', async () => {
    const r = new Readiness(200);
    r.add('database', () => null);
    r.add('redis', async () => 'connection refused');
    r.add('feed', () => {
      throw new Error('feed exploded');
    });
    const report = await r.report();
    expect(report.ready).toBe(false);
    expect(report.checks).toEqual({ database: 'ok', redis: 'connection refused', feed: 'feed exploded' });
    expect(report.problems).toEqual([
      { field: 'redis', message: 'connection refused' },
      { field: 'feed', message: 'feed exploded' },
    ]);
    r.add('redis', () => null);
    r.add('feed', () => null);
    expect((await r.report()).ready).toBe(true);
  });

  it('reads a check that never answers as not ready', async () => {
    const r = new Readiness(50);
    r.add('database', () => new Promise<null>(() => undefined));
    const report = await r.report();
    expect(report.ready).toBe(false);
    expect(report.checks.database).toBe('no answer within 50 ms');
  });

  it('drains once: not ready from then on, every drain listener told once, late ones at once', async () => {
    const r = new Readiness();
    r.add('database', () => null);
    const told: string[] = [];
    r.onDrain(() => told.push('first'));
    r.onDrain(() => {
      throw new Error('a failing listener');
    });
    r.onDrain(() => told.push('third'));
    r.drain();
    r.drain();
    expect(r.draining).toBe(true);
    expect(told).toEqual(['first', 'third']);
    r.onDrain(() => told.push('late'));
    expect(told).toEqual(['first', 'third', 'late']);
    const report = await r.report();
    expect(report.ready).toBe(false);
    expect(report.problems).toEqual([{ field: 'node', message: 'draining' }]);
  });
});

describe('feedCheck', () => {
  const market = (ticks: Record<string, number | undefined>, active: Record<string, boolean> = {}) => ({
    listPairs: () => Object.keys(ticks).map((pair_code) => ({ pair_code, is_active: active[pair_code] ?? true })),
    latestTick: (code: string) => (ticks[code] === undefined ? undefined : { time: ticks[code]! }),
    staleLimitMs: () => 5_000,
  });

  it('passes when one active pair ticked within its stale limit', () => {
    expect(feedCheck(market({ EURUSD: 96_000, BTCUSDT: 10_000 }), 100_000)).toBeNull();
  });

  it('fails with no tick yet, only stale ticks, or fresh ticks on disabled pairs only', () => {
    expect(feedCheck(market({ EURUSD: undefined }), 100_000)).toBe('no fresh tick on any active pair');
    expect(feedCheck(market({ EURUSD: 94_000 }), 100_000)).toBe('no fresh tick on any active pair');
    expect(feedCheck(market({ EURUSD: 99_000 }, { EURUSD: false }), 100_000)).toBe('no active pairs');
  });
});
