/**
 * The audit chain's hash: SHA-256 (hex) over the previous row's hash and the row's canonical
 * JSON (keys sorted, no spaces; every column but `id`, `prev_hash` and `hash` itself, so a row's
 * hash holds everything an edit could change). The first row's prev_hash is GENESIS. Verifying
 * recomputes every hash in id order: the first row whose stored prev_hash is not the previous
 * row's hash, or whose hash is not the recomputed one, is the first broken row.
 */
import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { AuditLogTable } from '../../db/tables/console';

export const GENESIS = '0'.repeat(64);

/** The fields of an audit row that its hash covers: every column but `id`, `prev_hash` and `hash`. */
export type AuditFields = Omit<Selectable<AuditLogTable>, 'id' | 'prev_hash' | 'hash'>;

/** JSON with the keys of every object sorted, so the same value always has the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function auditHash(prevHash: string, row: AuditFields): string {
  const fields: AuditFields = {
    operator_id: row.operator_id === null ? null : Number(row.operator_id),
    operator_name: row.operator_name,
    role: row.role,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    reason: row.reason,
    before_json: row.before_json,
    after_json: row.after_json,
    ip: row.ip,
    source: row.source,
    os_user: row.os_user,
    created_at: Number(row.created_at),
  };
  return crypto.createHash('sha256').update(prevHash).update('\n').update(canonicalJson(fields)).digest('hex');
}
