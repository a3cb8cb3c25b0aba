/**
 * The hash-chained tick log (migration 009; docs/market.md, "Tick log chain").
 *
 * Every write of ticks by the market service is one batch: its ticks go into `market_ticks` with
 * the batch's id, and one `market_tick_batches` row records how many ticks, their digest, the
 * previous batch's hash and its own hash. Canonical serialisation (version tt-ticks-v1):
 *
 *   tick line    = pair_code "|" seq "|" time_ms "|" price          (numbers as JavaScript's
 *                  Number#toString writes them: shortest round-trip form, e.g. 95012.5, 1.16004)
 *   tick_digest  = hex SHA-256 of the tick lines, sorted by (pair_code, seq), joined with "\n"
 *   hash         = hex SHA-256 of "tt-ticks-v1\n" id "\n" created_at "\n" tick_count "\n"
 *                  tick_digest "\n" prev_hash
 *   prev_hash    = the previous batch's hash; 64 zeros for batch 1.
 *
 * Changing a price, a time, or dropping a tick breaks the digest of its batch; changing a batch
 * row breaks its hash; replacing both breaks the next batch's prev_hash. `verifyChain` finds the
 * first broken batch. Retention deletes old ticks: a batch older than the retention horizon with
 * fewer ticks than it says is "pruned" (its link is still checked), a newer one is broken.
 */
import { createHash } from 'node:crypto';
import type { DB, Trx } from '../../db';
import type { ChainLink, TickBatchResponse } from '../../../contract/market';
import { insertTicks } from './tick-log';
import type { Tick } from './types';

export const CHAIN_VERSION = 'tt-ticks-v1';
export const GENESIS_HASH = '0'.repeat(64);

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

type TickLike = Pick<Tick, 'pair_code' | 'seq' | 'time' | 'price'>;

/** The canonical text of a batch's ticks (sorted by pair, then seq). */
export function canonicalTicks(ticks: readonly TickLike[]): string {
  return [...ticks]
    .sort((a, b) => (a.pair_code < b.pair_code ? -1 : a.pair_code > b.pair_code ? 1 : a.seq - b.seq))
    .map((t) => `${t.pair_code}|${t.seq}|${t.time}|${t.price}`)
    .join('\n');
}

export const tickDigest = (ticks: readonly TickLike[]) => sha256(canonicalTicks(ticks));

export function batchHash(b: Pick<ChainLink, 'batch_id' | 'created_at' | 'tick_count' | 'tick_digest' | 'prev_hash'>): string {
  return sha256(`${CHAIN_VERSION}\n${b.batch_id}\n${b.created_at}\n${b.tick_count}\n${b.tick_digest}\n${b.prev_hash}`);
}

const rowToLink = (r: { id: number | bigint; created_at: number | bigint; tick_count: number | bigint; tick_digest: string; prev_hash: string; hash: string }): ChainLink => ({
  batch_id: Number(r.id),
  created_at: Number(r.created_at),
  tick_count: Number(r.tick_count),
  tick_digest: r.tick_digest,
  prev_hash: r.prev_hash,
  hash: r.hash,
});

const rowToTick = (r: { pair_code: string; seq: number | bigint; time_ms: number | bigint; price: number }): Tick => ({
  pair_code: r.pair_code,
  seq: Number(r.seq),
  time: Number(r.time_ms),
  price: Number(r.price),
});

/**
 * Write `ticks` into the log as one sealed batch inside `trx`. Ticks already stored and sealed
 * (an earlier batch) stay where they are; ticks an order wrote unsealed in its own transaction
 * are sealed now. The batch covers exactly the ticks it sealed.
 */
