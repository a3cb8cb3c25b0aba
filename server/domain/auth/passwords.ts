/**
 * Password hashing: argon2id (@node-rs/argon2) with the OWASP baseline parameters (19 MiB,
 * 2 passes, 1 lane). `verifyPassword` never throws on a malformed stored hash, and
 * `burnPasswordCheck` spends the same work on a dummy hash so "no such user" answers as slowly
 * as "wrong password".
 */
import { hash, verify, parseOptions, type Algorithm, type Options } from '@node-rs/argon2';

// The package declares Algorithm as a const enum, which isolatedModules cannot read at runtime; 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;

export const ARGON2_OPTIONS: Options = {
  algorithm: ARGON2ID,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** Whether a stored hash was made with other parameters than today's (rehash after a successful login). */
export function needsRehash(stored: string): boolean {
  try {
    const o = parseOptions(stored);
    return (
      o.algorithm !== ARGON2ID ||
      o.memoryCost !== ARGON2_OPTIONS.memoryCost ||
      o.timeCost !== ARGON2_OPTIONS.timeCost ||
      o.parallelism !== ARGON2_OPTIONS.parallelism
    );
  } catch {
    return true;
  }
}

let dummyHash: Promise<string> | null = null;

/** Make the dummy hash now (at start-up), so the first unknown-user login is not slower than the rest. */
export function primeDummyHash(): Promise<string> {
  dummyHash ??= hashPassword('dummy-password-for-timing-' + Math.random().toString(36));
  return dummyHash;
}

/** Verify against a hash nobody's password matches, for the same cost as a real check. */
export async function burnPasswordCheck(password: string): Promise<void> {
  await verifyPassword(await primeDummyHash(), password);
}
