/**
 * The tick log: an in-memory ring per pair for the last few minutes (answers the hot lookups
 * without the database) and the persisted table behind it (batched inserts, lookups for older
 * ticks, retention). Ticks of one pair have consecutive seq numbers and non-decreasing times,
 * which is what lets the ring store only times and prices.
 */
import type { DB, Trx } from '../../db';
import { preparedRows } from '../../db/prepared';
import { entryTickOf, exitTickOf, highestEntrySeqs, highestExitSeqs } from '../orders/repository';
import type { Tick } from './types';

/** A miss: the ring cannot answer for that time (older than what it holds); ask the database. */
export const MISS = Symbol('ring-miss');

export class TickRing {
  private readonly times: Float64Array;
  private readonly prices: Float64Array;
  /** Index of the oldest element. */
  private head = 0;
  private size = 0;
  private oldestSeq = 0;

  constructor(
    readonly pairCode: string,
    readonly capacity: number,
  ) {
    this.times = new Float64Array(capacity);
    this.prices = new Float64Array(capacity);
  }

  get length(): number {
    return this.size;
  }

  push(tick: Tick): void {
    if (this.size > 0 && tick.seq !== this.oldestSeq + this.size) {
      // Not the next tick of this ring: start over from it rather than mislabel seqs.
      this.size = 0;
    }
    if (this.size === 0) {
      this.head = 0;
      this.oldestSeq = tick.seq;
    }
    if (this.size === this.capacity) {
      this.head = (this.head + 1) % this.capacity;
      this.oldestSeq += 1;
      this.size -= 1;
    }
    const at = (this.head + this.size) % this.capacity;
    this.times[at] = tick.time;
    this.prices[at] = tick.price;
    this.size += 1;
  }

  private at(i: number): Tick {
    const idx = (this.head + i) % this.capacity;
    return { pair_code: this.pairCode, seq: this.oldestSeq + i, time: this.times[idx], price: this.prices[idx] };
  }

  private timeAt(i: number): number {
    return this.times[(this.head + i) % this.capacity];
  }

  latest(): Tick | undefined {
    return this.size ? this.at(this.size - 1) : undefined;
  }

  oldestTime(): number | undefined {
    return this.size ? this.timeAt(0) : undefined;
  }

  /** The last tick with time <= timeMs, or MISS when the answer may be older than the ring. */
  atOrBefore(timeMs: number): Tick | typeof MISS {
    if (this.size === 0 || timeMs < this.timeAt(0)) return MISS;
    // Binary search for the last index with time <= timeMs.
    let lo = 0;
    let hi = this.size - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.timeAt(mid) <= timeMs) lo = mid;
      else hi = mid - 1;
    }
    return this.at(lo);
  }

  /**
   * Ticks with fromMs <= time <= toMs, oldest first, or MISS when some may be older than the
   * ring (an evicted tick can share the oldest kept tick's time, hence the strict comparison).
   */
  between(fromMs: number, toMs: number): Tick[] | typeof MISS {
    if (this.size === 0 || fromMs <= this.timeAt(0)) return MISS;
    return this.since(fromMs, toMs);
  }

  /** Whatever the ring holds in [fromMs, toMs], oldest first (possibly incomplete at the old end). */
  since(fromMs: number, toMs: number): Tick[] {
    const out: Tick[] = [];
    for (let i = 0; i < this.size; i++) {
      const t = this.timeAt(i);
      if (t > toMs) break;
      if (t >= fromMs) out.push(this.at(i));
    }
    return out;
  }
}

// ---- persistence -------------------------------------------------------------------------

type TickRow = { pair_code: string; seq: number | string | bigint; time_ms: number | string | bigint; price: number | string };

const rowToTick = (r: TickRow): Tick => ({
  pair_code: r.pair_code,
  seq: Number(r.seq),
  time: Number(r.time_ms),
  price: Number(r.price),
});

/** Insert a batch of ticks; a tick already stored (same pair and seq) is left as it is. */
export async function insertTicks(trx: Trx, ticks: readonly Tick[]): Promise<void> {
  if (ticks.length === 0) return;
  await insertTickRows.run(
    trx,
    ticks.map((t) => ({ pair_code: t.pair_code, seq: t.seq, time_ms: t.time, price: t.price })),
  );
}

// Built once per row count (server/db/prepared.ts): every order placed logs its entry tick here,
// and the market's batched write every second.
const insertTickRows = preparedRows((db, rows: { pair_code: string; seq: number; time_ms: number; price: number }[]) =>
  db
    .insertInto('market_ticks')
    .values(rows.map((r) => ({ pair_code: r.pair_code, seq: r.seq, time_ms: r.time_ms, price: r.price })))
    .onConflict((oc) => oc.columns(['pair_code', 'seq']).doNothing()),
);

/** The newest (`desc`) or oldest (`asc`) tick the log holds for a pair. */
async function endStoredTick(db: DB | Trx, pairCode: string, order: 'asc' | 'desc'): Promise<Tick | undefined> {
  const row = await db.selectFrom('market_ticks').selectAll().where('pair_code', '=', pairCode).orderBy('seq', order).limit(1).executeTakeFirst();
  return row ? rowToTick(row) : undefined;
}

export function lastStoredTick(db: DB | Trx, pairCode: string): Promise<Tick | undefined> {
  return endStoredTick(db, pairCode, 'desc');
}

