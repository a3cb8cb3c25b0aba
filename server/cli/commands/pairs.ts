/**
 * Operator command `pairs list [--json] | enable <PAIR> | disable <PAIR>`: show the pairs with
 * their active flag, or switch a pair on or off. A change is written with a domain event in one
 * transaction; the running server picks it up within its event poll, refreshes its pair list,
 * refuses new orders on a disabled pair and pushes `pairs` to every connected socket.
 * A pair that was inactive when the server started is quoted from the server's next start
 * (the price feed is chosen at start-up).
 */
import { listPairRows, setPairActive } from '../../domain/market/pair-admin';
import { appendAudit } from '../../domain/audit/service';
import { UsageError, cliActor, parseArgs, type CliCommand } from './types';

export const pairsCommand: CliCommand = {
  name: 'pairs',
  usage: 'list [--json] | enable <PAIR> | disable <PAIR>',
  description: 'list the trading pairs, or enable / disable one (pushed to every connected client)',
  async run(args, cli) {
    const { positional, flags } = parseArgs(args);
    const [action, code] = positional;
    if (action === 'list' && positional.length === 1) {
      const rows = await listPairRows(cli.db);
      if (flags.json === 'true') {
        cli.out(JSON.stringify(rows));
        return 0;
      }
      if (rows.length === 0) cli.out('No pairs (the server seeds them at its first start).');
      for (const r of rows) cli.out(`${r.pair_code.padEnd(10)} ${r.pair_human_code.padEnd(14)} ${r.category.padEnd(12)} ${r.is_active ? 'active' : 'disabled'}`);
      return 0;
    }
    if ((action === 'enable' || action === 'disable') && positional.length === 2) {
      const pairCode = code.toUpperCase();
      // Audited as operator "cli" in the change's own transaction (issue 27).
      const result = await setPairActive(cli.db, pairCode, action === 'enable', cli.now(), (trx) =>
        appendAudit(trx, cliActor(), { action: `pair.${action}`, targetType: 'pair', targetId: pairCode, before: { enabled: action !== 'enable' }, after: { enabled: action === 'enable' } }, cli.now()).then(() => undefined),
      );
      if (!result) {
        cli.err(`No pair ${pairCode}`);
        return 1;
      }
      cli.out(result.changed ? `${pairCode} ${action}d` : `${pairCode} was already ${action}d`);
      return 0;
    }
    throw new UsageError('pairs takes: list [--json] | enable <PAIR> | disable <PAIR>');
  },
};
