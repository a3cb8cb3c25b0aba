/**
 * `npm run admin -- migrate`: bring the database's schema up to date and say where it stands.
 * Opening the database (admin.ts) already applies every pending migration, for this command
 * as for any other; this one only does that and lists the applied migrations, so an operator
 * can migrate before starting the nodes of a new version (docs/database.md).
 */
import { sql } from 'kysely';
import { dialectOf } from '../../db';
import { UsageError, type CliCommand } from './types';

export const migrateCommand: CliCommand = {
  name: 'migrate',
  usage: '',
  description: 'apply the pending database migrations (SQLite or DATABASE_URL) and list the applied ones',
  async run(args, cli) {
    if (args.length > 0) throw new UsageError('migrate takes no arguments');
    const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(cli.db);
    const names = rows.rows.map((r) => r.name);
    cli.out(`Database (${dialectOf(cli.db) === 'postgres' ? 'PostgreSQL' : 'SQLite'}) is up to date: ${names.length} migrations applied, the last ${names.at(-1) ?? 'none'}.`);
    for (const name of names) cli.out(`  ${name}`);
    return 0;
  },
};
