/** Profile tables: extra personal data, two-factor state, login challenges and recovery codes, documents, Telegram links. */
import type { Generated } from 'kysely';

/** One row per user who saved any personal data beyond registration's. */
export interface UserProfilesTable {
  user_id: number;
  second_email: string | null;
  /** YYYY-MM-DD */
  birthday: string | null;
  /** male | female | other */
  gender: string | null;
  /** IANA zone name */
  timezone: string | null;
  /** ISO 3166-1 alpha-2 */
  citizenship: string | null;
  nickname: string | null;
  notify_email: Generated<number>;
  notify_push: Generated<number>;
  notify_sms: Generated<number>;
  passport_number: string | null;
  passport_issued_by: string | null;
  /** YYYY-MM-DD */
  passport_issue_date: string | null;
  updated_at: number;
}

/**
 * Two-factor bookkeeping next to users.two_factor_secret / two_factor_enabled (the active
 * secret stays there because login reads it): the enrolment waiting for its first code and the
 * last TOTP step accepted, so a code works once.
 */
export interface TwoFactorStateTable {
  user_id: number;
  /** AES-256-GCM sealed base32 secret of an enrolment not yet confirmed. */
  pending_secret: string | null;
  pending_created_at: number | null;
  /** Highest 30-second step whose code was accepted; only later steps are accepted. */
  last_used_step: number | null;
  enabled_at: number | null;
  updated_at: number;
}

/** The second step of a login with two-factor on: single use, 5 minutes, 5 wrong codes. */
export interface TwoFactorChallengesTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 (hex) of the challenge handed to the client. */
  challenge_hash: string;
  attempts: Generated<number>;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/**
 * Two-factor recovery codes: ten per user, each good for one login in place of a TOTP code.
 * Only a keyed hash is stored (HMAC-SHA256, key derived from the server secret, bound to the
 * user), never the code. A new set or turning two-factor off deletes the user's rows.
 */
export interface TwoFactorRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  /** Hex HMAC-SHA256 of "recovery:<user id>:<normalised code>" (SecretBox.digest). */
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

export interface DocumentsTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  /** uploaded | pending | approved | rejected */
  status: string;
  rejection_reason: string | null;
  reviewed_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface DocumentFilesTable {
  id: Generated<number>;
  document_id: number;
  user_id: number;
  /** The uploader's file name, sanitised; shown and offered on download, never a path. */
  original_name: string;
  /** Random file name under DATA_DIR/uploads/documents/<user id>/. */
  storage_name: string;
  size: number;
  mime: string;
  sha256: string;
  created_at: number;
}

export interface TelegramLinksTable {
  user_id: number;
  telegram_id: number;
  chat_id: number;
  username: string | null;
  first_name: string;
  last_name: string | null;
  language_code: string | null;
  linked_at: number;
}

export interface TelegramLinkCodesTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 (hex) of the code, for the lookup when the bot receives it. */
  code_hash: string;
  /** The code sealed with AES-256-GCM, so the profile can show a pending code again. */
  code_sealed: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface ProfileTables {
  user_profiles: UserProfilesTable;
  two_factor_state: TwoFactorStateTable;
  two_factor_challenges: TwoFactorChallengesTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  documents: DocumentsTable;
  document_files: DocumentFilesTable;
  telegram_links: TelegramLinksTable;
  telegram_link_codes: TelegramLinkCodesTable;
}
