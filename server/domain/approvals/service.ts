/**
 * Four eyes (issue 27 item 3): a change that needs a second operator is first a request row
 * (pending). Another operator whose role may make that change approves it, and the change is
 * carried out (its executor) in the SAME transaction that marks the request executed and appends
 * the audit row; the row is locked and moved only from pending, so a double click or two
 * approvers racing execute it once (the second gets 409). The requester can never approve their
 * own request: 403 and an audit row of the attempt, like a role without the permission. Either
 * side may reject a pending request (with a reason); nothing is changed then.
 */
import {
  APPROVAL_PERMISSION,
  ConsoleText,
  roleAllows,
  type Approval,
  type ApprovalKind,
  type ApprovalQuery,
  type ApprovalRequestStatus,
  type OperatorRole,
} from '../../../contract/console';
import type { Trx } from '../../db';
import { appendAudit, type AuditActor } from '../audit/service';
import { conflict, forbidden, notFound } from '../errors';
import type { ApprovalsDeps } from './deps';
import {
  approvalForUpdate,
  decideApproval,
  findApproval,
  insertApproval,
  listApprovals,
  pendingApprovalCount,
  pendingApprovalFor,
  type ApprovalRow,
} from './repository';

/** An operator acting in the console (an audit actor with a known operator and role). */
export type OperatorActor = AuditActor & { operatorId: number; role: OperatorRole };

export interface NewApproval {
  kind: ApprovalKind;
  payload: Record<string, unknown>;
  targetType: string;
  targetId: string | number;
  reason: string;
}

export class ApprovalsService {
  constructor(private readonly deps: ApprovalsDeps) {}

