/** Every query of the audit_log table (append-only: inserts and reads, nothing else). */
import { sql, type Selectable } from 'kysely';
import { dialectOf, type Trx } from '../../db';
import type { AuditLogTable } from '../../db/tables/console';
import type { AuditFields } from './chain';

export type AuditRow = Selectable<AuditLogTable>;

/** An arbitrary constant: the PostgreSQL advisory lock that serialises appends to the chain. */
const CHAIN_LOCK = 270_027;

/**
 * The chain's head inside a write transaction, locked so that concurrent appends form one chain:
 * on SQLite the write transaction (BEGIN IMMEDIATE) already excludes every other writer; on
 * PostgreSQL a transaction-scoped advisory lock does, released at commit or rollback.
 */
export async function lockedHead(trx: Trx): Promise<string | null> {
  if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(${CHAIN_LOCK})`.execute(trx);
  const row = await trx.selectFrom('audit_log').select('hash').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row?.hash ?? null;
}

export async function insertAudit(trx: Trx, row: AuditFields & { prev_hash: string; hash: string }): Promise<number> {
  const inserted = await trx.insertInto('audit_log').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** Rows after `afterId` in id order, a page at a time (verify). */
export function auditPage(db: Trx, afterId: number, limit: number): Promise<AuditRow[]> {
  return db.selectFrom('audit_log').selectAll().where('id', '>', afterId).orderBy('id', 'asc').limit(limit).execute();
}

export interface AuditFilter {
  action?: string;
  operator?: string;
  targetType?: string;
  targetId?: string;
}

function filtered(db: Trx, f: AuditFilter) {
  let q = db.selectFrom('audit_log');
  if (f.action) q = q.where('action', '=', f.action);
  if (f.operator) q = q.where('operator_name', '=', f.operator);
  if (f.targetType) q = q.where('target_type', '=', f.targetType);
  if (f.targetId) q = q.where('target_id', '=', f.targetId);
  return q;
}

export async function listAudit(db: Trx, f: AuditFilter, offset: number, limit: number): Promise<{ rows: AuditRow[]; total: number }> {
  const rows = await filtered(db, f).selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute();
  const total = await filtered(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(total.n) };
}

export async function countAuditActions(db: Trx, action: string, targetType?: string, targetId?: string): Promise<number> {
  const r = await filtered(db, { action, targetType, targetId }).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}
