/**
 * Secrets the server needs but a fresh machine does not have: generated once with a CSPRNG. A
 * value set in the environment wins.
 *
 * - SQLite (one node): kept in DATA_DIR/secrets.json (mode 0600), as before.
 * - PostgreSQL (possibly several nodes): kept in the database (`shared_secrets`, migration 012),
 *   written by whichever node generates a secret first (insert ... on conflict do nothing) and
 *   read back by all, so every node signs and checks tokens, opens two-factor secrets and checks
 *   webhooks with the same keys without the operator copying files between nodes. A
 *   secrets.json left in DATA_DIR from a single-node start is taken as the first value, so a
 *   node moved from SQLite keeps its sessions and its Telegram webhook.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Config } from './config';
import { dialectOf, type DB } from './db';

export interface Secrets {
  jwtSecret: string;
  oxapayWebhookSecret: string;
  telegramWebhookSecret: string;
}

const KEYS: (keyof Secrets)[] = ['jwtSecret', 'oxapayWebhookSecret', 'telegramWebhookSecret'];

const usable = (value: unknown): value is string => typeof value === 'string' && value.length >= 32;
const generate = () => crypto.randomBytes(32).toString('base64url');

export async function loadSecrets(config: Config, db: DB): Promise<Secrets> {
  const stored = dialectOf(db) === 'postgres' ? await sharedSecrets(config, db) : fileSecrets(config);
  return {
    jwtSecret: config.jwtSecret ?? stored.jwtSecret,
    oxapayWebhookSecret: config.oxapayWebhookSecret ?? stored.oxapayWebhookSecret,
    telegramWebhookSecret: stored.telegramWebhookSecret,
  };
}

function secretsFile(config: Config): string {
  return path.join(config.dataDir, 'secrets.json');
}

function readFile(config: Config): Partial<Secrets> {
  const file = secretsFile(config);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Secrets>) : {};
}

function fileSecrets(config: Config): Secrets {
  const stored = readFile(config);
  let changed = false;
  for (const k of KEYS) {
    if (!usable(stored[k])) {
      stored[k] = generate();
      changed = true;
    }
  }
  if (changed) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(secretsFile(config), JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return stored as Secrets;
}

async function sharedSecrets(config: Config, db: DB): Promise<Secrets> {
  const local = readFile(config);
  const now = Date.now();
  await db
    .insertInto('shared_secrets')
    .values(KEYS.map((name) => ({ name, value: usable(local[name]) ? local[name] : generate(), created_at: now })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const rows = await db.selectFrom('shared_secrets').select(['name', 'value']).where('name', 'in', KEYS).execute();
  const byName = new Map(rows.map((r) => [r.name, r.value]));
  const secrets = {} as Secrets;
  for (const k of KEYS) {
    const value = byName.get(k);
    if (!usable(value)) throw new Error(`shared_secrets holds no usable ${k}`);
    secrets[k] = value;
  }
  return secrets;
}
