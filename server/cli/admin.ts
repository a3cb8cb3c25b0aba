/**
 * The operator CLI: `npm run admin -- <command> [args]` (tsx server/cli/admin.ts). It reads the
 * same configuration as the server (DATA_DIR, DATABASE_URL, PUBLIC_URL, HOST, PORT...) and works
 * directly on the database (the SQLite file or PostgreSQL, docs/database.md), never through the
 * HTTP API, so it also works while the server is down. Opening the database applies any pending
 * migration, so any command also migrates.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig, type Config } from '../config';
import { openDatabase } from '../db';
import { commands } from './commands';
import { UsageError, type CliCommand, type CliContext } from './commands/types';

function baseUrl(config: Config): string {
  return config.publicUrl ?? `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
}

function helpText(list: CliCommand[]): string {
  return [
    'Usage: npm run admin -- <command> [arguments]',
    '',
    'Commands:',
    '  help',
    '      show this help',
    ...list.flatMap((c) => [`  ${c.name} ${c.usage}`, `      ${c.description}`]),
    '',
    'The database is DATABASE_URL when set, else DATA_DIR/tradeterminal.db (DATA_DIR defaults to ./data).',
  ].join('\n');
}

export async function runCli(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    console.log(helpText(commands));
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${helpText(commands)}`);
    return 2;
  }
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (err) {
    console.error((err as Error).message);
    return 1;
  }
  // The same database server/app.ts opens (SQLite in DATA_DIR, or DATABASE_URL).
  const db = await openDatabase(config);
  const cli: CliContext = {
    config,
    db,
    now: () => Date.now(),
    baseUrl: baseUrl(config),
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  };
  try {
    return await command.run(args, cli);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\nUsage: npm run admin -- ${command.name} ${command.usage}`);
      return 2;
    }
    throw err;
  } finally {
    await db.destroy();
  }
}

// Run only as the entry point, so tests and other tools can import runCli.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
