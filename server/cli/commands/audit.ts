/**
 * Operator command `audit`: recompute every balance (users' and the house's) from the ledger
 * entries and compare, and check the double entry: every currency's accounts, and every ledger
 * transaction's legs, sum to zero, and every transaction is sealed (docs/money.md); and that the
 * trigger-kept exposure per pair (what the risk limit reads) equals the open orders.
 * Prints "Ledger OK: N balances match their entries" and "Books balance: ..." (exit 0), or each
 * problem (exit 1). `restore` runs the same checks on a restored backup.
 */
import type { DB } from '../../db';
import { auditLedger, balanceRowCounts, checkZeroSum } from '../../domain/ledger';
import { exposureDrift } from '../../domain/orders/exposure';
import { UsageError, type CliCommand } from './types';

/** The books' checks: `ok` lines when they hold, else `problems`. */
export async function checkBooks(db: DB): Promise<{ ok: string[]; problems: string[] }> {
  const differences = await auditLedger(db);
  const zero = await checkZeroSum(db);
  const balanced = zero.currencies.length === 0 && zero.transactions.length === 0 && zero.unsealed.length === 0;
  const drift = await exposureDrift(db);
  if (differences.length === 0 && balanced && drift.length === 0) {
    const counts = await balanceRowCounts(db);
    return {
      ok: [
        `Ledger OK: ${counts.users} balances match their entries (and ${counts.house} house balances)`,
        'Books balance: every currency and every ledger transaction sums to zero',
        'Exposure OK: the per-pair figures the risk limit reads match the open orders',
      ],
      problems: [],
    };
  }
  const problems: string[] = [];
  if (differences.length > 0) {
    problems.push(`Ledger MISMATCH: ${differences.length} balance(s) differ from their entries`);
    for (const d of differences) {
      const owner = d.user_id === null ? 'house' : `user ${d.user_id}`;
      problems.push(`  ${owner} ${d.currency} ${d.account}: balance ${d.balance}, entries sum ${d.entries_sum} (minor units)`);
    }
  }
  if (!balanced) {
    problems.push('Books UNBALANCED: the double entry does not hold');
    for (const c of zero.currencies) problems.push(`  ${c.currency}: all accounts sum to ${c.sum}, not 0 (minor units)`);
    for (const t of zero.transactions) problems.push(`  ledger transaction ${t.ledger_tx_id} ${t.currency}: legs sum to ${t.sum}, not 0`);
    for (const id of zero.unsealed) problems.push(`  ledger transaction ${id} has no seal (not written by postLedger)`);
  }
  if (drift.length > 0) {
    problems.push('Exposure MISMATCH: pair_exposure differs from the open orders');
    for (const d of drift) problems.push(`  ${d.key}: kept ${d.kept}; open orders ${d.orders}`);
  }
  return { ok: [], problems };
}

export const auditCommand: CliCommand = {
  name: 'audit',
  usage: '',
  description: 'check that every balance equals the sum of its ledger entries and that the books sum to zero (exit 1 on a problem)',
  async run(args, cli) {
    if (args.length > 0) throw new UsageError('audit takes no arguments');
    const books = await checkBooks(cli.db);
    for (const line of books.ok) cli.out(line);
    for (const line of books.problems) cli.err(line);
    return books.problems.length === 0 ? 0 : 1;
  },
};
