/**
 * The trading journal (GET /api/v2/statistics/me): the owner's settled orders summed up by SQL
 * aggregates, one group per account type and currency. Definitions in contract/statistics.ts and
 * docs/trader-tools.md. Only the streaks need the results in order; they read that one column.
 */
import { findCurrency } from '../../../contract/currencies';
import { fromMinor } from '../../../contract/money';
import type { Journal, JournalGroup, JournalPeriod, PairBucket } from '../../../contract/statistics';
import type { DB } from '../../db';
import { localHour, periodStart, validZone } from './zone';
import { settledOrderAggregates } from '../orders/repository';
import { storedTimeZone } from '../profile/repository';

/** Hour buckets are quarter hours (every zone's offset is a multiple of 15 min). */
const QUARTER_MS = 900_000;

type Key = string;
const keyOf = (account: string, currency: string): Key => `${account}|${currency}`;

interface Sums {
  trades: number;
  wins: number;
  losses: number;
  net: number;
}

function addTo(target: Sums, row: { trades: unknown; wins: unknown; losses: unknown; net: unknown }) {
  target.trades += Number(row.trades);
  target.wins += Number(row.wins ?? 0);
  target.losses += Number(row.losses ?? 0);
  target.net += Number(row.net ?? 0);
}

/** The profile's zone, else the device's (the journal's ?tz=), else UTC. */
export async function userTimeZone(db: DB, userId: number, deviceZone?: string): Promise<string> {
  return validZone((await storedTimeZone(db, userId)) || deviceZone);
}

export async function buildJournal(db: DB, userId: number, period: JournalPeriod, now: number, deviceZone?: string): Promise<Journal> {
  const zone = await userTimeZone(db, userId, deviceZone);
  const from = periodStart(period, now, zone);
  const { totals, byPair, byExpiry, byQuarter, sequence } = await settledOrderAggregates(db, userId, from, now, QUARTER_MS);

  const groups: JournalGroup[] = [];
  for (const t of totals) {
    const key = keyOf(t.account, t.currency);
    const decimals = findCurrency(t.currency)?.decimals ?? 2;
    const money = (minor: number) => fromMinor(minor, decimals);
    const bucket = <T extends object>(extra: T, s: Sums) => ({ ...extra, trades: s.trades, wins: s.wins, losses: s.losses, net_result: money(s.net) });

    const pairs = byPair
      .filter((r) => keyOf(r.account, r.currency) === key)
      .map((r) => {
        const s: Sums = { trades: 0, wins: 0, losses: 0, net: 0 };
        addTo(s, r);
        return { row: bucket({ pair_code: r.pair_code, pair_human_code: r.pair_human_code }, s), net: s.net };
      })
      .sort((a, b) => b.net - a.net || b.row.trades - a.row.trades || a.row.pair_code.localeCompare(b.row.pair_code));
    const expiries = byExpiry
      .filter((r) => keyOf(r.account, r.currency) === key)
      .map((r) => {
        const s: Sums = { trades: 0, wins: 0, losses: 0, net: 0 };
        addTo(s, r);
        return bucket({ expiry_seconds: Number(r.expiry_seconds) }, s);
      })
      .sort((a, b) => a.expiry_seconds - b.expiry_seconds);
    const hours = new Map<number, Sums>();
    for (const r of byQuarter) {
      if (keyOf(r.account, r.currency) !== key) continue;
      const hour = localHour(Number(r.quarter) * QUARTER_MS, zone);
      const s = hours.get(hour) ?? { trades: 0, wins: 0, losses: 0, net: 0 };
      addTo(s, r);
      hours.set(hour, s);
    }
    const byHour = [...hours.entries()].sort((a, b) => a[0] - b[0]).map(([hour, s]) => bucket({ hour }, s));

    const results = sequence.filter((r) => keyOf(r.account, r.currency) === key).map((r) => r.result as 'won' | 'lost');
    const streaks = streaksOf(results);

    const tradesCount = Number(t.trades);
    const winsCount = Number(t.wins ?? 0);
    const lossesCount = Number(t.losses ?? 0);
    const stake = Number(t.stake ?? 0);
    const decidedStake = Number(t.decided_stake ?? 0);
    const averageRate = decidedStake > 0 ? Number(t.weighted_bp ?? 0) / decidedStake / 10_000 : null;
    const best = pairs[0]?.row ?? null;
    const worst = pairs.length ? (pairs[pairs.length - 1]?.row ?? null) : null;
    groups.push({
      account: t.account === 'real' ? 'real' : 'demo',
      currency: t.currency,
      trades: tradesCount,
      wins: winsCount,
      losses: lossesCount,
      ties: Number(t.ties ?? 0),
      closed_early: Number(t.closed_early ?? 0),
      win_rate: winsCount + lossesCount > 0 ? winsCount / (winsCount + lossesCount) : null,
      net_result: money(Number(t.net ?? 0)),
      total_stake: money(stake),
      average_stake: money(tradesCount > 0 ? Math.trunc(stake / tradesCount) : 0),
      average_payout_rate: averageRate,
      break_even_win_rate: averageRate === null ? null : 1 / (1 + averageRate),
      best_pair: best as PairBucket | null,
      worst_pair: worst as PairBucket | null,
      by_pair: pairs.map((p) => p.row),
      by_expiry: expiries,
      by_hour: byHour,
      streaks,
    });
  }
  // Real money first, then by currency.
  groups.sort((a, b) => (a.account === b.account ? a.currency.localeCompare(b.currency) : a.account === 'real' ? -1 : 1));
  return { period, time_zone: zone, from_ms: from, to_ms: now, groups };
}

/** The current run and the longest win and loss runs of a won/lost sequence (oldest first). */
export function streaksOf(results: readonly ('won' | 'lost')[]): JournalGroup['streaks'] {
  let longestWin = 0;
  let longestLoss = 0;
  let kind: 'won' | 'lost' | null = null;
  let length = 0;
  for (const r of results) {
    if (r === kind) length += 1;
    else {
      kind = r;
      length = 1;
    }
    if (kind === 'won') longestWin = Math.max(longestWin, length);
    else longestLoss = Math.max(longestLoss, length);
  }
  return { current: kind ? { kind, length } : null, longest_win: longestWin, longest_loss: longestLoss };
}
