/**
 * The trading journal (issue 16 item 6): GET /api/v2/statistics/me?period=today|week|month|all,
 * the owner's settled orders summed up, one group per account type (real / demo) and currency
 * (a sum never mixes currencies). Definitions (docs/trader-tools.md):
 * - Settled orders: closed with result won, lost, tie or closed_early (refunds are not trades).
 *   The period is by settlement time (closed_at) in the user's time zone (the profile's
 *   timezone, else the device's zone sent as ?tz=, else UTC): today from local midnight, week from local Monday 00:00, month from
 *   the 1st 00:00, all: everything.
 * - win_rate = wins / (wins + losses) (ties and early closes are neither); null with no decided
 *   order. net_result = sum(payout - stake). average_stake = total stake / trades, toward zero.
 * - break_even_win_rate = 1 / (1 + r) with r the stake-weighted mean payout rate of the decided
 *   orders (sum(stake x rate) / sum(stake)): the win rate at which those orders, with those
 *   stakes, would have netted zero.
 * - best / worst pair: highest / lowest net result (ties: more trades, then pair code).
 * - by_hour: by the hour of day the order was OPENED, in the user's time zone.
 * - Streaks over decided orders in settlement order (ties and early closes neither break nor
 *   extend): the current run (won or lost, with its length) and the longest of each.
 * Amounts on the wire are decimals in the group's currency (like orders).
 */
import * as v from 'valibot';

export const JOURNAL_PERIODS = ['today', 'week', 'month', 'all'] as const;
export type JournalPeriod = (typeof JOURNAL_PERIODS)[number];

/** An IANA zone name this runtime knows ("Europe/Berlin", "UTC"). */
function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const JournalQuerySchema = v.strictObject(
  {
    period: v.optional(v.picklist(JOURNAL_PERIODS, 'Period must be today, week, month or all'), 'all'),
    /** The device's zone (issue 26): used when the profile names none, instead of UTC. */
    tz: v.optional(v.pipe(v.string('Unknown time zone'), v.maxLength(64, 'Unknown time zone'), v.check(knownZone, 'Unknown time zone'))),
  },
  'Unknown query parameter',
);

const BucketFields = {
  trades: v.number(),
  wins: v.number(),
  losses: v.number(),
  net_result: v.number(),
};

export const PairBucketSchema = v.object({ pair_code: v.string(), pair_human_code: v.string(), ...BucketFields });
export const ExpiryBucketSchema = v.object({ expiry_seconds: v.number(), ...BucketFields });
export const HourBucketSchema = v.object({ hour: v.number(), ...BucketFields });

export const StreakSchema = v.object({ kind: v.picklist(['won', 'lost']), length: v.number() });

export const JournalGroupSchema = v.object({
  account: v.picklist(['real', 'demo']),
  currency: v.string(),
  trades: v.number(),
  wins: v.number(),
  losses: v.number(),
  ties: v.number(),
  closed_early: v.number(),
  win_rate: v.nullable(v.number()),
  net_result: v.number(),
  total_stake: v.number(),
  average_stake: v.number(),
  average_payout_rate: v.nullable(v.number()),
  break_even_win_rate: v.nullable(v.number()),
  best_pair: v.nullable(PairBucketSchema),
  worst_pair: v.nullable(PairBucketSchema),
  by_pair: v.array(PairBucketSchema),
  by_expiry: v.array(ExpiryBucketSchema),
  by_hour: v.array(HourBucketSchema),
  streaks: v.object({ current: v.nullable(StreakSchema), longest_win: v.number(), longest_loss: v.number() }),
});
export type JournalGroup = v.InferOutput<typeof JournalGroupSchema>;
export type PairBucket = v.InferOutput<typeof PairBucketSchema>;

export const JournalSchema = v.object({
  period: v.picklist(JOURNAL_PERIODS),
  time_zone: v.string(),
  /** Start of the period (ms), null for all. */
  from_ms: v.nullable(v.number()),
  to_ms: v.number(),
  groups: v.array(JournalGroupSchema),
});
export type Journal = v.InferOutput<typeof JournalSchema>;
