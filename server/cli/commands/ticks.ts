/**
 * Operator command `ticks verify`: re-check the hash-chained tick log from its first batch
 * (server/domain/market/tick-chain.ts; docs/market.md, "Tick log chain"): consecutive batch ids,
 * each prev_hash equal to the previous batch's hash, each hash recomputed from its row, and each
 * batch's stored ticks hashed back to its digest. Read-only.
 *
 * Exit code: 0 the chain is whole, 1 a batch is broken (the first one is named), 2 bad usage.
 */
import { verifyChain } from '../../domain/market/tick-chain';
import { UsageError, type CliCommand } from './types';

export const ticksCommand: CliCommand = {
  name: 'ticks',
  usage: 'verify',
  description: 'verify the hash-chained tick log (exit 1 and the first broken batch when it does not check out)',
  async run(args, cli) {
    if (args.length !== 1 || args[0] !== 'verify') throw new UsageError('usage: ticks verify');
    const horizon = cli.now() - cli.config.tickRetentionHours * 3_600_000;
    const r = await verifyChain(cli.db, horizon);
    cli.out(`Batches checked: ${r.batches}  ticks re-hashed: ${r.ticks}  pruned by retention: ${r.pruned}  unsealed ticks: ${r.unsealed}`);
    if (r.broken) {
      cli.err(`BROKEN at batch ${r.broken.batch_id}: ${r.broken.reason}`);
      return 1;
    }
    cli.out(r.head ? `Chain OK. Head: ${r.head}` : 'Chain OK (empty).');
    return 0;
  },
};
