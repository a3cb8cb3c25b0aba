/** Every query of the operators, operator_sessions and operator_login_failures tables. */
import type { Insertable, Selectable, Updateable } from 'kysely';
import { forUpdate, type Trx } from '../../db';
import type { OperatorsTable, OperatorSessionsTable } from '../../db/tables/console';

export type OperatorRow = Selectable<OperatorsTable>;
export type OperatorSessionRow = Selectable<OperatorSessionsTable>;

export function findOperatorByLogin(db: Trx, login: string): Promise<OperatorRow | undefined> {
  const name = login.trim().toLowerCase();
  return db
    .selectFrom('operators')
    .selectAll()
    .where((eb) => eb.or([eb('username', '=', name), eb('email', '=', name)]))
    .orderBy('id')
    .executeTakeFirst();
}

export function findOperator(db: Trx, id: number): Promise<OperatorRow | undefined> {
  return db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();
}

export function operatorForUpdate(trx: Trx, id: number): Promise<OperatorRow | undefined> {
  return forUpdate(trx, trx.selectFrom('operators').selectAll().where('id', '=', id)).executeTakeFirst();
}

export function listOperators(db: Trx): Promise<OperatorRow[]> {
  return db.selectFrom('operators').selectAll().orderBy('id').execute();
}

export async function insertOperator(trx: Trx, row: Insertable<OperatorsTable>): Promise<number> {
  const r = await trx.insertInto('operators').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function updateOperator(trx: Trx, id: number, set: Updateable<OperatorsTable>): Promise<void> {
  await trx.updateTable('operators').set(set).where('id', '=', id).execute();
}

/** Accept a TOTP step only when later than the last one accepted (a code works once). */
export async function claimTotpStep(trx: Trx, id: number, step: number): Promise<boolean> {
  const r = await trx
    .updateTable('operators')
    .set({ totp_last_step: step })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function activeAdminCount(db: Trx): Promise<number> {
  const r = await db
    .selectFrom('operators')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .where('disabled_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

// ---- failed logins ----------------------------------------------------------------------------

export async function recordFailure(trx: Trx, subjects: string[], now: number): Promise<void> {
  if (subjects.length) await trx.insertInto('operator_login_failures').values(subjects.map((subject) => ({ subject, created_at: now }))).execute();
}

export async function failuresSince(db: Trx, subject: string, since: number): Promise<number> {
  const r = await db
    .selectFrom('operator_login_failures')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('subject', '=', subject)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function clearFailures(trx: Trx, subject: string): Promise<void> {
  await trx.deleteFrom('operator_login_failures').where('subject', '=', subject).execute();
}

export async function pruneFailures(trx: Trx, before: number): Promise<void> {
  await trx.deleteFrom('operator_login_failures').where('created_at', '<', before).execute();
}

// ---- sessions ---------------------------------------------------------------------------------

export async function insertSession(trx: Trx, row: Insertable<OperatorSessionsTable>): Promise<void> {
  await trx.insertInto('operator_sessions').values(row).execute();
}

export function sessionByHash(db: Trx, tokenHash: string): Promise<(OperatorSessionRow & { role: string; disabled_at: number | null }) | undefined> {
  return db
    .selectFrom('operator_sessions as s')
    .innerJoin('operators as o', 'o.id', 's.operator_id')
    .selectAll('s')
    .select(['o.role', 'o.disabled_at'])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touchSession(db: Trx, id: number, now: number): Promise<void> {
  await db.updateTable('operator_sessions').set({ last_seen_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

export async function revokeSession(trx: Trx, tokenHash: string, reason: string, now: number): Promise<void> {
  await trx.updateTable('operator_sessions').set({ revoked_at: now, revoked_reason: reason }).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).execute();
}

export async function revokeOperatorSessions(trx: Trx, operatorId: number, reason: string, now: number): Promise<number> {
  const r = await trx
    .updateTable('operator_sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('operator_id', '=', operatorId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
