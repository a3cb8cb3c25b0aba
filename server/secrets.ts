/**
 * Secrets the server needs but a fresh machine does not have: generated once with a CSPRNG
 * and kept in DATA_DIR/secrets.json (mode 0600). A value set in the environment wins.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Config } from './config';

export interface Secrets {
  jwtSecret: string;
  oxapayWebhookSecret: string;
  telegramWebhookSecret: string;
}

const KEYS: (keyof Secrets)[] = ['jwtSecret', 'oxapayWebhookSecret', 'telegramWebhookSecret'];

export function loadSecrets(config: Config): Secrets {
  const file = path.join(config.dataDir, 'secrets.json');
  let stored: Partial<Secrets> = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Secrets>;
  let changed = false;
  for (const k of KEYS) {
    if (typeof stored[k] !== 'string' || stored[k]!.length < 32) {
      stored[k] = crypto.randomBytes(32).toString('base64url');
      changed = true;
    }
  }
  if (changed) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  const s = stored as Secrets;
  return {
    jwtSecret: config.jwtSecret ?? s.jwtSecret,
    oxapayWebhookSecret: config.oxapayWebhookSecret ?? s.oxapayWebhookSecret,
    telegramWebhookSecret: s.telegramWebhookSecret,
  };
}
