/**
 * Operator command `documents`: the identity-document review queue, on the database of DATA_DIR
 * directly (the server may keep running: writes take SQLite's write lock, and the status change
 * reaches the owner's browser through the domain_events outbox the server polls).
 *
 *   documents list [--status uploaded|pending|approved|rejected|all] [--user <id>] [--limit <n>]
 *   documents show <id>                      the document with the paths of its files on disk
 *   documents review <id>                    take an uploaded document under review (-> pending)
 *   documents approve <id>                   an uploaded or pending document
 *   documents reject <id> --reason "..."     an uploaded or pending one; the user sees the reason
 */
import * as v from 'valibot';
import { DOCUMENT_STATUSES, RejectionReasonSchema, type DocumentStatus } from '../../../contract/profile';
import { DomainError } from '../../domain/errors';
import { cliProfileDeps } from '../../domain/profile/deps';
import { listDocumentsForOperator, reviewDocument, type OperatorDocument, type ReviewDecision } from '../../domain/profile/documents';
import { appendAudit } from '../../domain/audit/service';
import { UsageError, cliActor, parseArgs, type CliCommand } from './types';

const USAGE =
  'list [--status uploaded|pending|approved|rejected|all] [--user <id>] [--limit <n>] | show <id> | review <id> | approve <id> | reject <id> --reason "..."';

const IdSchema = v.pipe(v.string(), v.regex(/^[1-9]\d{0,15}$/, 'Document id must be a positive whole number'), v.transform(Number));
const ListOptionsSchema = v.object({
  status: v.optional(v.picklist([...DOCUMENT_STATUSES, 'all'], 'Unknown --status'), 'all'),
  user: v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,15}$/, '--user must be a user id'), v.transform(Number))),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,4}$/, '--limit must be 1..1000'), v.transform(Number), v.minValue(1), v.maxValue(1000)), '50'),
});

const utc = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';

export function describeDocument(d: OperatorDocument): string {
  return [
    `#${d.id}`,
    d.type.padEnd(14),
    d.status.padEnd(8),
    `user ${d.user_id} (${d.username})`,
    `${d.files.length} file${d.files.length === 1 ? '' : 's'}`,
    utc(d.created_at),
    d.rejection_reason ? `reason: "${d.rejection_reason}"` : '',
  ]
    .filter((x) => x !== '')
    .join('  ');
}

function parseId(raw: string | undefined): number {
  const id = v.safeParse(IdSchema, raw ?? '');
  if (!id.success) throw new UsageError(id.issues[0].message);
  return id.output;
}

export const documentsCommand: CliCommand = {
  name: 'documents',
  usage: USAGE,
  description: 'review identity documents: list the queue, show one with its files, take it under review, approve or reject it',
  async run(args, cli) {
    const [sub, ...rest] = args;
    const { positional, flags } = parseArgs(rest);
    const deps = await cliProfileDeps(cli);

    if (sub === 'list') {
      if (positional.length > 0) throw new UsageError(`unexpected argument "${positional[0]}"`);
      const parsed = v.safeParse(ListOptionsSchema, flags);
      if (!parsed.success) throw new UsageError(parsed.issues[0].message);
      const o = parsed.output;
      const status = o.status === 'all' ? undefined : (o.status as DocumentStatus);
      const docs = await listDocumentsForOperator(deps, { status, userId: o.user, limit: o.limit });
      if (docs.length === 0) cli.out('No documents.');
      for (const d of docs) cli.out(describeDocument(d));
      return 0;
    }

    if (sub === 'show') {
      const id = parseId(positional[0]);
      const [doc] = await listDocumentsForOperator(deps, { id, limit: 1 });
      if (!doc) {
        cli.err(`No document #${id}.`);
        return 1;
      }
      cli.out(describeDocument(doc));
      doc.files.forEach((f, i) => cli.out(`  file ${f.id}  ${f.mime.padEnd(15)}  ${String(f.size).padStart(9)} B  "${f.name}"  ${doc.paths[i]}`));
      return 0;
    }

    if (sub === 'review' || sub === 'approve' || sub === 'reject') {
      const id = parseId(positional[0]);
      if (positional.length > 1) throw new UsageError(`unexpected argument "${positional[1]}"`);
      let decision: ReviewDecision;
      if (sub === 'reject') {
        if (flags.reason === undefined) throw new UsageError('reject needs --reason "..." (the user sees it)');
        const r = v.safeParse(RejectionReasonSchema, flags.reason);
        if (!r.success) throw new UsageError(r.issues[0].message);
        decision = { status: 'rejected', reason: r.output };
      } else {
        if (flags.reason !== undefined) throw new UsageError(`${sub} takes no --reason`);
        decision = { status: sub === 'review' ? 'pending' : 'approved' };
      }
      try {
        // Audited as operator "cli" in the decision's own transaction (issue 27).
        const outcome = await reviewDocument(deps, id, decision, async (trx, before) => {
          await appendAudit(trx, cliActor(), { action: `kyc.${sub}`, targetType: 'document', targetId: id, reason: decision.status === 'rejected' ? decision.reason : null, before: { status: before }, after: { status: decision.status } }, cli.now());
        });
        const done = sub === 'review' ? 'Under review' : sub === 'approve' ? 'Approved' : 'Rejected';
        cli.out(`${outcome.changed ? done : 'Already done'}: ${describeDocument(outcome.document)}`);
        return 0;
      } catch (err) {
        if (err instanceof DomainError) {
          cli.err(err.message);
          return 1;
        }
        throw err;
      }
    }

    throw new UsageError(sub ? `Unknown documents command: ${sub}` : 'Missing documents command');
  },
};
