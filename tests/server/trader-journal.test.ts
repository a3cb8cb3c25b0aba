/**
 * The trading journal (GET /api/v2/statistics/me) against a real server and real SQLite: a set
 * of settled, open, refunded and foreign orders is written, then every figure of every period
 * is recomputed here from those rows with plain loops (independently of the server's SQL and
 * its time-zone code: the zone is Asia/Kolkata, a fixed +05:30, so local time is plain
 * arithmetic) and compared. Also: validation and owner-only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { TestClock, makeUser, type TestUser } from '../support/orders-harness';
import type { Journal, JournalGroup } from '../../contract/statistics';
import { periodStart } from '../../server/domain/statistics/zone';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const OFFSET = 5.5 * HOUR; // Asia/Kolkata
// Wednesday 18 November 2026, 15:00 UTC (20:30 in Kolkata).
const NOW = Date.UTC(2026, 10, 18, 15, 0, 0);

let server: TestServer;
let user: TestUser;
let other: TestUser;
const clock = new TestClock(NOW);

interface Row {
  pair_code: string;
  pair_human_code: string;
  account: 'real' | 'demo';
  currency: string;
  stake: number;
  payout_rate_bp: number;
  expiry_seconds: number;
  accepted_at: number;
  status: 'open' | 'closed';
  result: string | null;
  payout: number | null;
  closed_at: number | null;
}
const rows: Row[] = [];

const PAIRS = [
  ['EURUSD', 'EUR/USD'],
  ['GBPUSD', 'GBP/USD'],
  ['BTCUSD', 'BTC/USD'],
] as const;
const EXPIRIES = [30, 60, 300];
const RESULTS = ['won', 'lost', 'won', 'lost', 'lost', 'tie', 'won', 'closed_early', 'won', 'refunded', 'lost', 'won'];

/** A small deterministic generator (the same rows every run). */
function lcg(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

async function insert(userId: number, r: Row, i: number) {
  await server.ctx.db
    .insertInto('orders')
    .values({
      user_id: userId,
      client_request_id: `journal-${userId}-${i}`,
      pair_code: r.pair_code,
      pair_human_code: r.pair_human_code,
      direction: i % 2 ? 'up' : 'down',
      account: r.account,
      currency: r.currency,
      stake: r.stake,
      payout_rate_bp: r.payout_rate_bp,
      price_precision: 5,
      expiry_seconds: r.expiry_seconds,
      accepted_at: r.accepted_at,
      expires_at: r.accepted_at + r.expiry_seconds * 1000,
      open_price: 1.1,
      entry_tick_time: r.accepted_at,
      entry_tick_seq: i + 1,
      status: r.status,
      result: r.result,
      close_reason: r.status === 'closed' ? 'expiry' : null,
      close_price: r.status === 'closed' ? 1.2 : null,
      exit_tick_time: r.closed_at,
      exit_tick_seq: r.status === 'closed' ? i + 2 : null,
      payout: r.payout,
      closed_at: r.closed_at,
    })
    .execute();
}

beforeAll(async () => {
  server = await startTestServer({}, { now: clock.now });
  user = await makeUser({ server });
  other = await makeUser({ server });
  await server.ctx.db.insertInto('user_profiles').values({ user_id: user.id, timezone: 'Asia/Kolkata', updated_at: NOW } as never).execute();
  const rand = lcg(42);
  for (let i = 0; i < 90; i++) {
    const [pair_code, pair_human_code] = PAIRS[Math.floor(rand() * PAIRS.length)]!;
    const account = rand() < 0.5 ? 'real' : 'demo';
    const currency = account === 'demo' && rand() < 0.3 ? 'EUR' : 'USD';
    const stake = 100 + Math.floor(rand() * 5000);
    const payout_rate_bp = 7000 + Math.floor(rand() * 2200);
    const expiry_seconds = EXPIRIES[Math.floor(rand() * EXPIRIES.length)]!;
    // Spread over the last 40 days, some today, at any hour.
    const accepted_at = NOW - Math.floor(rand() * (i < 15 ? 0.8 * DAY : 40 * DAY)) - expiry_seconds * 1000;
    const result = RESULTS[i % RESULTS.length]!;
    const payout =
      result === 'won' ? Math.trunc((stake * (10_000 + payout_rate_bp)) / 10_000) : result === 'lost' ? 0 : result === 'closed_early' ? Math.floor(stake * rand() * 1.5) : stake;
    const open = i % 17 === 0;
    const row: Row = {
      pair_code,
      pair_human_code,
      account,
      currency,
      stake,
      payout_rate_bp,
      expiry_seconds,
      accepted_at,
      status: open ? 'open' : 'closed',
      result: open ? null : result,
      payout: open ? null : payout,
      closed_at: open ? null : accepted_at + expiry_seconds * 1000,
    };
    rows.push(row);
    await insert(user.id, row, i);
  }
  // Someone else's orders must never count.
  for (let i = 0; i < 5; i++) {
    await insert(other.id, { ...rows[i]!, status: 'closed', result: 'won', payout: 99_999, closed_at: rows[i]!.accepted_at + 1000 }, 1000 + i);
  }
});

afterAll(async () => {
  await server.close();
});

// ---- the recomputation, by hand ------------------------------------------------------------

const localStartOfDay = (ms: number) => Math.floor((ms + OFFSET) / DAY) * DAY - OFFSET;

function expectedStart(period: string): number | null {
  if (period === 'all') return null;
  const today = localStartOfDay(NOW);
  if (period === 'today') return today;
  const local = new Date(NOW + OFFSET);
  if (period === 'week') {
    const mondayIndex = (local.getUTCDay() + 6) % 7;
    return today - mondayIndex * DAY;
  }
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - OFFSET;
}

const DECIMALS: Record<string, number> = { USD: 2, EUR: 2 };
const money = (minor: number, currency: string) => minor / 10 ** DECIMALS[currency]!;

function recompute(period: string): Journal {
  const from = expectedStart(period);
  const counted = rows.filter(
    (r) => r.status === 'closed' && r.result !== 'refunded' && r.closed_at! <= NOW && (from === null || r.closed_at! >= from),
  );
  const keys = [...new Set(counted.map((r) => `${r.account}|${r.currency}`))];
  const groups: JournalGroup[] = keys.map((key) => {
    const [account, currency] = key.split('|') as ['real' | 'demo', string];
    const mine = counted.filter((r) => r.account === account && r.currency === currency);
    const net = (list: Row[]) => list.reduce((sum, r) => sum + (r.payout ?? 0) - r.stake, 0);
    const bucket = (list: Row[]) => ({
      trades: list.length,
      wins: list.filter((r) => r.result === 'won').length,
      losses: list.filter((r) => r.result === 'lost').length,
      net_result: money(net(list), currency),
    });
    const wins = mine.filter((r) => r.result === 'won').length;
    const losses = mine.filter((r) => r.result === 'lost').length;
    const decided = mine.filter((r) => r.result === 'won' || r.result === 'lost');
    const decidedStake = decided.reduce((s, r) => s + r.stake, 0);
    const rate = decidedStake ? decided.reduce((s, r) => s + r.stake * r.payout_rate_bp, 0) / decidedStake / 10_000 : null;
    const stake = mine.reduce((s, r) => s + r.stake, 0);
    const byPair = [...new Set(mine.map((r) => r.pair_code))]
      .map((code) => {
        const list = mine.filter((r) => r.pair_code === code);
        return { pair_code: code, pair_human_code: list[0]!.pair_human_code, ...bucket(list), raw: net(list) };
      })
      .sort((a, b) => b.raw - a.raw || b.trades - a.trades || a.pair_code.localeCompare(b.pair_code))
      .map(({ raw: _raw, ...rest }) => rest);
    const byExpiry = [...new Set(mine.map((r) => r.expiry_seconds))].sort((a, b) => a - b).map((e) => ({ expiry_seconds: e, ...bucket(mine.filter((r) => r.expiry_seconds === e)) }));
    const hourOf = (r: Row) => Math.floor((((r.accepted_at + OFFSET) % DAY) + DAY) % DAY / HOUR);
    const byHour = [...new Set(mine.map(hourOf))].sort((a, b) => a - b).map((h) => ({ hour: h, ...bucket(mine.filter((r) => hourOf(r) === h)) }));
    const sequence = [...decided].sort((a, b) => a.closed_at! - b.closed_at!).map((r) => r.result);
    let longestWin = 0;
    let longestLoss = 0;
    let run = 0;
    let last: string | null = null;
    for (const r of sequence) {
      run = r === last ? run + 1 : 1;
      last = r;
      if (r === 'won') longestWin = Math.max(longestWin, run);
      else longestLoss = Math.max(longestLoss, run);
    }
    return {
      account,
      currency,
      trades: mine.length,
      wins,
      losses,
      ties: mine.filter((r) => r.result === 'tie').length,
      closed_early: mine.filter((r) => r.result === 'closed_early').length,
      win_rate: wins + losses ? wins / (wins + losses) : null,
      net_result: money(net(mine), currency),
      total_stake: money(stake, currency),
      average_stake: money(Math.trunc(stake / mine.length), currency),
      average_payout_rate: rate,
      break_even_win_rate: rate === null ? null : 1 / (1 + rate),
      best_pair: byPair[0] ?? null,
      worst_pair: byPair[byPair.length - 1] ?? null,
      by_pair: byPair,
      by_expiry: byExpiry,
      by_hour: byHour,
      streaks: { current: last ? { kind: last as 'won' | 'lost', length: run } : null, longest_win: longestWin, longest_loss: longestLoss },
    };
  });
  groups.sort((a, b) => (a.account === b.account ? a.currency.localeCompare(b.currency) : a.account === 'real' ? -1 : 1));
  return { period: period as Journal['period'], time_zone: 'Asia/Kolkata', from_ms: from, to_ms: NOW, groups };
}

describe('GET /api/v2/statistics/me', () => {
  for (const period of ['today', 'week', 'month', 'all']) {
    it(`matches a recomputation from the orders: ${period}`, async () => {
      const r = await server.api<Journal>('GET', `/api/v2/statistics/me?period=${period}`, undefined, user.token);
      expect(r.status).toBe(200);
      const expected = recompute(period);
      expect(expected.groups.length).toBeGreaterThan(0);
      const got = r.body.data!;
      // Rates are ratios of integers: equal to the last bit or nearly (float sums in another order).
      const round = (j: Journal) =>
        JSON.parse(JSON.stringify(j, (_k, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? Number(value.toFixed(9)) : value)));
      expect(round(got)).toEqual(round(expected));
    });
  }

  it('has something in every period and more in the longer ones', async () => {
    const trades = (p: string) => recompute(p).groups.reduce((s, g) => s + g.trades, 0);
    expect(trades('today')).toBeGreaterThan(0);
    expect(trades('today')).toBeLessThanOrEqual(trades('week'));
    expect(trades('week')).toBeLessThanOrEqual(trades('month'));
    expect(trades('month')).toBeLessThan(trades('all'));
  });

  it('defaults to all, refuses an unknown period or parameter, needs a login, and shows only the owner', async () => {
    const all = await server.api<Journal>('GET', '/api/v2/statistics/me', undefined, user.token);
    expect(all.body.data!.period).toBe('all');
    const bad = await server.api('GET', '/api/v2/statistics/me?period=year', undefined, user.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Period must be today, week, month or all');
    expect((await server.api('GET', '/api/v2/statistics/me?user_id=1', undefined, user.token)).status).toBe(400);
    expect((await server.api('GET', '/api/v2/statistics/me')).status).toBe(401);
    const theirs = await server.api<Journal>('GET', '/api/v2/statistics/me?period=all', undefined, other.token);
    expect(theirs.body.data!.time_zone).toBe('UTC');
    expect(theirs.body.data!.groups.reduce((s, g) => s + g.trades, 0)).toBe(5);
  });
});

describe('the journal in the device zone (issue 26)', () => {
  it('uses the device zone sent as ?tz= when the profile names none; the profile zone wins; an unknown zone is refused', async () => {
    const device = await server.api<Journal>('GET', '/api/v2/statistics/me?period=today&tz=Asia%2FTokyo', undefined, other.token);
    expect(device.status).toBe(200);
    expect(device.body.data!.time_zone).toBe('Asia/Tokyo');
    expect(device.body.data!.from_ms).toBe(periodStart('today', device.body.data!.to_ms, 'Asia/Tokyo'));
    const profile = await server.api<Journal>('GET', '/api/v2/statistics/me?tz=Asia%2FTokyo', undefined, user.token);
    expect(profile.body.data!.time_zone).toBe('Asia/Kolkata');
    const bad = await server.api('GET', '/api/v2/statistics/me?tz=Mars%2FOlympus', undefined, other.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Unknown time zone');
  });
});

describe('period starts in a zone with daylight saving', () => {
  it('local midnight, Monday and the 1st in America/New_York across the November change', () => {
    // Tuesday 3 November 2026 12:00 UTC = 07:00 EST (DST ended on Sunday 1 November).
    const now = Date.UTC(2026, 10, 3, 12);
    expect(periodStart('today', now, 'America/New_York')).toBe(Date.UTC(2026, 10, 3, 5));
    expect(periodStart('week', now, 'America/New_York')).toBe(Date.UTC(2026, 10, 2, 5));
    // 1 November 00:00 was still EDT (UTC-4).
    expect(periodStart('month', now, 'America/New_York')).toBe(Date.UTC(2026, 10, 1, 4));
    expect(periodStart('all', now, 'America/New_York')).toBeNull();
  });
});
