/** `session <username|email>`: a one-time admin link that opens an admin session for that user. */
import { transaction } from '../../db';
import { findUserByIdentifier } from '../../domain/auth/login';
import { adminLink, createAdminToken } from '../../domain/auth/admin';
import { UsageError, parseArgs, type CliCommand } from './types';

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
    const token = await transaction(cli.db, (trx) => createAdminToken(trx, user.id, ttl, cli.now()));
    cli.err(`Admin link for ${user.username} (user ${user.id}), valid for ${ttl} seconds, works once:`);
    cli.out(adminLink(cli.baseUrl, token));
    return 0;
  },
};
