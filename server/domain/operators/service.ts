/**
 * Operators (issue 27 item 1): the people who run the platform through the console. They are not
 * users: their own table, password (argon2id) AND a mandatory TOTP code at every login, a
 * server-side session behind the `op_session` cookie (15 minutes idle, 8 hours at most; a row,
 * so logout, disable and a role change end it at once), and a lock after OPERATOR_LOCK_FAILURES
 * failed logins within OPERATOR_LOCK_MS, counted per operator and per IP. A failed login answers
 * the same text whichever factor was wrong (or whether the operator exists).
 *
 * Every change here (create, role, disable, login, logout) appends an audit row in the same
 * transaction (server/domain/audit/service.ts).
 */
import { Secret, TOTP } from 'otpauth';
import {
  ConsoleText,
  OPERATOR_LOCK_FAILURES,
  OPERATOR_LOCK_MS,
  OPERATOR_SESSION_IDLE_MS,
  OPERATOR_SESSION_MAX_MS,
  type CreatedOperator,
  type Operator,
  type OperatorLoginInput,
  type OperatorRole,
} from '../../../contract/console';
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '../../../contract/profile';
import { isUniqueViolation } from '../../db/errors';
import { randomToken, sha256Hex } from '../../infra/crypto';
import { appendAudit, type AuditActor } from '../audit/service';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../auth/passwords';
import { conflict, invalid, notFound, rateLimited, unauthenticated } from '../errors';
import { matchStep } from '../profile/two-factor';
import type { OperatorsDeps } from './deps';
import {
  activeAdminCount,
  claimTotpStep,
  clearFailures,
  failuresSince,
  findOperator,
  findOperatorByLogin,
  insertOperator,
  insertSession,
  listOperators,
  operatorForUpdate,
  pruneFailures,
  recordFailure,
  revokeOperatorSessions,
  revokeSession,
  sessionByHash,
  touchSession,
  updateOperator,
  type OperatorRow,
} from './repository';

export const OPERATOR_TOTP_ISSUER = 'TradeTerminal Console';
/** A session's last_seen_at is written at most this often (a request every second need not write). */
const TOUCH_EVERY_MS = 30_000;

const totpContext = (username: string) => `operator-totp:${username}`;

/** The operator a console request acts as (put on the request by server/http/operator-auth.ts). */
export interface OperatorIdentity {
  id: number;
  username: string;
  role: OperatorRole;
  sessionId: number;
  sessionExpiresAt: number;
}

export function toOperator(row: OperatorRow): Operator {
  return {
    id: Number(row.id),
    username: row.username,
    email: row.email,
    role: row.role as OperatorRole,
    disabled_at_ms: row.disabled_at === null ? null : Number(row.disabled_at),
    locked_until_ms: row.locked_until === null ? null : Number(row.locked_until),
    created_at_ms: Number(row.created_at),
    last_login_at_ms: row.last_login_at === null ? null : Number(row.last_login_at),
  };
}

export interface CreateOperator {
  username: string;
  role: OperatorRole;
  email?: string | null;
  /** Otherwise a random one is made and answered once. */
  password?: string;
}

export interface LoginResult {
  token: string;
  operator: Operator;
  expiresAt: number;
}

