/**
 * Sessions as refresh-token families.
 *
 * A login opens a family (auth_sessions row) and hands out its first refresh token. Each refresh
 * token works once: exchanging it marks it used and issues the next one of the same family.
 * Presenting a token that was already used means two parties hold the family's tokens (one of
 * them a thief), so the whole family is revoked; every access token carries its family id
 * (`fam`) and `isFamilyActive` refuses it from then on. Refresh tokens are 32 random bytes,
 * kept as SHA-256 digests only.
 *
 * Password changes: the code that changes a password calls `applyPasswordChange`, which bumps
 * users.password_changed_at and revokes families (all of them, or all but the caller's). As a
 * second line, a family whose `auth_time` (last proof of the password) is older than
 * password_changed_at is dead even if nobody revoked it.
 *
 * `SessionCheck` (ctx.services.sessions) answers whether an access token's session is alive,
 * one token at a time or many at once.
 */
import type { DB, Trx } from '../../db';
import { prepared } from '../../db/prepared';
import type { AccessClaims, SessionType } from '../../infra/tokens';
import { randomToken, sha256Hex } from '../../infra/crypto';

export type RevokeReason = 'logout' | 'reuse' | 'password_reset' | 'password_change' | 'admin' | 'user_deleted';

export interface OpenedFamily {
  family: string;
  refreshToken: string;
  sessionType: SessionType;
  userId: number;
}

async function issueRefreshToken(trx: Trx, family: string, now: number, ttlSeconds: number): Promise<string> {
  const token = randomToken();
  await trx
    .insertInto('refresh_tokens')
    .values({ family_id: family, token_hash: sha256Hex(token), created_at: now, expires_at: now + ttlSeconds * 1000, used_at: null })
    .execute();
  return token;
}

/** Open a new session for a user: a new family and its first refresh token. */
export async function openFamily(
  trx: Trx,
  userId: number,
  sessionType: SessionType,
  now: number,
  refreshTtlSeconds: number,
): Promise<OpenedFamily> {
  const family = randomToken(16);
  await trx
    .insertInto('auth_sessions')
    .values({
      id: family,
      user_id: userId,
      session_type: sessionType,
      auth_time: now,
      created_at: now,
      last_used_at: now,
      revoked_at: null,
      revoked_reason: null,
    })
    .execute();
  const refreshToken = await issueRefreshToken(trx, family, now, refreshTtlSeconds);
  return { family, refreshToken, sessionType, userId };
}

export type RotateFailure = 'unknown' | 'expired' | 'reused' | 'revoked' | 'user_gone';
export type RotateResult = ({ ok: true } & OpenedFamily) | { ok: false; reason: RotateFailure };

/**
 * Exchange a refresh token for the next one of its family. A reused token revokes the family;
 * the caller must commit even then (return the failure, do not throw inside the transaction).
 */
export async function rotateRefreshToken(trx: Trx, token: string, now: number, refreshTtlSeconds: number): Promise<RotateResult> {
  const row = await trx
    .selectFrom('refresh_tokens as r')
    .innerJoin('auth_sessions as s', 's.id', 'r.family_id')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .select([
      'r.id as token_id',
      'r.expires_at',
      'r.used_at',
      's.id as family',
      's.user_id',
      's.session_type',
      's.revoked_at',
      's.auth_time',
      'u.id as existing_user',
      'u.password_changed_at',
    ])
    .where('r.token_hash', '=', sha256Hex(token))
    .executeTakeFirst();
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.revoked_at !== null) return { ok: false, reason: 'revoked' };
  if (row.used_at !== null) {
    await revokeFamily(trx, row.family, 'reuse', now);
    return { ok: false, reason: 'reused' };
  }
  if (row.existing_user === null) return { ok: false, reason: 'user_gone' };
  if (Number(row.auth_time) < Number(row.password_changed_at)) return { ok: false, reason: 'revoked' };
  if (Number(row.expires_at) <= now) return { ok: false, reason: 'expired' };

  // Conditional on still being unused, so two racing exchanges cannot both succeed.
  const marked = await trx
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('id', '=', row.token_id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(marked.numUpdatedRows) !== 1) {
    await revokeFamily(trx, row.family, 'reuse', now);
    return { ok: false, reason: 'reused' };
  }
  await trx.updateTable('auth_sessions').set({ last_used_at: now }).where('id', '=', row.family).execute();
  const refreshToken = await issueRefreshToken(trx, row.family, now, refreshTtlSeconds);
  return { ok: true, family: row.family, refreshToken, sessionType: row.session_type as SessionType, userId: row.user_id };
}

/** The family a refresh token belongs to, if the token is known. */
export async function familyOfRefreshToken(db: Trx, token: string): Promise<{ family: string; userId: number } | null> {
  const row = await db
    .selectFrom('refresh_tokens as r')
    .innerJoin('auth_sessions as s', 's.id', 'r.family_id')
    .select(['s.id as family', 's.user_id'])
    .where('r.token_hash', '=', sha256Hex(token))
    .executeTakeFirst();
  return row ? { family: row.family, userId: row.user_id } : null;
}

