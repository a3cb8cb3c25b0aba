/** `session <username|email>`: a one-time admin link that opens an admin session for that user. */
import { transaction } from '../../db';
import { findUserByIdentifier } from '../../domain/auth/login';
import { adminLink, createAdminToken } from '../../domain/auth/admin';
import { appendAudit } from '../../domain/audit/service';
import { UsageError, cliActor, parseArgs, type CliCommand } from './types';

export const sessionCommand: CliCommand = {
  name: 'session',
  usage: '<username|email>',
  description: 'print a one-time link that opens an admin session as that user',
  async run(args, cli) {
    const { positional } = parseArgs(args);
    if (positional.length !== 1 || positional[0].length > 254) throw new UsageError('session needs exactly one username or email');
    const user = await findUserByIdentifier(cli.db, positional[0]);
    if (!user) {
      cli.err(`No user "${positional[0]}".`);
      return 1;
    }
    const ttl = cli.config.adminTokenTtl;
    const token = await transaction(cli.db, async (trx) => {
      const t = await createAdminToken(trx, user.id, ttl, cli.now());
      // Audited as operator "cli" (issue 27); the session it opens is read-only for money.
      await appendAudit(trx, cliActor(), { action: 'user.open_as', targetType: 'user', targetId: user.id, after: { username: user.username, ttl_seconds: ttl } }, cli.now());
      return t;
    });
    cli.err(`Admin link for ${user.username} (user ${user.id}), valid for ${ttl} seconds, works once:`);
    cli.out(adminLink(cli.baseUrl, token));
    return 0;
  },
};