export class OperatorsService {
  private pruneTimer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: OperatorsDeps) {}

  /** Hourly: drop failed-login rows older than the lock window. */
  start(): void {
    this.pruneTimer ??= setInterval(() => void this.prune().catch((err: unknown) => this.deps.log.error({ err }, 'operator login failures prune failed')), 3600_000);
    this.pruneTimer.unref();
  }

  stop(): void {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.pruneTimer = null;
  }

  async list(): Promise<Operator[]> {
    return (await listOperators(this.deps.db)).map(toOperator);
  }

  async get(id: number): Promise<Operator> {
    const row = await findOperator(this.deps.db, id);
    if (!row) throw notFound(ConsoleText.operatorNotFound);
    return toOperator(row);
  }

  /** An operator by id or username (the CLI names them). */
  private async resolve(target: number | string): Promise<OperatorRow> {
    const row = typeof target === 'number' ? await findOperator(this.deps.db, target) : await findOperatorByLogin(this.deps.db, target);
    if (!row) throw notFound(ConsoleText.operatorNotFound);
    return row;
  }

  async create(input: CreateOperator, actor: AuditActor): Promise<CreatedOperator> {
    const now = this.deps.now();
    const username = input.username.trim().toLowerCase();
    const password = input.password ?? randomToken(15);
    if (password.length < 12) throw invalid('The password must be at least 12 characters');
    const secret = new Secret({ size: 20 }).base32;
    const passwordHash = await hashPassword(password);
    let id: number;
    try {
      id = await this.deps.tx(async (trx) => {
        const newId = await insertOperator(trx, {
          username,
          email: input.email ? input.email.toLowerCase() : null,
          password_hash: passwordHash,
          totp_secret: this.deps.box.seal(secret, totpContext(username)),
          totp_last_step: null,
          role: input.role,
          disabled_at: null,
          locked_until: null,
          last_login_at: null,
          created_by: actor.source === 'cli' ? `cli:${actor.osUser ?? 'unknown'}` : actor.name,
          created_at: now,
          updated_at: now,
        });
        await appendAudit(trx, actor, { action: 'operator.create', targetType: 'operator', targetId: newId, after: { username, role: input.role, email: input.email ?? null } }, now);
        return newId;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(ConsoleText.operatorExists);
      throw err;
    }
    const otpauth_url = new TOTP({
      issuer: OPERATOR_TOTP_ISSUER,
      label: username,
      secret: Secret.fromBase32(secret),
      algorithm: 'SHA1',
      digits: TOTP_DIGITS,
      period: TOTP_PERIOD_SECONDS,
    }).toString();
    return { operator: await this.get(id), initial_password: input.password ? '' : password, totp_secret: secret, otpauth_url };
  }

  async setRole(target: number | string, role: OperatorRole, reason: string, actor: AuditActor): Promise<Operator> {
    const row = await this.resolve(target);
    if (actor.operatorId !== null && Number(row.id) === actor.operatorId) throw invalid(ConsoleText.selfChange);
    const now = this.deps.now();
    await this.deps.tx(async (trx) => {
      const current = await operatorForUpdate(trx, Number(row.id));
      if (!current) throw notFound(ConsoleText.operatorNotFound);
      if (current.role === 'admin' && role !== 'admin' && current.disabled_at === null && (await activeAdminCount(trx)) <= 1) throw conflict(ConsoleText.lastAdmin);
      await updateOperator(trx, Number(row.id), { role, updated_at: now });
      await revokeOperatorSessions(trx, Number(row.id), 'role_changed', now);
      await appendAudit(trx, actor, { action: 'operator.role', targetType: 'operator', targetId: row.id, reason, before: { role: current.role }, after: { role } }, now);
    });
    return this.get(Number(row.id));
  }

  async disable(target: number | string, reason: string, actor: AuditActor): Promise<Operator> {
    const row = await this.resolve(target);
    if (actor.operatorId !== null && Number(row.id) === actor.operatorId) throw invalid(ConsoleText.selfChange);
    const now = this.deps.now();
    await this.deps.tx(async (trx) => {
      const current = await operatorForUpdate(trx, Number(row.id));
      if (!current) throw notFound(ConsoleText.operatorNotFound);
      if (current.disabled_at !== null) return;
      if (current.role === 'admin' && (await activeAdminCount(trx)) <= 1) throw conflict(ConsoleText.lastAdmin);
      await updateOperator(trx, Number(row.id), { disabled_at: now, updated_at: now });
      await revokeOperatorSessions(trx, Number(row.id), 'disabled', now);
      await appendAudit(trx, actor, { action: 'operator.disable', targetType: 'operator', targetId: row.id, reason, before: { disabled: false }, after: { disabled: true } }, now);
    });
    return this.get(Number(row.id));
  }

  // ---- login and sessions -----------------------------------------------------------------------

  /**
   * Password and TOTP code, both checked every time. Locked (429) while the operator or the IP has
   * OPERATOR_LOCK_FAILURES failures within OPERATOR_LOCK_MS; every failure is the same 401 text.
   */
  async login(input: OperatorLoginInput, ip: string, userAgent: string | null): Promise<LoginResult> {
    const now = this.deps.now();
    const since = now - OPERATOR_LOCK_MS;
    const ipSubject = `ip:${ip}`;
    const row = await findOperatorByLogin(this.deps.db, input.username);
    const opSubject = row ? `op:${row.id}` : null;
    const locked =
      (await failuresSince(this.deps.db, ipSubject, since)) >= OPERATOR_LOCK_FAILURES ||
      (opSubject !== null && (await failuresSince(this.deps.db, opSubject, since)) >= OPERATOR_LOCK_FAILURES);
    if (locked) {
      await burnPasswordCheck(input.password);
      throw rateLimited(ConsoleText.locked);
    }
    const passwordOk = row ? await verifyPassword(row.password_hash, input.password) : (await burnPasswordCheck(input.password), false);
    const secret = row ? this.deps.box.open(row.totp_secret, totpContext(row.username)) : null;
    const step = secret ? matchStep(secret, input.totp, now, row!.totp_last_step === null ? null : Number(row!.totp_last_step)) : null;

    const outcome = await this.deps.tx(async (trx): Promise<LoginResult | 'failed'> => {
      const fail = async (why: string) => {
        await recordFailure(trx, opSubject ? [opSubject, ipSubject] : [ipSubject], now);
        if (row && opSubject && (await failuresSince(trx, opSubject, since)) >= OPERATOR_LOCK_FAILURES) {
          await updateOperator(trx, Number(row.id), { locked_until: now + OPERATOR_LOCK_MS, failed_logins: OPERATOR_LOCK_FAILURES });
        }
        await appendAudit(
          trx,
          { operatorId: row ? Number(row.id) : null, name: row?.username ?? input.username.slice(0, 64), role: row?.role ?? '-', source: 'console', ip },
          { action: 'operator.login_failed', targetType: 'operator', targetId: row?.id ?? null, after: { why } },
          now,
        );
        return 'failed' as const;
      };
      if (!row || !passwordOk) return fail(row ? 'password' : 'unknown');
      if (row.disabled_at !== null) return fail('disabled');
      if (step === null || !(await claimTotpStep(trx, Number(row.id), step))) return fail('totp');
      const token = randomToken();
      const expiresAt = now + OPERATOR_SESSION_MAX_MS;
      await insertSession(trx, {
        token_hash: sha256Hex(token),
        operator_id: Number(row.id),
        ip,
        user_agent: userAgent ? userAgent.slice(0, 256) : null,
        created_at: now,
        last_seen_at: now,
        expires_at: expiresAt,
        revoked_at: null,
        revoked_reason: null,
      });
      await clearFailures(trx, `op:${row.id}`);
      await updateOperator(trx, Number(row.id), { failed_logins: 0, locked_until: null, last_login_at: now });
      await appendAudit(trx, { operatorId: Number(row.id), name: row.username, role: row.role, source: 'console', ip }, { action: 'operator.login', targetType: 'operator', targetId: row.id }, now);
      return { token, operator: toOperator({ ...row, last_login_at: now, failed_logins: 0, locked_until: null }), expiresAt };
    });
    if (outcome === 'failed') throw unauthenticated(ConsoleText.loginFailed);
    return outcome;
  }

  /** The operator of a live session (not revoked, not idle too long, not past its end, operator enabled), else null. */
  async authenticate(token: string): Promise<OperatorIdentity | null> {
    const now = this.deps.now();
    const hash = sha256Hex(token);
    const s = await sessionByHash(this.deps.db, hash);
    if (!s || s.revoked_at !== null || s.disabled_at !== null) return null;
    if (Number(s.expires_at) <= now || Number(s.last_seen_at) + OPERATOR_SESSION_IDLE_MS <= now) return null;
    if (now - Number(s.last_seen_at) >= TOUCH_EVERY_MS) await this.deps.tx((trx) => touchSession(trx, Number(s.id), now));
    const op = await findOperator(this.deps.db, Number(s.operator_id));
    if (!op) return null;
    return {
      id: Number(op.id),
      username: op.username,
      role: op.role as OperatorRole,
      sessionId: Number(s.id),
      sessionExpiresAt: Math.min(Number(s.expires_at), Math.max(now, Number(s.last_seen_at)) + OPERATOR_SESSION_IDLE_MS),
    };
  }

  async logout(token: string, actor: AuditActor): Promise<void> {
    const now = this.deps.now();
    await this.deps.tx(async (trx) => {
      await revokeSession(trx, sha256Hex(token), 'logout', now);
      await appendAudit(trx, actor, { action: 'operator.logout', targetType: 'operator', targetId: actor.operatorId }, now);
    });
  }

  /** A refused attempt (a role without the permission): its own audit row, nothing else. */
  async recordForbidden(actor: AuditActor, attempted: string, target: { type?: string; id?: string | null } = {}): Promise<void> {
    await this.deps.tx((trx) =>
      appendAudit(trx, actor, { action: 'forbidden', targetType: target.type ?? null, targetId: target.id ?? null, after: { attempted } }, this.deps.now()),
    );
  }

  /** Drop failed-login rows older than the lock window. */
  async prune(): Promise<void> {
    const before = this.deps.now() - OPERATOR_LOCK_MS;
    await this.deps.tx((trx) => pruneFailures(trx, before));
  }
}
