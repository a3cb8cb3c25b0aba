/**
 * Operator command `tx`: list deposits and withdrawals and approve or reject them, on the
 * database of DATA_DIR directly (the server need not be stopped: writes take the SQLite write
 * lock with BEGIN IMMEDIATE, and the change reaches the user's sockets through the
 * domain_events outbox the server polls).
 *
 *   tx list [--status pending|completed|failed|processing|approved|expired|cancelled|all]
 *           [--type deposit|withdrawal] [--user <id>] [--limit <n>] [--late-payments]
 *                                        --late-payments: only the review rows of payments that
 *                                        arrived for a failed deposit (marked LATE PAYMENT, REVIEW)
 *   tx approve <id>                      deposit: credit it; withdrawal: pay out the hold
 *   tx reject <id> [--reason "..."]      deposit: failed; withdrawal: release the hold
 */
import * as v from 'valibot';
import { formatMinor } from '../../../contract/money';
import { transaction } from '../../db';
import { DomainError } from '../../domain/errors';
import type { PaymentsDeps } from '../../domain/payments/deps';
import { approveTransaction, rejectTransaction, DEFAULT_REJECT_REASON } from '../../domain/payments/review';
import { isLatePaymentReview } from '../../domain/payments/status';
import { listTransactionsForOperator } from '../../domain/payments/repository';
import { formatUtc } from '../../domain/payments/transactions';
import { decimalsOf, paymentDetailsOf, type PaymentTxRow } from '../../domain/payments/wire';
import type { Trx } from '../../db';
import { appendAudit } from '../../domain/audit/service';
import { UsageError, cliActor, parseArgs, type CliCommand } from './types';

const USAGE =
  'list [--status pending|completed|failed|processing|approved|expired|cancelled|all] [--type deposit|withdrawal] [--user <id>] [--limit <n>] [--late-payments] | approve <id> | reject <id> [--reason "..."]';

const IdSchema = v.pipe(v.string(), v.regex(/^[1-9]\d{0,15}$/, 'Transaction id must be a positive whole number'), v.transform(Number));
const ListOptionsSchema = v.object({
  status: v.optional(
    v.picklist(['pending', 'completed', 'failed', 'processing', 'approved', 'expired', 'cancelled', 'all'], 'Unknown --status'),
    'all',
  ),
  type: v.optional(v.picklist(['deposit', 'withdrawal'], 'Unknown --type')),
  user: v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}$/, '--user must be a user id'), v.transform(Number))),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,4}$/, '--limit must be 1..1000'), v.transform(Number), v.minValue(1), v.maxValue(1000)), '50'),
  'late-payments': v.optional(v.literal('true', '--late-payments takes no value')),
});
const ReasonSchema = v.pipe(v.string(), v.trim(), v.minLength(1, '--reason must not be empty'), v.maxLength(500, '--reason must be at most 500 characters'));

export function describeTransaction(row: PaymentTxRow): string {
  const amount = `${formatMinor(Number(row.amount), decimalsOf(row.currency))} ${row.currency}`;
  // The operator pays out to these, so they are printed whole (the user only ever sees a card masked).
  const requisites = row.transaction_type === 'withdrawal' ? paymentDetailsOf(row)?.requisites : undefined;
  const extra = [requisites && `to ${requisites}`, row.crypto_transaction_hash && `hash ${row.crypto_transaction_hash}`, row.error_message && `"${row.error_message}"`]
    .filter(Boolean)
    .join(' ');
  return [
    `#${row.id}`,
    isLatePaymentReview(row) ? 'LATE PAYMENT, REVIEW' : '',
    row.transaction_type.padEnd(10),
    row.status.padEnd(10),
    `user ${row.user_id}`.padEnd(10),
    amount.padStart(22),
    row.method_name,
    formatUtc(Number(row.created_at)),
    extra,
  ]
    .filter((x) => x !== '')
    .join('  ');
}

export const txCommand: CliCommand = {
  name: 'tx',
  usage: USAGE,
  description: 'list deposits and withdrawals; approve (credit / pay out) or reject (fail / release the hold) one',
  async run(args, cli) {
    const [sub, ...rest] = args;
    const { positional, flags } = parseArgs(rest);
    const deps: PaymentsDeps = { db: cli.db, tx: (fn) => transaction(cli.db, fn), now: cli.now };

    if (sub === 'list') {
      const parsed = v.safeParse(ListOptionsSchema, flags);
      if (!parsed.success) throw new UsageError(parsed.issues[0].message);
      const o = parsed.output;
      const rows = await listTransactionsForOperator(cli.db, { status: o.status, type: o.type, userId: o.user, limit: o.limit, latePayments: o['late-payments'] === 'true' });
      if (rows.length === 0) cli.out('No transactions.');
      for (const row of rows) cli.out(describeTransaction(row));
      return 0;
    }

    if (sub === 'approve' || sub === 'reject') {
      const id = v.safeParse(IdSchema, positional[0] ?? '');
      if (!id.success) throw new UsageError(id.issues[0].message);
      let reason = DEFAULT_REJECT_REASON;
      if (sub === 'reject' && flags.reason !== undefined) {
        const r = v.safeParse(ReasonSchema, flags.reason);
        if (!r.success) throw new UsageError(r.issues[0].message);
        reason = r.output;
      }
      try {
        // Audited as operator "cli" in the decision's own transaction (issue 27).
        const audit = (trx: Trx, before: PaymentTxRow, after: PaymentTxRow) =>
          appendAudit(trx, cliActor(), { action: `payment.${sub}`, targetType: 'payment', targetId: id.output, reason: sub === 'reject' ? reason : null, before: { status: before.status }, after: { status: after.status, amount_minor: Number(after.amount), currency: after.currency } }, cli.now()).then(() => undefined);
        const outcome = sub === 'approve' ? await approveTransaction(deps, id.output, audit) : await rejectTransaction(deps, id.output, reason, audit);
        cli.out(`${outcome.changed ? (sub === 'approve' ? 'Approved' : 'Rejected') : 'Already done'}: ${describeTransaction(outcome.row)}`);
        return 0;
      } catch (err) {
        if (err instanceof DomainError) {
          cli.err(err.message);
          return 1;
        }
        throw err;
      }
    }

    throw new UsageError(sub ? `Unknown tx command: ${sub}` : 'Missing tx command');
  },
};
