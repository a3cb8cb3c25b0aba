/**
 * Operator command `audit`: recompute every balance from the ledger entries and compare.
 * Prints "Ledger OK: N balances match their entries" (exit 0) or each difference (exit 1).
 */
import { auditLedger } from '../../domain/ledger';
import { UsageError, type CliCommand } from './types';

export const auditCommand: CliCommand = {
  name: 'audit',
  usage: '',
  description: 'check that every balance equals the sum of its ledger entries (exit 1 on a difference)',
  async run(args, cli) {
    if (args.length > 0) throw new UsageError('audit takes no arguments');
    const differences = await auditLedger(cli.db);
    if (differences.length === 0) {
      const row = await cli.db
        .selectFrom('balances')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      cli.out(`Ledger OK: ${Number(row.n)} balances match their entries`);
      return 0;
    }
    cli.err(`Ledger MISMATCH: ${differences.length} balance(s) differ from their entries`);
    for (const d of differences) {
      cli.err(`  user ${d.user_id} ${d.currency} ${d.account}: balance ${d.balance}, entries sum ${d.entries_sum} (minor units)`);
    }
    return 1;
  },
};