export async function storedTickAtOrBefore(db: DB | Trx, pairCode: string, timeMs: number): Promise<Tick | undefined> {
  const row = await db
    .selectFrom('market_ticks')
    .selectAll()
    .where('pair_code', '=', pairCode)
    .where('time_ms', '<=', timeMs)
    .orderBy('time_ms', 'desc')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? rowToTick(row) : undefined;
}

export async function storedTicksBetween(db: DB | Trx, pairCode: string, fromMs: number, toMs: number): Promise<Tick[]> {
  const rows = await db
    .selectFrom('market_ticks')
    .selectAll()
    .where('pair_code', '=', pairCode)
    .where('time_ms', '>=', fromMs)
    .where('time_ms', '<=', toMs)
    .orderBy('seq', 'asc')
    .execute();
  return rows.map(rowToTick);
}

/**
 * Delete a pair's ticks older than `cutoffMs`, except the newest tick at or before the cutoff:
 * "the last tick at or before t" stays answerable for every t >= cutoff. Returns rows deleted.
 */
export async function pruneTicks(trx: Trx, pairCode: string, cutoffMs: number): Promise<number> {
  const keep = await trx
    .selectFrom('market_ticks')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('pair_code', '=', pairCode)
    .where('time_ms', '<=', cutoffMs)
    .executeTakeFirst();
  if (keep?.seq === null || keep?.seq === undefined) return 0;
  const result = await trx
    .deleteFrom('market_ticks')
    .where('pair_code', '=', pairCode)
    .where('seq', '<', Number(keep.seq))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---- reading the log back by seq (orders' tick route, the operator CLI) ------------------

/** The logged tick of a pair with exactly this seq, if the log still has it. */
export async function storedTickBySeq(db: DB | Trx, pairCode: string, seq: number): Promise<Tick | undefined> {
  const row = await db
    .selectFrom('market_ticks')
    .selectAll()
    .where('pair_code', '=', pairCode)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row ? rowToTick(row) : undefined;
}

/** Logged ticks with fromSeq <= seq <= toSeq, oldest first, at most `limit`. */
export async function storedTicksBySeq(db: DB | Trx, pairCode: string, fromSeq: number, toSeq: number, limit: number): Promise<Tick[]> {
  const rows = await db
    .selectFrom('market_ticks')
    .selectAll()
    .where('pair_code', '=', pairCode)
    .where('seq', '>=', fromSeq)
    .where('seq', '<=', toSeq)
    .orderBy('seq', 'asc')
    .limit(limit)
    .execute();
  return rows.map(rowToTick);
}

/** How many ticks with fromSeq <= seq <= toSeq the log holds. */
export async function countStoredTicks(db: DB | Trx, pairCode: string, fromSeq: number, toSeq: number): Promise<number> {
  const row = await db
    .selectFrom('market_ticks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('pair_code', '=', pairCode)
    .where('seq', '>=', fromSeq)
    .where('seq', '<=', toSeq)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The oldest tick the log still holds for a pair (retention deletes from the old end only). */
export function oldestStoredTick(db: DB | Trx, pairCode: string): Promise<Tick | undefined> {
  return endStoredTick(db, pairCode, 'asc');
}

/**
 * Whether retention has deleted ticks of this pair from `fromSeq` on. Retention only deletes
 * ticks older than a kept tick that was at or before its cutoff (now - retention hours at the
 * time it ran), so a pair whose oldest kept tick is later than `fromSeq` AND at or before
 * `horizonMs` (now - retention hours) lost that part to retention; an oldest tick newer than the
 * horizon means the missing ticks were never written (a crash before the batched write).
 */
export async function prunedFrom(db: DB | Trx, pairCode: string, fromSeq: number, horizonMs: number): Promise<boolean> {
  const oldest = await oldestStoredTick(db, pairCode);
  return !!oldest && oldest.seq > fromSeq && oldest.time <= horizonMs;
}

/**
 * Per pair, the recorded order tick (entry or exit) with the highest seq, when that seq is above
 * `logged(pair)` (the log's highest seq for the pair, 0 without any). Orders record the ticks
 * they traded on; if one of those never reached the log (a crash before the batched write, on a
 * database from before entry and exit ticks were written with the order), its seq must still
 * never be reused. Two grouped scans of `orders`, then one lookup per pair that needs it (the
 * orders area's reads: orders/repository.ts).
 */
export async function highestOrderTicks(db: DB | Trx, logged: (pairCode: string) => number): Promise<Map<string, Tick>> {
  const out = new Map<string, Tick>();
  const keep = (t: Tick) => {
    const have = out.get(t.pair_code);
    if (!have || t.seq > have.seq) out.set(t.pair_code, t);
  };
  const entries = await highestEntrySeqs(db);
  for (const e of entries) {
    if (e.seq === null || Number(e.seq) <= logged(e.pair_code)) continue;
    const row = await entryTickOf(db, e.pair_code, Number(e.seq));
    if (row) keep({ pair_code: e.pair_code, seq: Number(e.seq), time: Number(row.entry_tick_time), price: Number(row.open_price) });
  }
  const exits = await highestExitSeqs(db);
  for (const e of exits) {
    if (e.seq === null || Number(e.seq) <= Math.max(logged(e.pair_code), out.get(e.pair_code)?.seq ?? 0)) continue;
    const row = await exitTickOf(db, e.pair_code, Number(e.seq));
    if (row && row.exit_tick_time !== null && row.close_price !== null) {
      keep({ pair_code: e.pair_code, seq: Number(e.seq), time: Number(row.exit_tick_time), price: Number(row.close_price) });
    }
  }
  return out;
}
