/**
 * What the profile functions need: the database, a write transaction, the clock, where uploads
 * live and the key material for sealing secrets. A subset of AppContext, so the operator CLI
 * (another process, no HTTP server) runs the same document-review and Telegram-link code on the
 * database of DATA_DIR.
 */
import { transaction, type DB, type Trx } from '../../db';
import type { Config } from '../../config';
import { loadSecrets } from '../../secrets';
import { SecretBox } from './secret-box';

export interface ProfileLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ProfileDeps {
  db: DB;
  /** One write transaction (BEGIN IMMEDIATE); inside it use only the handed `trx`. */
  tx: <T>(fn: (trx: Trx) => Promise<T>) => Promise<T>;
  now: () => number;
  /** DATA_DIR: uploads go under DATA_DIR/uploads. */
  dataDir: string;
  /** Seals TOTP secrets and pending Telegram link codes (key derived from the server secret). */
  box: SecretBox;
  log: ProfileLog;
}


/** Milliseconds to unix seconds for the wire. */
export const toUnix = (ms: number | null | undefined): number => Math.floor(Number(ms ?? 0) / 1000);

/**
 * The same dependencies for the operator CLI (another process): the database file of DATA_DIR,
 * the server's secret (JWT_SECRET, or the generated one: server/secrets.ts), messages to stderr.
 */
export async function cliProfileDeps(cli: { config: Config; db: DB; now: () => number; err: (line: string) => void }): Promise<ProfileDeps> {
  const { jwtSecret } = await loadSecrets(cli.config, cli.db);
  return {
    db: cli.db,
    tx: (fn) => transaction(cli.db, fn),
    now: cli.now,
    dataDir: cli.config.dataDir,
    box: new SecretBox(jwtSecret),
    log: {
      warn: (_obj, msg) => cli.err(`warning: ${msg}`),
      error: (obj, msg) => cli.err(`error: ${msg}${(obj as { err?: unknown }).err instanceof Error ? ` (${((obj as { err: Error }).err).message})` : ''}`),
    },
  };
}
