/** Authentication tables: sessions (refresh-token families), reset and verification requests, admin tokens, attempt counters, the outbox. */
import type { Generated } from 'kysely';

/** One login = one family of refresh tokens; revoking it ends every token of the session. */
export interface AuthSessionsTable {
  /** Random id, carried in the access token's `fam` claim. */
  id: string;
  user_id: number;
  /** user | admin */
  session_type: string;
  /** When the session last proved the password; older than users.password_changed_at means dead. */
  auth_time: number;
  created_at: number;
  last_used_at: number;
  revoked_at: number | null;
  /** logout | reuse | password_reset | password_change | admin */
  revoked_reason: string | null;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  family_id: string;
  /** SHA-256 (hex) of the token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  expires_at: number;
  /** Set when the token was exchanged; presenting it again is reuse. */
  used_at: number | null;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  /** HMAC-SHA256 (hex) of the 6-digit code with the server secret. */
  code_hash: string;
  code_used_at: number | null;
  /** SHA-256 (hex) of the token in the emailed link. */
  link_token_hash: string;
  /** SHA-256 (hex) of the token handed out for a confirmed code. */
  confirm_token_hash: string | null;
  /** Wrong codes entered; at the limit the request is locked. */
  attempts: Generated<number>;
  /** open | used | superseded | locked */
  status: string;
  created_at: number;
  expires_at: number;
  closed_at: number | null;
}

export interface EmailVerificationsTable {
  id: Generated<number>;
  user_id: number;
  /** The address the link was sent to; a link for an old address verifies nothing. */
  email: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface AdminTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** One row per counted attempt (failed login, reset request...) of an account-level rate limit. */
export interface AuthAttemptsTable {
  id: Generated<number>;
  scope: string;
  subject: string;
  created_at: number;
}

/** Messages kept instead of sent when no transport is configured (email now, Telegram later). */
export interface OutboxTable {
  id: Generated<number>;
  /** email | telegram */
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  created_at: number;
}

export interface AuthTables {
  auth_sessions: AuthSessionsTable;
  refresh_tokens: RefreshTokensTable;
  password_resets: PasswordResetsTable;
  email_verifications: EmailVerificationsTable;
  admin_tokens: AdminTokensTable;
  auth_attempts: AuthAttemptsTable;
  outbox: OutboxTable;
}
