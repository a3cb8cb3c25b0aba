/**
 * The operator CLI's command contract. A command gets the configuration and an open database
 * (the same one the server uses; writes go through `transaction`, which takes SQLite's write
 * lock up front or locks rows on PostgreSQL, so the CLI and a running server never interleave),
 * prints through `out`/`err`,
 * and returns an exit code. Register a new command in ./index.ts.
 */
import os from 'node:os';
import type { Config } from '../../config';
import type { AuditActor } from '../../domain/audit/service';
import type { DB } from '../../db';

export interface CliContext {
  config: Config;
  db: DB;
  now: () => number;
  /** Where a browser reaches the server: PUBLIC_URL, else http://HOST:PORT. */
  baseUrl: string;
  out: (line: string) => void;
  err: (line: string) => void;
}

export interface CliCommand {
  name: string;
  /** Arguments after the name, e.g. "<username>" or "[--limit N]". */
  usage: string;
  description: string;
  run(args: string[], cli: CliContext): Promise<number>;
}

export class UsageError extends Error {}

/** Split arguments into positionals and `--flag value` / `--flag=value` pairs (`--flag` alone is "true"). */
export function parseArgs(args: string[]): { positional: string[]; flags: Record<string, string> } {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) flags[a.slice(2, eq)] = a.slice(eq + 1);
      else if (i + 1 < args.length && !args[i + 1].startsWith('--')) flags[a.slice(2)] = args[++i];
      else flags[a.slice(2)] = 'true';
    } else {
      positional.push(a);
    }
  }
  return { positional, flags };
}

/** A whole number flag within bounds, or the default when absent. */
export function intFlag(flags: Record<string, string>, name: string, def: number, min: number, max: number): number {
  const raw = flags[name];
  if (raw === undefined) return def;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  }
  return Number(raw);
}

/** Who the audit rows of a CLI command name: operator "cli", with the OS user that ran it. */
export function cliActor(): AuditActor {
  let osUser = 'unknown';
  try {
    osUser = os.userInfo().username;
  } catch {
    osUser = process.env.USER ?? 'unknown';
  }
  return { operatorId: null, name: 'cli', role: 'cli', source: 'cli', osUser };
}
