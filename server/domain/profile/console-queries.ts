/**
 * Profile data as the operator console reads it (issue 27): nicknames (search and display) and
 * the KYC queue, a page at a time with its total, and one stored document file by id for the
 * reviewer to download.
 */
import fs from 'node:fs/promises';
import type { Trx } from '../../db';
import { notFound } from '../errors';
import { documentPath } from './storage';


export async function userIdsByNickname(db: Trx, q: string, limit: number): Promise<number[]> {
  const needle = q.trim().toLowerCase();
  if (!needle) return [];
  const rows = await db
    .selectFrom('user_profiles')
    .select('user_id')
    .where((eb) => eb(eb.fn('lower', ['nickname']), 'like', `%${needle}%`))
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.user_id));
}

export async function nicknamesOf(db: Trx, userIds: number[]): Promise<Map<number, string | null>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom('user_profiles').select(['user_id', 'nickname']).where('user_id', 'in', userIds).execute();
  return new Map(rows.map((r) => [Number(r.user_id), r.nickname]));
}

export interface KycDocument {
  id: number;
  user_id: number;
  type: string;
  status: string;
  rejection_reason: string | null;
  created_at: number;
  reviewed_at: number | null;
  files: { id: number; name: string; mime: string; size: number }[];
}

/** Documents by status (`pending` = uploaded or under review), oldest first, and the total. */
export async function kycPage(
  db: Trx,
  f: { status: 'pending' | 'approved' | 'rejected' | 'all'; userId?: number; offset: number; limit: number },
): Promise<{ rows: KycDocument[]; total: number }> {
  const base = () => {
    let q = db.selectFrom('documents');
    if (f.status === 'pending') q = q.where('status', 'in', ['uploaded', 'pending']);
    else if (f.status !== 'all') q = q.where('status', '=', f.status);
    if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
    return q;
  };
  const total = await base().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base()
    .selectAll()
    .orderBy('id', f.userId !== undefined ? 'desc' : 'asc')
    .offset(f.offset)
    .limit(f.limit)
    .execute();
  const ids = rows.map((r) => Number(r.id));
  const files = ids.length
    ? await db.selectFrom('document_files').select(['id', 'document_id', 'original_name', 'mime', 'size']).where('document_id', 'in', ids).orderBy('id').execute()
    : [];
  return {
    total: Number(total.n),
    rows: rows.map((r) => ({
      id: Number(r.id),
      user_id: Number(r.user_id),
      type: r.type,
      status: r.status,
      rejection_reason: r.rejection_reason,
      created_at: Number(r.created_at),
      reviewed_at: r.reviewed_at === null ? null : Number(r.reviewed_at),
      files: files.filter((x) => Number(x.document_id) === Number(r.id)).map((x) => ({ id: Number(x.id), name: x.original_name, mime: x.mime, size: Number(x.size) })),
    })),
  };
}

/** One stored document file by its id, for an operator (any user's). */
export async function documentFileForOperator(db: Trx, dataDir: string, fileId: number): Promise<{ name: string; mime: string; data: Buffer; userId: number; documentId: number }> {
  const row = await db.selectFrom('document_files').selectAll().where('id', '=', fileId).executeTakeFirst();
  if (!row) throw notFound('File not found');
  const p = documentPath(dataDir, Number(row.user_id), row.storage_name);
  if (!p) throw notFound('File not found');
  try {
    return { name: row.original_name, mime: row.mime, data: await fs.readFile(p), userId: Number(row.user_id), documentId: Number(row.document_id) };
  } catch {
    throw notFound('File not found');
  }
}
