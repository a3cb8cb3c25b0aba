/** Operator console tables (migration 016): operators, their sessions and failed logins, the audit log, four-eyes requests. */
import type { Generated } from 'kysely';

export interface OperatorsTable {
  id: Generated<number>;
  /** Lowercase, unique. */
  username: string;
  email: string | null;
  /** argon2id */
  password_hash: string;
  /** AES-256-GCM sealed base32 TOTP secret (SecretBox, context "operator-totp:<id>"). */
  totp_secret: string;
  /** Highest 30-second step whose code was accepted; only later steps are accepted. */
  totp_last_step: number | null;
  /** support | compliance | finance | risk | admin */
  role: string;
  disabled_at: number | null;
  failed_logins: Generated<number>;
  locked_until: number | null;
  last_login_at: number | null;
  /** Who created it: an operator's username or "cli:<os user>". */
  created_by: string;
  created_at: number;
  updated_at: number;
}

export interface OperatorSessionsTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the cookie's token. */
  token_hash: string;
  operator_id: number;
  ip: string | null;
  user_agent: string | null;
  created_at: number;
  last_seen_at: number;
  /** Absolute end (created_at + 8 h); the idle end is last_seen_at + 15 min. */
  expires_at: number;
  revoked_at: number | null;
  /** logout | disabled | role_changed */
  revoked_reason: string | null;
}

export interface OperatorLoginFailuresTable {
  id: Generated<number>;
  /** op:<operator id> | ip:<address> */
  subject: string;
  created_at: number;
}

/** Append-only, hash-chained (triggers refuse UPDATE and DELETE). */
export interface AuditLogTable {
  id: Generated<number>;
  prev_hash: string;
  hash: string;
  operator_id: number | null;
  /** The operator's username, or "cli" for the CLI. */
  operator_name: string;
  role: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  reason: string | null;
  before_json: string | null;
  after_json: string | null;
  ip: string | null;
  /** console | cli */
  source: string;
  /** The OS user that ran a CLI command. */
  os_user: string | null;
  created_at: number;
}

export interface ApprovalRequestsTable {
  id: Generated<number>;
  /** withdrawal | risk_limit_raise | balance_adjustment | pair_enable */
  kind: string;
  /** JSON: what to do. */
  payload: string;
  target_type: string;
  target_id: string;
  /** pending | rejected | executed */
  status: string;
  requested_by: number;
  request_reason: string;
  decided_by: number | null;
  decision_reason: string | null;
  created_at: number;
  decided_at: number | null;
}

export interface ConsoleTables {
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
  operator_login_failures: OperatorLoginFailuresTable;
  audit_log: AuditLogTable;
  approval_requests: ApprovalRequestsTable;
}
