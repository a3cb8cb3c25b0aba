/**
 * Password-reset requests. One request holds a 6-digit code (HMAC-SHA256 with the server
 * secret, bound to the request) and a long link token (SHA-256), both valid for an hour and
 * good once; a new request supersedes the user's older ones. A confirmed code yields a
 * one-time reset token (stored hashed on the request). Each wrong code counts; at the fifth the
 * request is locked and nothing opens it any more, not even the right code.
 */
import { forUpdate, type Trx } from '../../db';
import { constantTimeEqual, hmacHex, randomDigits, randomToken, sha256Hex } from '../../infra/crypto';
import { RESET_CODE_LENGTH } from '../../../contract/auth';
import { applyPasswordChange } from './sessions';

export const RESET_TTL_MS = 60 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;

const codeDigest = (secret: string, linkTokenHash: string, code: string) => hmacHex('sha256', secret, `reset-code:${linkTokenHash}:${code}`);

/** Open a new request for a user (superseding older ones); returns the code and link token to email. */
export async function createResetRequest(trx: Trx, userId: number, secret: string, now: number): Promise<{ code: string; linkToken: string }> {
  await trx
    .updateTable('password_resets')
    .set({ status: 'superseded', closed_at: now })
    .where('user_id', '=', userId)
    .where('status', '=', 'open')
    .execute();
  const code = randomDigits(RESET_CODE_LENGTH);
  const linkToken = randomToken();
  const linkTokenHash = sha256Hex(linkToken);
  await trx
    .insertInto('password_resets')
    .values({
      user_id: userId,
      code_hash: codeDigest(secret, linkTokenHash, code),
      code_used_at: null,
      link_token_hash: linkTokenHash,
      confirm_token_hash: null,
      status: 'open',
      created_at: now,
      expires_at: now + RESET_TTL_MS,
      closed_at: null,
    })
    .execute();
  return { code, linkToken };
}

/**
 * Check a code against the user's open request. Wrong codes are counted (the caller must commit
 * a failure too, so return it rather than throw). `userId` null (unknown email) does the same
 * work and fails.
 */
export async function confirmResetCode(
  trx: Trx,
  userId: number | null,
  code: string,
  secret: string,
  now: number,
): Promise<{ ok: true; token: string } | { ok: false }> {
  const request =
    userId === null
      ? undefined
      : await forUpdate(
          trx,
          trx
            .selectFrom('password_resets')
            .select(['id', 'code_hash', 'code_used_at', 'link_token_hash', 'attempts', 'expires_at'])
            .where('user_id', '=', userId)
            .where('status', '=', 'open')
            .orderBy('id', 'desc'),
        ).executeTakeFirst();
  const digest = codeDigest(secret, request?.link_token_hash ?? 'none', code);
  if (!request) return { ok: false };
  if (Number(request.expires_at) <= now) return { ok: false };

  const matches = constantTimeEqual(digest, request.code_hash) && request.code_used_at === null;
  if (!matches) {
    const attempts = Number(request.attempts) + 1;
    await trx
      .updateTable('password_resets')
      .set(attempts >= MAX_CODE_ATTEMPTS ? { attempts, status: 'locked', closed_at: now } : { attempts })
      .where('id', '=', request.id)
      .execute();
    return { ok: false };
  }
  const token = randomToken();
  await trx
    .updateTable('password_resets')
    .set({ code_used_at: now, confirm_token_hash: sha256Hex(token) })
    .where('id', '=', request.id)
    .where('status', '=', 'open')
    .execute();
  return { ok: true, token };
}

/** The open, unexpired request a link token or confirmed-code token belongs to. */
export async function findResetByToken(trx: Trx, token: string, now: number): Promise<{ id: number; userId: number } | null> {
  const digest = sha256Hex(token);
  const row = await trx
    .selectFrom('password_resets')
    .select(['id', 'user_id'])
    .where((eb) => eb.or([eb('link_token_hash', '=', digest), eb('confirm_token_hash', '=', digest)]))
    .where('status', '=', 'open')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ? { id: row.id, userId: row.user_id } : null;
}

/**
 * Use a reset token: set the new password, close the request (and any other open one), end
 * every session of the user. Reaching the inbox proves the address, so it counts as verified.
 * False when the token is not (or no longer) valid.
 */
export async function completeReset(trx: Trx, token: string, passwordHash: string, now: number): Promise<{ userId: number } | null> {
  const request = await findResetByToken(trx, token, now);
  if (!request) return null;
  const closed = await trx
    .updateTable('password_resets')
    .set({ status: 'used', closed_at: now })
    .where('id', '=', request.id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  if (Number(closed.numUpdatedRows) !== 1) return null;
  await trx
    .updateTable('password_resets')
    .set({ status: 'superseded', closed_at: now })
    .where('user_id', '=', request.userId)
    .where('status', '=', 'open')
    .execute();
  await applyPasswordChange(trx, request.userId, passwordHash, now, null);
  await trx
    .updateTable('users')
    .set({ email_verified_at: now })
    .where('id', '=', request.userId)
    .where('email_verified_at', 'is', null)
    .execute();
  return { userId: request.userId };
}
