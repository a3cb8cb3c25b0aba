/**
 * What four eyes needs (ApprovalsService, built in server/composition.ts): the database, a write
 * transaction, the clock, the executors that carry out an approved request of each kind (given
 * by the console area: server/domain/console/executors.ts), and the operators' names.
 */
import type { ApprovalKind } from '../../../contract/console';
import type { DB, RunTx, Trx } from '../../db';

/** Carries out an approved request inside the approval's transaction; answers what it did (audited). */
export type ApprovalExecutor = (trx: Trx, request: { id: number; payload: Record<string, unknown> }, now: number) => Promise<unknown>;

export interface ApprovalsDeps {
  db: DB;
  tx: RunTx;
  now: () => number;
  executors: Record<ApprovalKind, ApprovalExecutor>;
  names: (ids: number[]) => Promise<Map<number, string>>;
}
