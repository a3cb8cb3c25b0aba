/**
 * `audit-log verify`: walk the operators' audit chain (issue 27) and print OK (exit 0) or the id
 * of the first broken row (exit 1): a row whose hash or link to the previous row does not hold
 * (edited, inserted out of the chain, or the row after a deleted one).
 * `audit-log list [--limit N]`: the newest rows.
 */
import { listAudit } from '../../domain/audit/repository';
import { verifyAudit } from '../../domain/audit/service';
import { UsageError, intFlag, parseArgs, type CliCommand } from './types';

export const auditLogCommand: CliCommand = {
  name: 'audit-log',
  usage: 'verify | list [--limit N]',
  description: "check the operators' hash-chained audit log (names the first broken row, exit 1) or list its newest rows",
  async run(args, cli) {
    const [sub, ...rest] = args;
    const { positional, flags } = parseArgs(rest);
    if (positional.length > 0) throw new UsageError(`audit-log ${sub ?? ''} takes no arguments`);
    if (sub === 'verify') {
      const result = await verifyAudit(cli.db);
      if (result.ok) {
        cli.out(`OK: ${result.checked} audit rows, the chain holds.`);
        return 0;
      }
      cli.out(`BROKEN: audit row #${result.brokenId} does not match the chain (checked ${result.checked} rows).`);
      return 1;
    }
    if (sub === 'list') {
      const limit = intFlag(flags, 'limit', 50, 1, 1000);
      const { rows } = await listAudit(cli.db, {}, 0, limit);
      if (rows.length === 0) cli.out('No audit rows.');
      for (const r of rows) {
        cli.out(
          [`#${r.id}`, new Date(Number(r.created_at)).toISOString(), r.source, `${r.operator_name}(${r.role})`, r.action, r.target_type ? `${r.target_type}:${r.target_id}` : '', r.reason ? `"${r.reason}"` : '']
            .filter(Boolean)
            .join('  '),
        );
      }
      return 0;
    }
    throw new UsageError(sub ? `Unknown audit-log command: ${sub}` : 'Missing audit-log command');
  },
};
