/**
 * Calendar arithmetic in an IANA time zone with Intl only (no tz database of our own): the
 * offset at an instant, local midnight of a day, and the local hour of an instant. Every zone in
 * use today has an offset that is a whole number of quarter hours, which the journal's hour
 * buckets rely on (docs/trader-tools.md).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** A zone name Intl knows, else 'UTC'. */
export function validZone(zone: string | null | undefined): string {
  if (!zone) return 'UTC';
  try {
    formatter(zone);
    return zone;
  } catch {
    return 'UTC';
  }
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function localParts(ms: number, zone: string): LocalParts {
  const parts = formatter(zone).formatToParts(new Date(ms));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour') % 24, minute: get('minute'), second: get('second') };
}

/** Local time minus UTC at this instant, in ms (+3 h for Europe/Moscow). */
export function zoneOffsetMs(ms: number, zone: string): number {
  const p = localParts(ms, zone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant of local 00:00 of a local calendar day (month 1-12; day may overflow). */
export function localMidnight(year: number, month: number, day: number, zone: string): number {
  const wall = Date.UTC(year, month - 1, day);
  let guess = wall;
  for (let i = 0; i < 3; i++) guess = wall - zoneOffsetMs(guess, zone);
  return guess;
}

/** The hour of day (0-23) of an instant in the zone. */
export function localHour(ms: number, zone: string): number {
  return localParts(ms, zone).hour;
}

export type PeriodName = 'today' | 'week' | 'month' | 'all';

/** Where a period starts (null for all): local midnight today, local Monday 00:00, the 1st 00:00. */
export function periodStart(period: PeriodName, now: number, zone: string): number | null {
  if (period === 'all') return null;
  const p = localParts(now, zone);
  if (period === 'today') return localMidnight(p.year, p.month, p.day, zone);
  if (period === 'month') return localMidnight(p.year, p.month, 1, zone);
  // ISO week: Monday first. The weekday of the local date, 0 = Monday.
  const weekday = (new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay() + 6) % 7;
  return localMidnight(p.year, p.month, p.day - weekday, zone);
}
