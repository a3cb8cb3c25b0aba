/** Every query of the approval_requests table. */
import type { Insertable, Selectable } from 'kysely';
import { forUpdate, type Trx } from '../../db';
import type { ApprovalRequestsTable } from '../../db/tables/console';

export type ApprovalRow = Selectable<ApprovalRequestsTable>;

export function findApproval(db: Trx, id: number): Promise<ApprovalRow | undefined> {
  return db.selectFrom('approval_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

export function approvalForUpdate(trx: Trx, id: number): Promise<ApprovalRow | undefined> {
  return forUpdate(trx, trx.selectFrom('approval_requests').selectAll().where('id', '=', id)).executeTakeFirst();
}

export function pendingApprovalFor(db: Trx, kind: string, targetType: string, targetId: string): Promise<ApprovalRow | undefined> {
  return db
    .selectFrom('approval_requests')
    .selectAll()
    .where('kind', '=', kind)
    .where('target_type', '=', targetType)
    .where('target_id', '=', targetId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
}

export async function insertApproval(trx: Trx, row: Insertable<ApprovalRequestsTable>): Promise<number> {
  const r = await trx.insertInto('approval_requests').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

/** Decide a pending request; false when it was not pending any more. */
export async function decideApproval(trx: Trx, id: number, status: 'executed' | 'rejected', by: number, reason: string | null, now: number): Promise<boolean> {
  const r = await trx
    .updateTable('approval_requests')
    .set({ status, decided_by: by, decision_reason: reason, decided_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function listApprovals(
  db: Trx,
  f: { status: string; kind: string; offset: number; limit: number },
): Promise<{ rows: ApprovalRow[]; total: number }> {
  const base = () => {
    let q = db.selectFrom('approval_requests');
    if (f.status !== 'all') q = q.where('status', '=', f.status);
    if (f.kind !== 'all') q = q.where('kind', '=', f.kind);
    return q;
  };
  const total = await base().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base().selectAll().orderBy('id', 'desc').offset(f.offset).limit(f.limit).execute();
  return { rows, total: Number(total.n) };
}

export async function pendingApprovalCount(db: Trx): Promise<number> {
  const r = await db.selectFrom('approval_requests').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow();
  return Number(r.n);
}