  private async wire(rows: ApprovalRow[]): Promise<Approval[]> {
    const ids = [...new Set(rows.flatMap((r) => [Number(r.requested_by), ...(r.decided_by === null ? [] : [Number(r.decided_by)])]))];
    const names = await this.deps.names(ids);
    return rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind as ApprovalKind,
      status: r.status as ApprovalRequestStatus,
      payload: JSON.parse(r.payload) as Record<string, unknown>,
      target_type: r.target_type,
      target_id: r.target_id,
      requested_by: Number(r.requested_by),
      requested_by_name: names.get(Number(r.requested_by)) ?? '?',
      request_reason: r.request_reason,
      decided_by: r.decided_by === null ? null : Number(r.decided_by),
      decided_by_name: r.decided_by === null ? null : (names.get(Number(r.decided_by)) ?? '?'),
      decision_reason: r.decision_reason,
      created_at_ms: Number(r.created_at),
      decided_at_ms: r.decided_at === null ? null : Number(r.decided_at),
    }));
  }

  async get(id: number): Promise<Approval> {
    const row = await findApproval(this.deps.db, id);
    if (!row) throw notFound(ConsoleText.approvalNotFound);
    return (await this.wire([row]))[0];
  }

  async list(q: Pick<ApprovalQuery, 'status' | 'kind' | 'page' | 'per_page'>): Promise<{ approvals: Approval[]; total: number }> {
    const { rows, total } = await listApprovals(this.deps.db, { status: q.status, kind: q.kind, offset: (q.page - 1) * q.per_page, limit: q.per_page });
    return { approvals: await this.wire(rows), total };
  }

  /** The pending request for a kind and target, if any. */
  async pendingFor(kind: ApprovalKind, targetType: string, targetId: string | number): Promise<Approval | null> {
    const row = await pendingApprovalFor(this.deps.db, kind, targetType, String(targetId));
    return row ? (await this.wire([row]))[0] : null;
  }

  pendingCount(): Promise<number> {
    return pendingApprovalCount(this.deps.db);
  }

  /**
   * Ask for a second operator, inside the caller's transaction (with its audit row). A pending
   * request for the same kind and target is answered instead of a second one.
   */
  async requestIn(trx: Trx, input: NewApproval, actor: OperatorActor, now: number): Promise<number> {
    const targetId = String(input.targetId);
    const existing = await pendingApprovalFor(trx, input.kind, input.targetType, targetId);
    if (existing) return Number(existing.id);
    const id = await insertApproval(trx, {
      kind: input.kind,
      payload: JSON.stringify(input.payload),
      target_type: input.targetType,
      target_id: targetId,
      status: 'pending',
      requested_by: actor.operatorId,
      request_reason: input.reason,
      decided_by: null,
      decision_reason: null,
      created_at: now,
      decided_at: null,
    });
    await appendAudit(trx, actor, { action: 'approval.request', targetType: input.targetType, targetId, reason: input.reason, after: { approval_id: id, kind: input.kind, payload: input.payload } }, now);
    return id;
  }

  /** A refused attempt: its own audit row (committed), then 403. */
  private async refuse(actor: OperatorActor, row: ApprovalRow, message?: string): Promise<never> {
    await this.deps.tx((trx) =>
      appendAudit(trx, actor, { action: 'forbidden', targetType: 'approval', targetId: row.id, after: { attempted: `approval.approve:${row.kind}`, why: message ?? 'role' } }, this.deps.now()),
    );
    throw forbidden(message);
  }

  async approve(id: number, actor: OperatorActor, reason: string): Promise<Approval> {
    const row = await findApproval(this.deps.db, id);
    if (!row) throw notFound(ConsoleText.approvalNotFound);
    if (Number(row.requested_by) === actor.operatorId) await this.refuse(actor, row, ConsoleText.requesterCannotApprove);
    if (!roleAllows(actor.role, APPROVAL_PERMISSION[row.kind as ApprovalKind])) await this.refuse(actor, row);
    await this.deps.tx(async (trx) => {
      const now = this.deps.now();
      const current = await approvalForUpdate(trx, id);
      if (!current || current.status !== 'pending') throw conflict(ConsoleText.approvalDecided);
      const payload = JSON.parse(current.payload) as Record<string, unknown>;
      const result = await this.deps.executors[current.kind as ApprovalKind](trx, { id, payload }, now);
      if (!(await decideApproval(trx, id, 'executed', actor.operatorId, reason || null, now))) throw conflict(ConsoleText.approvalDecided);
      await appendAudit(
        trx,
        actor,
        { action: 'approval.approve', targetType: current.target_type, targetId: current.target_id, reason: reason || null, before: { approval_id: id, status: 'pending' }, after: { approval_id: id, status: 'executed', kind: current.kind, payload, result } },
        now,
      );
    });
    return this.get(id);
  }

  /**
   * Close the pending request for a target whose subject was decided another way (a waiting
   * withdrawal rejected outright), inside the caller's transaction, with its audit row.
   */
  async closePendingIn(trx: Trx, kind: ApprovalKind, targetType: string, targetId: string | number, actor: OperatorActor, reason: string, now: number): Promise<void> {
    const row = await pendingApprovalFor(trx, kind, targetType, String(targetId));
    if (!row || !(await decideApproval(trx, Number(row.id), 'rejected', actor.operatorId, reason, now))) return;
    await appendAudit(trx, actor, { action: 'approval.reject', targetType, targetId: String(targetId), reason, before: { approval_id: Number(row.id), status: 'pending' }, after: { approval_id: Number(row.id), status: 'rejected' } }, now);
  }

  async reject(id: number, actor: OperatorActor, reason: string): Promise<Approval> {
    const row = await findApproval(this.deps.db, id);
    if (!row) throw notFound(ConsoleText.approvalNotFound);
    if (Number(row.requested_by) !== actor.operatorId && !roleAllows(actor.role, APPROVAL_PERMISSION[row.kind as ApprovalKind])) await this.refuse(actor, row);
    await this.deps.tx(async (trx) => {
      const now = this.deps.now();
      const current = await approvalForUpdate(trx, id);
      if (!current || current.status !== 'pending') throw conflict(ConsoleText.approvalDecided);
      await decideApproval(trx, id, 'rejected', actor.operatorId, reason, now);
      await appendAudit(trx, actor, { action: 'approval.reject', targetType: current.target_type, targetId: current.target_id, reason, before: { approval_id: id, status: 'pending' }, after: { approval_id: id, status: 'rejected' } }, now);
    });
    return this.get(id);
  }
}