export async function sealTicks(trx: Trx, ticks: readonly Tick[], nowMs: number): Promise<ChainLink | null> {
  if (ticks.length === 0) return null;
  await insertTicks(trx, ticks);
  const last = await trx.selectFrom('market_tick_batches').select(['id', 'hash']).orderBy('id', 'desc').limit(1).executeTakeFirst();
  const id = last ? Number(last.id) + 1 : 1;
  const prev_hash = last?.hash ?? GENESIS_HASH;
  const ranges = new Map<string, { from: number; to: number }>();
  for (const t of ticks) {
    const r = ranges.get(t.pair_code);
    if (!r) ranges.set(t.pair_code, { from: t.seq, to: t.seq });
    else {
      r.from = Math.min(r.from, t.seq);
      r.to = Math.max(r.to, t.seq);
    }
  }
  for (const [pair, r] of ranges) {
    await trx
      .updateTable('market_ticks')
      .set({ batch_id: id })
      .where('pair_code', '=', pair)
      .where('seq', '>=', r.from)
      .where('seq', '<=', r.to)
      .where('batch_id', 'is', null)
      .execute();
  }
  const sealed = (await trx.selectFrom('market_ticks').selectAll().where('batch_id', '=', id).execute()).map(rowToTick);
  if (sealed.length === 0) return null;
  const row = { id, created_at: nowMs, tick_count: sealed.length, tick_digest: tickDigest(sealed), prev_hash, hash: '' };
  row.hash = batchHash({ ...row, batch_id: id });
  await trx.insertInto('market_tick_batches').values(row).execute();
  return rowToLink(row);
}

/** The batch row with this id. */
export async function chainLink(db: DB | Trx, batchId: number): Promise<ChainLink | undefined> {
  const row = await db.selectFrom('market_tick_batches').selectAll().where('id', '=', batchId).executeTakeFirst();
  return row ? rowToLink(row) : undefined;
}

/** The batch that sealed the pair's tick `seq`, if sealed. */
export async function linkOfTick(db: DB | Trx, pairCode: string, seq: number): Promise<ChainLink | null> {
  const row = await db
    .selectFrom('market_ticks')
    .innerJoin('market_tick_batches', 'market_tick_batches.id', 'market_ticks.batch_id')
    .select([
      'market_tick_batches.id',
      'market_tick_batches.created_at',
      'market_tick_batches.tick_count',
      'market_tick_batches.tick_digest',
      'market_tick_batches.prev_hash',
      'market_tick_batches.hash',
    ])
    .where('market_ticks.pair_code', '=', pairCode)
    .where('market_ticks.seq', '=', seq)
    .executeTakeFirst();
  return row ? rowToLink(row) : null;
}

export async function chainHead(db: DB | Trx): Promise<ChainLink | undefined> {
  const row = await db.selectFrom('market_tick_batches').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row ? rowToLink(row) : undefined;
}

export interface ChainReport {
  batches: number;
  /** Ticks re-hashed. */
  ticks: number;
  /** Batches whose old ticks retention deleted (link checked, digest not recomputable). */
  pruned: number;
  /** Ticks without a batch (written before migration 009, or by an order before the next write). */
  unsealed: number;
  head: string | null;
  /** The first batch that does not check out, or null when the chain is whole. */
  broken: { batch_id: number; reason: string } | null;
}

const PAGE = 500;

/**
 * Re-check the whole chain from batch 1: consecutive ids, each prev_hash equal to the previous
 * hash, each hash recomputed, each batch's stored ticks hashed to its digest. Stops at the first
 * broken batch. `horizonMs`: batches created before it may have lost ticks to retention.
 */
