/**
 * Operator accounts of the console (issue 27), each change audited as operator "cli":
 *
 *   operators add <username> <role> [--email a@b] [--password ...]   prints the initial password
 *                         (unless given) and the TOTP secret and otpauth:// URI to enrol once
 *   operators role <username> <role> [--reason "..."]
 *   operators disable <username> [--reason "..."]
 *   operators list [--json]
 *
 * Roles: support, compliance, finance, risk, admin (docs/operator-console.md).
 */
import * as v from 'valibot';
import { CreateOperatorSchema, OPERATOR_ROLES, type OperatorRole } from '../../../contract/console';
import { transaction } from '../../db';
import { DomainError } from '../../domain/errors';
import { OperatorsService } from '../../domain/operators/service';
import { SecretBox } from '../../domain/profile/secret-box';
import { loadSecrets } from '../../secrets';
import { UsageError, cliActor, parseArgs, type CliCommand, type CliContext } from './types';

const USAGE = 'add <username> <role> [--email <address>] [--password <password>] | role <username> <role> [--reason "..."] | disable <username> [--reason "..."] | list [--json]';

/** The operators service on the CLI's database (the TOTP secrets are sealed with the server's secret). */
export async function cliOperators(cli: CliContext): Promise<OperatorsService> {
  const secrets = await loadSecrets(cli.config, cli.db);
  return new OperatorsService({
    db: cli.db,
    tx: (fn) => transaction(cli.db, fn),
    now: cli.now,
    log: { error: (obj, msg) => cli.err(`${msg} ${JSON.stringify(obj)}`) },
    box: new SecretBox(secrets.jwtSecret),
  });
}

function role(raw: string | undefined): OperatorRole {
  if (!raw || !(OPERATOR_ROLES as readonly string[]).includes(raw)) throw new UsageError(`The role must be one of ${OPERATOR_ROLES.join(', ')}`);
  return raw as OperatorRole;
}

export const operatorsCommand: CliCommand = {
  name: 'operators',
  usage: USAGE,
  description: 'console operators: add one (prints its initial password and TOTP enrolment), change its role, disable it, list them',
  async run(args, cli) {
    const [sub, ...rest] = args;
    const { positional, flags } = parseArgs(rest);
    const service = await cliOperators(cli);
    const reason = flags.reason && flags.reason !== 'true' ? flags.reason.slice(0, 500) : 'by the CLI';
    try {
      if (sub === 'list') {
        const list = await service.list();
        if (flags.json !== undefined) {
          cli.out(JSON.stringify({ operators: list }));
          return 0;
        }
        if (list.length === 0) cli.out('No operators.');
        for (const o of list) {
          cli.out(`#${o.id}  ${o.username.padEnd(24)} ${o.role.padEnd(10)} ${o.disabled_at_ms ? 'DISABLED' : 'active'}${o.email ? `  ${o.email}` : ''}`);
        }
        return 0;
      }
      if (sub === 'add') {
        if (positional.length !== 2) throw new UsageError('operators add takes a username and a role');
        const parsed = v.safeParse(CreateOperatorSchema, { username: positional[0], role: role(positional[1]), ...(flags.email ? { email: flags.email } : {}) });
        if (!parsed.success) throw new UsageError(parsed.issues[0].message);
        const password = flags.password && flags.password !== 'true' ? flags.password : undefined;
        const created = await service.create({ ...parsed.output, email: parsed.output.email ?? null, password }, cliActor());
        cli.out(`Operator ${created.operator.username} (#${created.operator.id}), role ${created.operator.role}.`);
        if (created.initial_password) cli.out(`Initial password (shown once): ${created.initial_password}`);
        cli.out(`TOTP secret (shown once; add it to an authenticator app): ${created.totp_secret}`);
        cli.out(`otpauth URI: ${created.otpauth_url}`);
        return 0;
      }
      if (sub === 'role') {
        if (positional.length !== 2) throw new UsageError('operators role takes a username and a role');
        const o = await service.setRole(positional[0], role(positional[1]), reason, cliActor());
        cli.out(`Operator ${o.username}: role ${o.role}; their sessions were ended.`);
        return 0;
      }
      if (sub === 'disable') {
        if (positional.length !== 1) throw new UsageError('operators disable takes a username');
        const o = await service.disable(positional[0], reason, cliActor());
        cli.out(`Operator ${o.username} disabled; their sessions were ended.`);
        return 0;
      }
    } catch (err) {
      if (err instanceof DomainError) {
        cli.err(err.message);
        return 1;
      }
      throw err;
    }
    throw new UsageError(sub ? `Unknown operators command: ${sub}` : 'Missing operators command');
  },
};
