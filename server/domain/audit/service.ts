/**
 * The audit trail (issue 27 item 4): every console and CLI action appends one row, in the same
 * transaction as the change it records (`append(trx, entry)`), so a change without its row, or a
 * row without its change, cannot be committed. Rows are chained (chain.ts) and append-only in
 * SQL (migration 016's triggers). `verify` walks the chain and names the first broken row.
 */
import type { DB, Trx } from '../../db';
import { GENESIS, auditHash, type AuditFields } from './chain';
import { auditPage, insertAudit, lockedHead } from './repository';

/** Who acted: an operator through the console, or the CLI (operator "cli", with the OS user). */
export interface AuditActor {
  operatorId: number | null;
  name: string;
  role: string;
  source: 'console' | 'cli';
  ip?: string | null;
  osUser?: string | null;
}

export interface AuditEntry {
  action: string;
  targetType?: string | null;
  targetId?: string | number | null;
  reason?: string | null;
  before?: unknown;
  after?: unknown;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** Append one row to the chain inside `trx` (a write transaction). */
export async function appendAudit(trx: Trx, actor: AuditActor, entry: AuditEntry, now: number): Promise<number> {
  const fields: AuditFields = {
    operator_id: actor.operatorId,
    operator_name: actor.name,
    role: actor.role,
    action: entry.action,
    target_type: entry.targetType ?? null,
    target_id: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
    reason: entry.reason ?? null,
    before_json: json(entry.before),
    after_json: json(entry.after),
    ip: actor.ip ?? null,
    source: actor.source,
    os_user: actor.osUser ?? null,
    created_at: now,
  };
  const prev = (await lockedHead(trx)) ?? GENESIS;
  return insertAudit(trx, { ...fields, prev_hash: prev, hash: auditHash(prev, fields) });
}

export interface VerifyResult {
  ok: boolean;
  checked: number;
  /** The first row whose link or hash does not hold. */
  brokenId: number | null;
}

/** Walk the whole chain in id order. */
export async function verifyAudit(db: DB): Promise<VerifyResult> {
  let prev = GENESIS;
  let after = 0;
  let checked = 0;
  for (;;) {
    const rows = await auditPage(db, after, 1000);
    for (const row of rows) {
      checked++;
      if (row.prev_hash !== prev || auditHash(prev, row) !== row.hash) return { ok: false, checked, brokenId: Number(row.id) };
      prev = row.hash;
      after = Number(row.id);
    }
    if (rows.length < 1000) return { ok: true, checked, brokenId: null };
  }
}
