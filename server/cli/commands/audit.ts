/**
 * Operator command `audit`: recompute every balance (users' and the house's) from the ledger
 * entries and compare, and check the double entry: every currency's accounts, and every ledger
 * transaction's legs, sum to zero, and every transaction is sealed (docs/money.md); and that the
 * trigger-kept exposure per pair (what the risk limit reads) equals the open orders.
 * Prints "Ledger OK: N balances match their entries" and "Books balance: ..." (exit 0), or each
 * problem (exit 1).
 */
import { auditLedger, balanceRowCounts, checkZeroSum } from '../../domain/ledger';
import { exposureDrift } from '../../domain/orders/exposure';
import { UsageError, type CliCommand } from './types';

export const auditCommand: CliCommand = {
  name: 'audit',
  usage: '',
  description: 'check that every balance equals the sum of its ledger entries and that the books sum to zero (exit 1 on a problem)',
  async run(args, cli) {
    if (args.length > 0) throw new UsageError('audit takes no arguments');
    const differences = await auditLedger(cli.db);
    const zero = await checkZeroSum(cli.db);
    const balanced = zero.currencies.length === 0 && zero.transactions.length === 0 && zero.unsealed.length === 0;
    const drift = await exposureDrift(cli.db);
    if (differences.length === 0 && balanced && drift.length === 0) {
      const counts = await balanceRowCounts(cli.db);
      cli.out(`Ledger OK: ${counts.users} balances match their entries (and ${counts.house} house balances)`);
      cli.out('Books balance: every currency and every ledger transaction sums to zero');
      cli.out('Exposure OK: the per-pair figures the risk limit reads match the open orders');
      return 0;
    }
    if (differences.length > 0) {
      cli.err(`Ledger MISMATCH: ${differences.length} balance(s) differ from their entries`);
      for (const d of differences) {
        const owner = d.user_id === null ? 'house' : `user ${d.user_id}`;
        cli.err(`  ${owner} ${d.currency} ${d.account}: balance ${d.balance}, entries sum ${d.entries_sum} (minor units)`);
      }
    }
    if (!balanced) {
      cli.err('Books UNBALANCED: the double entry does not hold');
      for (const c of zero.currencies) cli.err(`  ${c.currency}: all accounts sum to ${c.sum}, not 0 (minor units)`);
      for (const t of zero.transactions) cli.err(`  ledger transaction ${t.ledger_tx_id} ${t.currency}: legs sum to ${t.sum}, not 0`);
      for (const id of zero.unsealed) cli.err(`  ledger transaction ${id} has no seal (not written by postLedger)`);
    }
    if (drift.length > 0) {
      cli.err('Exposure MISMATCH: pair_exposure differs from the open orders');
      for (const d of drift) cli.err(`  ${d.key}: kept ${d.kept}; open orders ${d.orders}`);
    }
    return 1;
  },
};
