/**
 * What the auth area needs from the server: the database and its write transaction, the clock,
 * the log, the access-token signer, the shared mailer, the public address (for the links in its
 * emails) and a few configuration values as plain fields. server/composition.ts builds it from
 * the server's infrastructure; nothing here knows of Fastify, socket.io or the app context.
 */
import type { DB, RunTx } from '../../db';
import type { AccessTokens } from '../../infra/tokens';
import type { DomainLog } from '../log';
import type { Mailer } from '../mail';

export interface AuthDeps {
  db: DB;
  tx: RunTx;
  /** Milliseconds since the epoch. */
  now: () => number;
  log: DomainLog;
  /** Signs the access tokens of the sessions it opens (server/infra/tokens.ts). */
  tokens: AccessTokens;
  /** Verification and reset emails go out through it after the commit. */
  mailer: Mailer;
  /** Base address a browser reaches this server at (the verification and reset links). */
  publicUrl: () => string;
  /** The server secret (secrets.jwtSecret) the reset-code HMAC key is derived from. */
  jwtSecret: string;
  /** The per-account limits (auth_attempts) apply (config RATE_LIMIT). */
  rateLimit: boolean;
  /** Lifetime of a refresh token, seconds (config REFRESH_TOKEN_TTL_SECONDS). */
  refreshTokenTtl: number;
}
