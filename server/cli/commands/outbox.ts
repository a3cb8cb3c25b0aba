/** `outbox [--limit N] [--to ADDRESS] [--channel email|telegram]`: the latest kept messages (reset codes on a fresh machine). */
import { latestOutbox, type OutboxChannel } from '../../domain/mail';
import { UsageError, intFlag, parseArgs, type CliCommand } from './types';

const CHANNELS: OutboxChannel[] = ['email', 'telegram'];

export const outboxCommand: CliCommand = {
  name: 'outbox',
  usage: '[--limit N] [--to ADDRESS] [--channel email|telegram]',
  description: 'print the latest messages kept in the outbox (mail when SMTP_URL is not set), newest last',
  async run(args, cli) {
    const { positional, flags } = parseArgs(args);
    if (positional.length > 0) throw new UsageError(`unexpected argument "${positional[0]}"`);
    const limit = intFlag(flags, 'limit', 10, 1, 1000);
    const channel = flags.channel as OutboxChannel | undefined;
    if (channel !== undefined && !CHANNELS.includes(channel)) throw new UsageError('--channel must be email or telegram');
    const to = flags.to;
    if (to !== undefined && (to.length === 0 || to.length > 254)) throw new UsageError('--to needs an address');

    const rows = await latestOutbox(cli.db, { limit, channel, recipient: to });
    if (rows.length === 0) {
      cli.out('The outbox is empty.');
      return 0;
    }
    for (const row of rows) {
      cli.out(`#${row.id}  ${new Date(row.created_at).toISOString()}  ${row.channel} -> ${row.recipient}`);
      cli.out(`Subject: ${row.subject}`);
      cli.out('');
      cli.out(row.body);
      cli.out('-'.repeat(72));
    }
    return 0;
  },
};