export async function verifyChain(db: DB | Trx, horizonMs: number): Promise<ChainReport> {
  const report: ChainReport = { batches: 0, ticks: 0, pruned: 0, unsealed: 0, head: null, broken: null };
  const unsealed = await db.selectFrom('market_ticks').select((eb) => eb.fn.countAll<number>().as('n')).where('batch_id', 'is', null).executeTakeFirstOrThrow();
  report.unsealed = Number(unsealed.n);
  let prevHash = GENESIS_HASH;
  let expectId = 1;
  for (;;) {
    const rows = (await db.selectFrom('market_tick_batches').selectAll().where('id', '>=', expectId).orderBy('id').limit(PAGE).execute()).map(rowToLink);
    if (rows.length === 0) break;
    const from = rows[0].batch_id;
    const to = rows[rows.length - 1].batch_id;
    const tickRows = await db
      .selectFrom('market_ticks')
      .selectAll()
      .where('batch_id', '>=', from)
      .where('batch_id', '<=', to)
      .execute();
    const byBatch = new Map<number, Tick[]>();
    for (const r of tickRows) {
      const id = Number(r.batch_id);
      let list = byBatch.get(id);
      if (!list) byBatch.set(id, (list = []));
      list.push(rowToTick(r));
    }
    for (const b of rows) {
      const fail = (reason: string) => {
        report.broken = { batch_id: b.batch_id, reason };
        return report;
      };
      if (b.batch_id !== expectId) return fail(`batch ${expectId} is missing (next is ${b.batch_id})`);
      if (b.prev_hash !== prevHash) return fail('prev_hash is not the previous batch hash');
      if (batchHash(b) !== b.hash) return fail('hash does not match the batch row');
      const ticks = byBatch.get(b.batch_id) ?? [];
      if (ticks.length === b.tick_count) {
        if (tickDigest(ticks) !== b.tick_digest) return fail('ticks do not match tick_digest (a tick was changed)');
        report.ticks += ticks.length;
      } else if (ticks.length < b.tick_count && b.created_at < horizonMs) {
        report.pruned += 1;
      } else {
        return fail(`holds ${ticks.length} ticks, the batch says ${b.tick_count}`);
      }
      report.batches += 1;
      report.head = b.hash;
      prevHash = b.hash;
      expectId = b.batch_id + 1;
    }
  }
  return report;
}

/**
 * Check that `tick` is in the log as sealed by `link`: the batch row is intact, the tick is one of
 * its ticks, and the batch's ticks still hash to its digest. Returns a reason when it is not.
 */
export async function verifyTickInChain(db: DB | Trx, tick: TickLike, link: ChainLink): Promise<string | null> {
  const row = await chainLink(db, link.batch_id);
  if (!row) return `batch ${link.batch_id} is not in the log`;
  if (row.hash !== link.hash || row.prev_hash !== link.prev_hash || row.tick_digest !== link.tick_digest) return `batch ${link.batch_id} differs from the receipt`;
  if (batchHash(row) !== row.hash) return `batch ${link.batch_id} hash does not match its row`;
  const ticks = (await db.selectFrom('market_ticks').selectAll().where('batch_id', '=', link.batch_id).execute()).map(rowToTick);
  if (ticks.length !== row.tick_count || tickDigest(ticks) !== row.tick_digest) return `the ticks of batch ${link.batch_id} do not hash to its digest`;
  const hit = ticks.find((t) => t.pair_code === tick.pair_code && t.seq === tick.seq);
  if (!hit || hit.time !== tick.time || hit.price !== tick.price) return `tick ${tick.pair_code} #${tick.seq} is not in batch ${link.batch_id} as the receipt says`;
  return null;
}

/** Check that the chain links batch `fromId` to batch `toId` (each prev_hash is the previous hash). */
export async function verifyLinks(db: DB | Trx, fromId: number, toId: number): Promise<string | null> {
  if (toId < fromId) return verifyLinks(db, toId, fromId);
  const rows = (await db.selectFrom('market_tick_batches').selectAll().where('id', '>=', fromId).where('id', '<=', toId).orderBy('id').execute()).map(rowToLink);
  if (rows.length !== toId - fromId + 1) return `batches ${fromId}..${toId} are not all in the log`;
  for (let i = 0; i < rows.length; i++) {
    if (batchHash(rows[i]) !== rows[i].hash) return `batch ${rows[i].batch_id} hash does not match its row`;
    if (i > 0 && rows[i].prev_hash !== rows[i - 1].hash) return `batch ${rows[i].batch_id} does not link to batch ${rows[i - 1].batch_id}`;
  }
  return null;
}

/** One batch with its stored ticks in canonical order (GET /api/v2/ticks/batches/{id}); undefined when unknown. */
export async function batchWithTicks(db: DB | Trx, batchId: number): Promise<TickBatchResponse | undefined> {
  const batch = await chainLink(db, batchId);
  if (!batch) return undefined;
  const ticks = (await db.selectFrom('market_ticks').selectAll().where('batch_id', '=', batchId).execute())
    .map(rowToTick)
    .sort((a, b) => (a.pair_code < b.pair_code ? -1 : a.pair_code > b.pair_code ? 1 : a.seq - b.seq));
  return { batch, ticks, pruned: ticks.length < batch.tick_count };
}