/** End one session; true when it was alive until now. */
export async function revokeFamily(trx: Trx, family: string, reason: RevokeReason, now: number): Promise<boolean> {
  const res = await trx
    .updateTable('auth_sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('id', '=', family)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** End every session of a user (password reset, account lock); returns how many were alive. */
export async function revokeAllFamilies(trx: Trx, userId: number, reason: RevokeReason, now: number): Promise<number> {
  const res = await trx
    .updateTable('auth_sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/**
 * End every session of a user except `keepFamily` (a password change from the profile keeps
 * the session that made it), and mark the kept one as having just proved the password so the
 * password_changed_at check does not end it either.
 */
export async function revokeOtherFamilies(
  trx: Trx,
  userId: number,
  keepFamily: string,
  now: number,
  reason: RevokeReason = 'password_change',
): Promise<number> {
  const res = await trx
    .updateTable('auth_sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('id', '<>', keepFamily)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  await trx
    .updateTable('auth_sessions')
    .set({ auth_time: now, last_used_at: now })
    .where('id', '=', keepFamily)
    .where('user_id', '=', userId)
    .execute();
  return Number(res.numUpdatedRows);
}

/**
 * Store a new password hash and end the sessions it must end, in the caller's transaction.
 * `keepFamily` = the session that changed its own password (profile) stays; null (reset by
 * email) ends them all. Hash the password before opening the transaction (argon2 is slow).
 */
export async function applyPasswordChange(
  trx: Trx,
  userId: number,
  passwordHash: string,
  now: number,
  keepFamily: string | null,
): Promise<void> {
  await trx
    .updateTable('users')
    .set({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
    .where('id', '=', userId)
    .execute();
  if (keepFamily) await revokeOtherFamilies(trx, userId, keepFamily, now, 'password_change');
  else await revokeAllFamilies(trx, userId, 'password_reset', now);
}

/**
 * isFamilyActive's read, built and compiled once (db/prepared.ts): Kysely built and compiled it on
 * every call, ~95 % of the check's CPU in a profile of 2,000 sockets connecting (the read itself
 * the rest; docs/performance.md, "Seventh pass"). Every provide_token, get_userdata and
 * authenticated HTTP request checks its session.
 */
const familyRow = prepared((db, p: { family: string; user_id: number; session_type: SessionType }) =>
  db
    .selectFrom('auth_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.auth_time', 'u.password_changed_at'])
    .where('s.id', '=', p.family)
    .where('s.user_id', '=', p.user_id)
    .where('s.session_type', '=', p.session_type)
    .where('s.revoked_at', 'is', null),
);

/** Whether an access token's session is alive: family known, matching, unrevoked, user present, password unchanged since. */
export async function isFamilyActive(db: DB, claims: AccessClaims): Promise<boolean> {
  const row = await familyRow.first(db, { family: claims.family, user_id: claims.userId, session_type: claims.sessionType });
  return !!row && Number(row.auth_time) >= Number(row.password_changed_at);
}

/** The key `activeFamilies` answers with for one access token's session. */
export const familyKey = (claims: AccessClaims) => `${claims.family}|${claims.userId}|${claims.sessionType}`;

/**
 * `isFamilyActive` for many tokens at once (the socket sweep: one read per 500 sessions instead of
 * one per socket): the `familyKey`s of those whose session is alive, by the same rules.
 */
export async function activeFamilies(db: DB, claims: readonly AccessClaims[]): Promise<Set<string>> {
  const alive = new Set<string>();
  const families = [...new Set(claims.map((c) => c.family))];
  for (let i = 0; i < families.length; i += 500) {
    const rows = await db
      .selectFrom('auth_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.id', 's.user_id', 's.session_type', 's.auth_time', 'u.password_changed_at'])
      .where('s.id', 'in', families.slice(i, i + 500))
      .where('s.revoked_at', 'is', null)
      .execute();
    for (const row of rows) {
      if (Number(row.auth_time) < Number(row.password_changed_at)) continue;
      alive.add(`${row.id}|${row.user_id}|${row.session_type}`);
    }
  }
  return alive;
}

/**
 * Whether the session an access token belongs to is still alive (logout, revocation, reuse, a
 * password changed since): ctx.services.sessions, built by server/composition.ts. The bearer
 * guards (http/auth.ts) ask it on every authenticated request, the socket session on every token
 * provided and, for all sockets at once, on every sweep.
 */
export class SessionCheck {
  constructor(private readonly db: DB) {}

  /** `on`: read inside the caller's transaction instead (http/auth.ts `requireToken`). */
  isActive(claims: AccessClaims, on: Trx = this.db): Promise<boolean> {
    return isFamilyActive(on, claims);
  }

  /** The same for many tokens in one read: the `familyKey`s of the live ones (the socket sweep). */
  activeFamilies(claims: readonly AccessClaims[]): Promise<Set<string>> {
    return activeFamilies(this.db, claims);
  }
}
